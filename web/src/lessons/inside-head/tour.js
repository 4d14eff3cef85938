// The guided tour's steps in the chapter "Inside one head", in teaching order (the step format:
// explorer/tour-steps.js).
import { RIVER } from '../../settings/sentences.js';

/** @type {{ id: string, title: string, text: string, state: object, view: string, figure?: string }[]} */
export const tour = [
  {
    id: 'pipeline',
    title: 'Every step of a head',
    text:
      'The whole computation of the selected head: word vectors X plus positions P; Q, K and V; Q Kᵀ, the scaling, the mask, ' +
      'the softmax and the weighted sum A·V; then all heads concatenated and mixed by W_O. After attention comes the rest of the ' +
      'encoder block: residual connections, LayerNorm and the feed-forward layer. Hover any cell for its value and where it came from.',
    state: { ...RIVER },
    view: 'pipeline',
  },
];
