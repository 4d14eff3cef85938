// The guided tour's steps in the chapter "Other lenses", in teaching order (the step format:
// explorer/tour-steps.js).
import { COMPARISON, ONE_HEAD, RIVER } from '../../settings/sentences.js';

/** @type {{ id: string, title: string, text: string, state: object, view: string, figure?: string }[]} */
export const tour = [
  {
    id: 'context',
    title: 'Context moves meaning',
    ownSentence: 'two sentences that share “bank”',
    text:
      'Each word starts at its word vector (○) and attention moves it to its output (●), toward the words around it. ' +
      '“bank” starts at the same point in both sentences and is pulled two ways: by “river” in one, by “money” in the other. ' +
      "That is what makes attention's outputs contextual word vectors.",
    state: {
      ...ONE_HEAD,
      compare: true,
      sentence: COMPARISON[0],
      compareSentence: COMPARISON[1],
      positionalEncoding: 'none',
      projection: 'identity',
    },
    view: 'projection',
  },
  {
    id: 'normalizers',
    title: 'Normalizers: softmax is one choice',
    text:
      'A row of weights is a point of the simplex, and each normalizer picks the point that maximizes ⟨p, s⟩/τ minus a penalty: ' +
      'entropy gives softmax (inside the triangle), the squared norm sparsemax, which lands on an edge — an exact zero — as here. ' +
      "Drag a score bar and watch the four points move; the grey level sets peak at the chosen normalizer's point.",
    state: { ...RIVER, simplexScores: [1, 0.5, -0.5] },
    view: 'simplex',
  },
  {
    id: 'additive-scores',
    title: 'Another score function: additive attention',
    text:
      "Bahdanau's attention scores a query and a key with a small network, vᵀ tanh(W_q q + W_k k), instead of a dot product. " +
      'The table above the heads counts the operations for this sentence: the additive score costs several times more than q·k, ' +
      'one reason the Transformer chose the (scaled) dot product.',
    state: { ...RIVER, numHeads: 4, projection: 'random', scoreFunction: 'additive' },
    view: 'score-function',
  },
  {
    id: 'soft-lookup',
    title: 'Attention is a soft dictionary lookup',
    text:
      'A dictionary returns the value of the key that equals the query, or fails. Attention returns a mix of all values, ' +
      'weighted by how similar each key is to the query: “Luk” matches no key exactly, yet gets mostly Sprangers. ' +
      'Lower τ towards the exact lookup, raise it and the mix turns fuzzy.',
    state: { ...RIVER },
    view: 'lookup',
  },
  {
    id: 'cross-attention',
    title: 'Cross-attention: a decoder reads the source',
    text:
      "In translation the target sentence attends to itself causally (step 1), then each target word's query reads the source " +
      "sentence's keys and values (step 2, a [target, source] matrix). Type another source above or another target here; " +
      'starred words have no pretrained vector.',
    state: { ...RIVER },
    view: 'cross',
  },
  {
    id: 'cost',
    title: 'What attention costs',
    text:
      'Self-attention relates every pair of tokens in one step (path length 1) for n²·d operations; a recurrent layer needs n ' +
      'sequential steps, a convolution ⌈(n−1)/(k−1)⌉ layers. Below n = d = 100 tokens self-attention is also the cheapest: ' +
      'see where the curves cross.',
    state: { ...RIVER },
    view: 'cost',
  },
];
