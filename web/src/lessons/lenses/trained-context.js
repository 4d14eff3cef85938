// Context moves meaning in a trained model: one word shared by the comparison's two sentences, followed through
// the model (core.languageModel run()): its word vector (the same row in both), the first block's input x₀ = x + P
// (its position added), and each block's output. At each stage, the cosine between the word's two vectors, and
// all the stages' points on shared principal axes (PCA in the core). Ethayarajh (2019) measures the same in large
// models (self-similarity): one word's vectors in different sentences grow less alike layer by layer.
import { modelEntry } from '../../models/registry.js';

/**
 * The lens's inputs: null unless a trained model is chosen and two sentences are compared.
 * @param {object} state  the explorer's state (model, compare, sentence, compareSentence)
 * @param {{ get: (kind: string) => object }} models  attention/trained-models.js trainedModels(core)
 * @returns {{ kind: string, sentences: [string, string], status: string } | null}  status: 'ready', 'loading' or
 *   'error: …' (so the lens computes again once the model has loaded)
 */
export function contextInputs(state, models) {
  // Our own models: the word followed is the rarest by their output vocabulary, which a checkpoint's BPE pieces lack.
  if (!modelEntry(state.model).can.ourModel || !state.compare) return null;
  const { model, error } = models.get(state.model);
  return {
    kind: state.model,
    sentences: [state.sentence, state.compareSentence],
    status: model ? 'ready' : error ? `error: ${error}` : 'loading',
  };
}

/** cos(a, b) = a·b / (‖a‖ ‖b‖), in double; 0 when either is the zero vector. */
export function cosine(a, b) {
  let dot = 0,
    aa = 0,
    bb = 0;
  for (let j = 0; j < a.length; ++j) {
    dot += a[j] * b[j];
    aa += a[j] * a[j];
    bb += b[j] * b[j];
  }
  return aa && bb ? dot / Math.sqrt(aa * bb) : 0;
}

/**
 * The word the figure follows: among the words in both sentences (compared lower-cased), the rarest in the model's
 * training text — its output vocabulary lists words by frequency, and a word past it is rarer still — so that
 * "bank" is chosen over "the". A word without a GloVe vector (oov: the model reads one learned <unk> row for every
 * such word) is chosen last.
 * @param {{ text: string, oov: boolean }[][]} tokens  both sentences' tokens (run().tokens)
 * @param {readonly string[]} vocabulary  the model's output vocabulary, most frequent first
 * @returns {{ word: string, positions: [number, number] } | null}  the first occurrence in each sentence; null when none is shared
 */
export function sharedWord([first, second], vocabulary) {
  const rank = new Map(vocabulary.map((word, i) => [word, i]));
  const key = (token) => token.text.toLowerCase();
  const rarity = (token) => (token.oov ? -1 : (rank.get(key(token)) ?? vocabulary.length));
  let best = null;
  first.forEach((token, i) => {
    if (token.mask) return;
    const j = second.findIndex((other) => key(other) === key(token));
    if (j < 0 || (best && rarity(token) <= best.rarity)) return;
    best = { word: key(token), positions: [i, j], rarity: rarity(token) };
  });
  return best && { word: best.word, positions: best.positions };
}

/** Row `i` of a [T, d] matrix. */
const rowOf = ({ data, shape }, i) => data.subarray(i * shape[1], (i + 1) * shape[1]);

/**
 * The figure's data.
 * @param {object} core  createAttentionCore()'s core (its pca)
 * @param {{ get: (kind: string) => object }} models  trainedModels(core)
 * @param {{ kind: string, sentences: [string, string] } | null} inputs  contextInputs() (null: no comparison open, or the
 *   designed heads chosen)
 * @returns {{ closed: true } | { kind, loading: true } | { kind, error: string } | { kind, config, sentences, noShared: true } | { kind, config,
 *   leftToRight, sentences, tokens: [string[], string[]], word, positions: [number, number], stages: { id: 'word' | 'input' | 'layer',
 *   layer?: number, cosine: number, points: [[number, number], [number, number]] }[], variance: [number, number] }}
 *   stages in the model's order: the word vector, x + P, then each block's output (layer 1-based); points: each sentence's
 *   vector on the first two principal axes of all the stages' vectors; variance: along those two axes
 * @throws RangeError from run() (an empty or over-long sentence, [MASK] typed for the decoder): the section says it
 */
export function contextData(core, models, inputs) {
  if (!inputs) return { closed: true };
  const { kind, sentences } = inputs;
  const { model, error } = models.get(kind);
  if (!model) return error ? { kind, error } : { kind, loading: true };
  // Only the blocks are needed: the output layer at one position is the least a run computes.
  const runs = sentences.map((text) => model.run(text, { k: 1, positions: [-1] }));
  const { config } = model;
  const shared = sharedWord(
    runs.map((r) => r.tokens),
    model.vocabulary,
  );
  if (!shared) return { kind, config, sentences, noShared: true };
  const { word, positions } = shared;
  const stages = [
    { id: 'word', matrices: runs.map((r) => r.embeddings) },
    { id: 'input', matrices: runs.map((r) => r.input) },
    ...runs[0].hidden.map((_, l) => ({ id: 'layer', layer: l + 1, matrices: runs.map((r) => r.hidden[l]) })),
  ];
  const vectors = stages.map(({ matrices }) => matrices.map((m, s) => rowOf(m, positions[s])));
  const d = config.dModel;
  const rows = new Float32Array(2 * stages.length * d);
  vectors.flat().forEach((v, r) => rows.set(v, r * d));
  const { coordinates, variance } = core.pca({ data: rows, shape: [2 * stages.length, d] }, { k: 2 });
  const point = (r) => [coordinates.data[2 * r], coordinates.data[2 * r + 1]];
  return {
    kind,
    config,
    // A model that writes the next word reads left to right (its causal mask): the word sees only what came before.
    leftToRight: modelEntry(kind).can.generate,
    sentences,
    word,
    positions,
    tokens: runs.map((r) => r.tokens.map((t) => t.text)),
    stages: stages.map(({ id, layer }, s) => ({
      id,
      layer,
      cosine: cosine(...vectors[s]),
      points: [point(2 * s), point(2 * s + 1)],
    })),
    variance: [...variance.data],
  };
}
