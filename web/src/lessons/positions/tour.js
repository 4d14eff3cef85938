// The guided tour's steps in the chapter "Positions", in teaching order (the step format:
// explorer/tour-steps.js).
import { RIVER } from '../../settings/sentences.js';

/** @type {{ id: string, title: string, text: string, state: object, view: string, figure?: string }[]} */
export const tour = [
  {
    id: 'relative-position',
    title: 'Relative position is a rotation',
    text:
      "P Pᵀ is the same along each diagonal: how alike two positions' encodings are depends only on their offset. " +
      'The reason is below it: moving from position i to i + δ turns every (sin, cos) pair by the same angle δ·ω_j wherever i is, ' +
      'and the table lands on p_{i+δ} to float32 precision. So one fixed linear map can find “the word δ back” anywhere, ' +
      'which is how the previous-token head is built.',
    state: { ...RIVER },
    view: 'lab',
    figure: 'rotation',
  },
  {
    id: 'shuffle',
    title: 'Why position matters: shuffle the words',
    text:
      'With position information off, as here, shuffling the words only shuffles the weights: put back in order they agree exactly, ' +
      'because attention alone treats a sentence as a bag of words. Set Position information to sinusoidal and the difference ' +
      'becomes large; “Shuffle words” tries another order.',
    state: { ...RIVER, positionalEncoding: 'none' },
    view: 'lab',
    figure: 'shuffle',
  },
];
