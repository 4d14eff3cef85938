// The one shape every model the page shows gives its figures: a Run. The designed heads (core.explain) are a
// one-layer model of it; the trained decoder and encoder (core.languageModel) fill every layer. Chapters, the
// tour, the stepper, the mix, the exports and the URL read a Run and its heads; none asks which model made it.
// Code counts layers and heads from 0; every label the page shows counts them from 1 (views/labels.js headName,
// headTitle, re-exported here).

/**
 * A head of a model: its layer and its place in the layer, both from 0. The state's `head` is one of these.
 * @typedef {{ layer: number, head: number }} HeadRef
 */

/**
 * One token as a model read it.
 * @typedef {object} RunToken
 * @property {string} text
 * @property {number} start  UTF-16 offsets in the sentence: sentence.slice(start, end) is the token
 * @property {number} end
 * @property {boolean} oov  the word has no pretrained vector
 * @property {boolean} masked  replaced by [MASK]
 * @property {number} [id]  vocabulary row (the designed heads' word vectors), −1 when oov
 */

/**
 * One head of a Run, as the page names it.
 * @typedef {object} RunHead
 * @property {number} layer  from 0
 * @property {number} head  from 0, within its layer
 * @property {string} label  what it does, in a few words ("previous token", "previous word 0.45")
 * @property {string} kind  the designed kind ('semantic', 'offset', …) or the measured job ('previous', 'mixed', …)
 * @property {number} score  a trained head's measured score of its job (NaN where none was measured or for a designed head)
 * @property {string[]} [definitions]  a trained head's: what each name in its label means, one line each ("name: meaning",
 *   trained.js MEASURES)
 * @property {object | null} scores  a trained head's measurements (core.languageModel config.heads); null for a designed head
 * @property {string} [does]  a designed head's job in a line ("looks 1 word back"): it does it by construction
 * @property {string} [dims]  a designed head's widths when they differ from d_model / heads ("d_k = 100 · d_v = 25")
 * @property {string} formula  how its weights come from its scores, for a caption ("softmax(QKᵀ/√d_k)")
 * @property {string} explanation  what it does (a designed head) or learned (a trained one), in a sentence or two
 */

/**
 * What a model computed on a sentence: the one result of an update's one core call.
 * @typedef {object} Run
 * @property {string} model  the model's id (models/registry.js): for what it shows, never to branch on
 * @property {import('./registry.js').Abilities} can  what the model can do (models.js sets it from the registry): what
 *   chapters branch on
 * @property {'ready' | 'loading' | 'error'} status  a trained model still loading (or failed to) has no attention yet
 * @property {string} [error]  why it could not load
 * @property {RunToken[]} tokens  T of them
 * @property {number} totalTokens  the sentence's tokens before any cut (the designed heads trace at most core.maxTokens)
 * @property {boolean} truncated
 * @property {number} validLength  keys at positions ≥ validLength are padding (T without a padding mask)
 * @property {{ data: Float32Array, shape: [number, number, number, number] }} attention  [L, H, T, T]: the weight query i
 *   of head h in layer l puts on key j is data[((l · H + h) · T + i) · T + j]
 * @property {RunHead[]} heads  L · H of them, layer-major
 * @property {boolean} causal  later keys are masked (weight 0) for every query
 * @property {{ data: Uint8Array, shape: [number, number, number, number] }} [masks]  [L, H, T, T], 1 where a head's score
 *   was −∞: the designed heads' (their masks differ by head: a semantic head masks its own position); without it, the
 *   causal mask where `causal`
 * @property {{ data: Float32Array, shape: [number, number] }[]} [hidden]  a trained model's block outputs, [T, dModel] per layer
 * @property {object[]} [predictions]  a trained model's outputs: the decoder's next word, the encoder's blanks (trained.js)
 * @property {object} [block]  a trained model's selected head followed through its block (core LanguageRun activations)
 * @property {HeadRef[]} [knockout]  a trained model's heads switched off in this run (state.knockout; run()'s ablate)
 * @property {string} [text]  a trained model's input text as it read it ([MASK]s written in), for measurements on demand
 * @property {string} [reading]  a trained model's tokens as one text (pieces.js readingOf), for the page's titles
 * @property {{ stage: string, loaded: number, total: number }} [progress]  a checkpoint loading: how much has come
 * @property {{ predictionAt: Function, attribute: Function, generate: Function, repeatedWords: Function,
 *   logitLens?: Function }} [ask]  a trained model's measurements on demand, of the model that made this Run:
 *   predictionAt(position, sampling) (trained.js predictionAt, with this Run's sentence and knockout),
 *   attribute({ position, word }) (attribution.js attributeRun on this Run: a generator of its forward passes),
 *   generate(state) (output-layer.js generate), repeatedWords() (its heads on repeated random words, core repeatedWords,
 *   measured once a model), logitLens() (a checkpoint's); absent while the model loads and for the designed heads
 * @property {object | null} [output]  a trained model's output layer at the position it predicts (output-layer.js outputAt):
 *   the decoder's last token, the encoder's first blank (null without one)
 * @property {number} [labelThreshold]  a trained model's: a head whose best score is below it is "mixed"
 *   (core.languageModelLimits.headLabelThreshold)
 * @property {object} [config]  a trained model's config (core.languageModel(kind).config)
 * @property {object} [trace]  the designed heads' whole trace (core.explain), for the chapters that draw its other parts
 * @property {{ traces: object[], projection: object | null }} [projected]  the designed heads' traces on shared axes
 */

/** @param {Run} run @returns {{ numLayers: number, numHeads: number }} */
export function headCounts(run) {
  const [numLayers, numHeads] = run.attention.shape;
  return { numLayers, numHeads };
}

/**
 * The head `ref` names in this run, as a layer-major index: a head past its layer's last counts on into the next
 * layers (so a flat index in { layer: 0, head: n } names the n-th head), and one past the model's last is its last.
 * @param {{ numLayers: number, numHeads: number }} counts  @param {HeadRef} ref  @returns {number}
 */
export function headIndex({ numLayers, numHeads }, ref) {
  const flat = Math.round((ref?.layer ?? 0) * numHeads + (ref?.head ?? 0));
  return Math.max(0, Math.min(numLayers * numHeads - 1, flat));
}

/** The head `ref` names in a model of these counts (headIndex), as { layer, head }. */
export function resolveHead(counts, ref) {
  const index = headIndex(counts, ref);
  return { layer: Math.floor(index / counts.numHeads), head: index % counts.numHeads };
}

/** The weights of one head of a run: [T, T], row i (query i) at data[i · T + j], a view into run.attention. */
export function headWeights(run, ref) {
  const T = run.attention.shape[2];
  const index = headIndex(headCounts(run), ref);
  return run.attention.data.subarray(index * T * T, (index + 1) * T * T);
}

export { headName, headTitle } from '../views/labels.js';

/** Whether two head references name the same head. */
export function sameHead(a, b) {
  return a.layer === b.layer && a.head === b.head;
}

/** Tensors [L][H] of T × T weights packed as one [L, H, T, T] tensor (the core's convention: one flat buffer). */
export function packAttention(perLayer, T) {
  const L = perLayer.length,
    H = L ? perLayer[0].length : 0;
  const data = new Float32Array(L * H * T * T);
  perLayer.forEach((heads, l) => heads.forEach((weights, h) => data.set(weights, (l * H + h) * T * T)));
  return { data, shape: [L, H, T, T] };
}
