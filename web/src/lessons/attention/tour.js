// The guided tour's steps in the chapter "Attention", in teaching order (the step format:
// explorer/tour-steps.js).
import { modelIdThat } from '../../models/registry.js';
import { RIVER } from '../../settings/sentences.js';

/**
 * The model the first steps show: their text is about the designed heads' settings (identity or random projections,
 * the score function, head kinds, masks), which a trained model fixes, so they switch to the designed heads and the
 * panel says so (tour-steps.js stepText), and closing the tour gives the learner's model back.
 */
const DESIGNED_HEADS = modelIdThat('designedControls');

/** @type {{ id: string, title: string, text: string, state: object, view: string, figure?: string, control?: string, ownSentence?: string }[]} */
export const tour = [
  {
    id: 'attention-weights',
    title: 'Attention weights: a weighted sum',
    text:
      'Each row is a query word, each column a key word, and a cell is how much the query takes from that key; ' +
      "every row sums to 1. The word's new vector is the sum of the value vectors weighted by its row. " +
      "With identity projections a word's query and key are the same vector, so every row peaks on the diagonal — hover a cell for its value.",
    state: { ...RIVER, model: DESIGNED_HEADS },
    view: 'attention',
    figure: 'attention',
  },
  {
    id: 'scaled-scores',
    title: 'Scores Q Kᵀ / √d_k, and why divide',
    text:
      "The weights come from scores, each query's dot product with every key, turned into weights by a softmax along the row. " +
      'Here the division by √d_k = 10 is switched off: dot products of 100-dimensional vectors are large, so softmax saturates ' +
      "into one-hot rows (0 bits of entropy, beside each row). Dividing by √d_k keeps the scores' spread near 1 for any d_k " +
      '(Vaswani et al. §3.2.1); choose “scaled dot product” in the Score function menu (More settings, opened above) to see the rows soften.',
    state: { ...RIVER, model: DESIGNED_HEADS, scoreFunction: 'dot' },
    view: 'attention',
    figure: 'attention',
    control: 'scoreFunction',
  },
  {
    id: 'heads',
    title: 'Several heads',
    text:
      'Multi-head attention splits d_model = 100 into 4 heads of d_k = 25, each with its own columns of W_Q, W_K and W_V ' +
      '(random here, like an untrained model). Each head computes its own pattern; their outputs are concatenated and mixed by W_O. ' +
      'Click a thumbnail to select a head: the large heatmap and every step below follow it.',
    state: { ...RIVER, model: DESIGNED_HEADS, numHeads: 4, projection: 'random' },
    view: 'heads',
  },
  {
    id: 'designed-heads',
    title: 'Designed heads',
    text:
      'Trained models grow heads with recognisable patterns; these four are built by hand, so you know what to expect. ' +
      'Previous token: a band just below the diagonal. Semantic: each word looks at its most similar other word (“muddy” at “river”); ' +
      'first token: one column at position 0; uniform: an even average of all words.',
    state: { ...RIVER, model: DESIGNED_HEADS, numHeads: 4, headKinds: ['previous', 'semantic', 'first', 'uniform'] },
    view: 'heads',
  },
  {
    id: 'causal-mask',
    title: 'Causal mask',
    text:
      'A decoder such as GPT must not look ahead: the causal mask sets the scores of later keys to −∞ before the softmax, ' +
      'so the upper triangle is grey and weighs exactly 0. “The” can only attend to itself, and every row still sums to 1 ' +
      'over the keys it may see.',
    state: { ...RIVER, model: DESIGNED_HEADS, mask: 'causal' },
    view: 'attention',
    figure: 'attention',
  },
  {
    id: 'padding-and-mask-token',
    ownSentence: 'its valid length and its blank are positions in it',
    title: 'Padding and [MASK]',
    text:
      'Sentences in a batch are padded to one length; the valid length (5 here) hides the padding keys, drawn faded, ' +
      "from every query (d2l's valid_lens). Separately, “bank” is replaced by [MASK], the mean word vector, as in BERT's training: " +
      'with no meaning of its own, its row spreads its weight over the other words. Click any word to mask or restore it.',
    state: { ...RIVER, model: DESIGNED_HEADS, mask: 'padding', validLength: 5, maskedPositions: [2] },
    view: 'tokens',
    figure: 'attention', // the faded padding keys and the [MASK] row are in the weights
  },
  {
    id: 'trained-model',
    title: 'A trained model: heads it learned',
    text:
      'Everything so far was built by hand or random; “trained decoder” (Model, beside the tokens) is our own small ' +
      'language model, trained on English text and run on your sentence. Its 16 heads (4 layers × 4) were never told ' +
      'what to do: each is named by what it was measured to do on held-out text. Its next-word predictions are in this ' +
      'chapter too, under “The next word”, with what it read and how well it predicts.',
    // The registry's model that writes the next word: the decoder.
    state: { model: modelIdThat('generate') },
    view: 'heads',
    figure: 'heads',
  },
  {
    id: 'measured-label',
    title: "A head's measured label",
    text:
      '“previous word 0.90” means that on held-out text this head puts, on average, 0.90 of its weight on the word just ' +
      'before — the job the designed “previous token” head does by construction. A head whose best score stays below 0.4 ' +
      'is “mixed”; the list under the heads says what each name measures.',
    state: { model: modelIdThat('generate'), head: { layer: 1, head: 2 } },
    view: 'attention',
    figure: 'attention',
  },
  {
    id: 'copying',
    ownSentence: 'after its second “lemon” comes what followed the first',
    title: 'Copying from context: induction heads',
    text:
      'A language model that has read “… a lemon tree … the lemon” guesses “tree”: a head looks from the second ' +
      '“lemon” to the word after the first one and copies it (an induction head, Olsson et al. 2022). This decoder ' +
      'learned four, all in layer 3 and labelled “induction”. In the last row of layer 3, head 3’s weights, the second ' +
      '“lemon” puts most of its weight on “tree”, and “tree” is the likeliest next word. The head detector under the ' +
      'mix tests every head on random words said twice, where only copying helps.',
    state: {
      model: modelIdThat('generate'),
      sentence: 'she planted a lemon tree in the garden . in summer the lemon',
      head: { layer: 2, head: 2 },
    },
    view: 'attention',
    figure: 'attention',
  },
  {
    id: 'knockout',
    ownSentence: 'switching this head off changes its next word',
    title: 'Knock a head out',
    text:
      'Each head in the grid has a switch: off, its output is set to 0 before W_O, and every later layer and the ' +
      'predictions are recomputed without it. Here layer 3, head 1, an induction head, is off: after “… a leather bag . ' +
      'inside the leather” the likeliest next word turns from “bag”, the copy, to “seat”, what usually follows ' +
      '“leather”. Point at a predicted word: “Why this word?” measures how much each head and ' +
      'each earlier word moves its log-probability — on this sentence, not an explanation of the model.',
    state: {
      model: modelIdThat('generate'),
      sentence: 'the old man carried a leather bag . inside the leather',
      knockout: [{ layer: 2, head: 0 }],
    },
    view: 'predictions',
    figure: 'predictions',
  },
];
