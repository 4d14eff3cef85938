// The guided tour's steps in the chapter "Inside one head", in teaching order (the step format:
// explorer/tour-steps.js).
import { modelIdThat } from '../../models/registry.js';
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
  {
    id: 'output-layer',
    title: 'The output layer: from x_L to the next word',
    text:
      "After its last block the decoder reads the last token's vector x_L (100 numbers): the logits z = x_L U + b give " +
      'each of its 8,192 output words a score, the softmax turns the scores into probabilities, and the likeliest words ' +
      'are its prediction. These are the stepper’s last four steps; shown here, the logits. The designed heads have no ' +
      'output layer: they only attend.',
    // The last layer's block has 15 steps (its input is the layer before's output); the output layer's four follow: the
    // logits are 17th. The model is the registry's that writes the next word: the decoder (4 layers).
    state: { ...RIVER, model: modelIdThat('generate'), head: { layer: 3, head: 0 }, step: 17 },
    view: 'pipeline',
  },
];
