// The guided tour's steps, in teaching order: from a weighted sum to positional encodings, then the
// lenses. Pure data; tour.js shows them and the element applies them.
//
// A step is { id, title, text, state, view, figure? }:
//   id      stable name, used in links (#tour=<id>) and in the `tour` attribute: lowercase-with-dashes,
//           unique. Never rename one (old links would stop working); append new steps instead.
//   title   a few words; the step's heading.
//   text    two or three sentences: what to notice in the figure with this state.
//   state   a partial state (fields of defaultState() in state.js) applied on top of the explorer's
//           defaults, so a step looks the same however the learner got to it. Every step sets the
//           sentence its text talks about.
//   view    the `views` name (attributes.js VIEWS) of the section the step opens (its chapter) and scrolls to; with a `views`
//           attribute that hides it, the tour skips the step.
//   figure  optional: a figure slot (figures.js FIGURES) to scroll to inside that view, for long views.
// tests/js/tour.test.js checks every field of every step.
import { COMPARISON, DEFAULT_SENTENCE } from './state.js';

// The steps' texts speak of one projected head unless they set their own heads.
const ONE_HEAD = { numHeads: 1, headKinds: [] };
const RIVER = { sentence: DEFAULT_SENTENCE, ...ONE_HEAD };

/** @type {{ id: string, title: string, text: string, state: object, view: string, figure?: string }[]} */
export const TOUR_STEPS = [
  {
    id: 'attention-weights',
    title: 'Attention weights: a weighted sum',
    text: 'Each row is a query word, each column a key word, and a cell is how much the query takes from that key; ' +
      'every row sums to 1. The word\'s new vector is the sum of the value vectors weighted by its row. ' +
      'With identity projections a word\'s query and key are the same vector, so every row peaks on the diagonal — hover a cell for its value.',
    state: { ...RIVER },
    view: 'attention',
  },
  {
    id: 'scaled-scores',
    title: 'Scores Q Kᵀ / √d_k, and why divide',
    text: 'The weights come from scores, each query\'s dot product with every key, turned into weights by a softmax along the row. ' +
      'Here the division by √d_k = 10 is switched off: dot products of 100-dimensional vectors are large, so softmax saturates ' +
      'into one-hot rows (0 bits of entropy, beside each row). Dividing by √d_k keeps the scores\' spread near 1 for any d_k ' +
      '(Vaswani et al. §3.2.1); choose “scaled dot product” in the Score function menu above to see the rows soften.',
    state: { ...RIVER, scoreFunction: 'dot' },
    view: 'attention',
  },
  {
    id: 'heads',
    title: 'Several heads',
    text: 'Multi-head attention splits d_model = 100 into 4 heads of d_k = 25, each with its own columns of W_Q, W_K and W_V ' +
      '(random here, like an untrained model). Each head computes its own pattern; their outputs are concatenated and mixed by W_O. ' +
      'Click a thumbnail to select a head: the large heatmap and every step below follow it.',
    state: { ...RIVER, numHeads: 4, projection: 'random' },
    view: 'heads',
  },
  {
    id: 'designed-heads',
    title: 'Designed heads',
    text: 'Trained models grow heads with recognisable patterns; these four are built by hand, so you know what to expect. ' +
      'Previous token: a band just below the diagonal. Semantic: each word looks at its most similar other word (“muddy” at “river”); ' +
      'first token: one column at position 0; uniform: an even average of all words.',
    state: { ...RIVER, numHeads: 4, headKinds: ['previous', 'semantic', 'first', 'uniform'] },
    view: 'heads',
  },
  {
    id: 'causal-mask',
    title: 'Causal mask',
    text: 'A decoder such as GPT must not look ahead: the causal mask sets the scores of later keys to −∞ before the softmax, ' +
      'so the upper triangle is grey and weighs exactly 0. “The” can only attend to itself, and every row still sums to 1 ' +
      'over the keys it may see.',
    state: { ...RIVER, mask: 'causal' },
    view: 'attention',
  },
  {
    id: 'padding-and-mask-token',
    title: 'Padding and [MASK]',
    text: 'Sentences in a batch are padded to one length; the valid length (5 here) hides the padding keys, drawn faded, ' +
      'from every query (d2l\'s valid_lens). Separately, “bank” is replaced by [MASK], the mean word vector, as in BERT\'s training: ' +
      'with no meaning of its own, its row spreads its weight over the other words. Click any word to mask or restore it.',
    state: { ...RIVER, mask: 'padding', validLength: 5, maskedPositions: [2] },
    view: 'tokens',
  },
  {
    id: 'pipeline',
    title: 'Every step of a head',
    text: 'The whole computation of the selected head: word vectors X plus positions P; Q, K and V; Q Kᵀ, the scaling, the mask, ' +
      'the softmax and the weighted sum A·V; then all heads concatenated and mixed by W_O. After attention comes the rest of the ' +
      'encoder block: residual connections, LayerNorm and the feed-forward layer. Hover any cell for its value and where it came from.',
    state: { ...RIVER },
    view: 'pipeline',
  },
  {
    id: 'context',
    title: 'Context moves meaning',
    text: 'Each word starts at its word vector (○) and attention moves it to its output (●), toward the words around it. ' +
      '“bank” starts at the same point in both sentences and is pulled two ways: by “river” in one, by “money” in the other. ' +
      'That is what makes attention\'s outputs contextual word vectors.',
    state: { ...ONE_HEAD, compare: true, sentence: COMPARISON[0], compareSentence: COMPARISON[1], positionalEncoding: 'none', projection: 'identity' },
    view: 'projection',
  },
  {
    id: 'relative-position',
    title: 'Relative position is a rotation',
    text: 'P Pᵀ is the same along each diagonal: how alike two positions\' encodings are depends only on their offset. ' +
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
    text: 'With position information off, as here, shuffling the words only shuffles the weights: put back in order they agree exactly, ' +
      'because attention alone treats a sentence as a bag of words. Set Position information to sinusoidal and the difference ' +
      'becomes large; “Shuffle words” tries another order.',
    state: { ...RIVER, positionalEncoding: 'none' },
    view: 'lab',
    figure: 'shuffle',
  },
  {
    id: 'normalizers',
    title: 'Normalizers: softmax is one choice',
    text: 'A row of weights is a point of the simplex, and each normalizer picks the point that maximizes ⟨p, s⟩/τ minus a penalty: ' +
      'entropy gives softmax (inside the triangle), the squared norm sparsemax, which lands on an edge — an exact zero — as here. ' +
      'Drag a score bar and watch the four points move; the grey level sets peak at the chosen normalizer\'s point.',
    state: { ...RIVER, simplexScores: [1, 0.5, -0.5] },
    view: 'simplex',
  },
  {
    id: 'additive-scores',
    title: 'Another score function: additive attention',
    text: 'Bahdanau\'s attention scores a query and a key with a small network, vᵀ tanh(W_q q + W_k k), instead of a dot product. ' +
      'The table above the heads counts the operations for this sentence: the additive score costs several times more than q·k, ' +
      'one reason the Transformer chose the (scaled) dot product.',
    state: { ...RIVER, numHeads: 4, projection: 'random', scoreFunction: 'additive' },
    view: 'score-function',
  },
  {
    id: 'soft-lookup',
    title: 'Attention is a soft dictionary lookup',
    text: 'A dictionary returns the value of the key that equals the query, or fails. Attention returns a mix of all values, ' +
      'weighted by how similar each key is to the query: “Luk” matches no key exactly, yet gets mostly Sprangers. ' +
      'Lower τ towards the exact lookup, raise it and the mix turns fuzzy.',
    state: { ...RIVER },
    view: 'lookup',
  },
  {
    id: 'cross-attention',
    title: 'Cross-attention: a decoder reads the source',
    text: 'In translation the target sentence attends to itself causally (step 1), then each target word\'s query reads the source ' +
      'sentence\'s keys and values (step 2, a [target, source] matrix). Type another source above or another target here; ' +
      'starred words have no pretrained vector.',
    state: { ...RIVER },
    view: 'cross',
  },
  {
    id: 'cost',
    title: 'What attention costs',
    text: 'Self-attention relates every pair of tokens in one step (path length 1) for n²·d operations; a recurrent layer needs n ' +
      'sequential steps, a convolution ⌈(n−1)/(k−1)⌉ layers. Below n = d = 100 tokens self-attention is also the cheapest: ' +
      'see where the curves cross.',
    state: { ...RIVER },
    view: 'cost',
  },
];

/**
 * The step a `tour` attribute names: empty for the first, a number from 1, or a step id.
 * @param {string} text
 * @returns {string} the step's id
 * @throws {RangeError} naming the allowed numbers and ids
 */
export function tourStepId(text) {
  const trimmed = text.trim();
  if (trimmed === '') return TOUR_STEPS[0].id;
  const number = /^\d+$/.test(trimmed) ? Number(trimmed) : null;
  if (number !== null && number >= 1 && number <= TOUR_STEPS.length) return TOUR_STEPS[number - 1].id;
  if (number === null && TOUR_STEPS.some((step) => step.id === trimmed)) return trimmed;
  throw new RangeError(`must be empty, a step number from 1 to ${TOUR_STEPS.length}, or a step id: ${TOUR_STEPS.map((step) => step.id).join(', ')}`);
}
