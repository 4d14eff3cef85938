// The explorer's state: what the learner has chosen. The trace is computed from it; views draw the trace.
import { CHAPTERS } from '../lessons/chapters.js';
import { DEFAULT_SENTENCE } from '../lessons/sentences.js';

export { COMPARISON, DEFAULT_SENTENCE, DEFAULT_TRANSLATION } from '../lessons/sentences.js';

/** The soft lookup's default table (the classic names-to-surnames example), query and settings. */
export const LOOKUP_DEFAULTS = {
  lookupKeys: ['Luke', 'Puke', 'Leia', 'Han', 'John'],
  lookupValues: ['Sprangers', 'Skywalker', 'Organa', 'Solo', 'Lennon'],
  lookupQuery: 'Luk',
  lookupTemperature: 0.2,      // τ of the lookup, 0.01 … 10 on its slider
  lookupSimilarity: 'letters', // 'letters' (character bigrams) | 'wordVectors'
};

/** @returns {object} the default state: the model's settings every chapter reads, then each chapter's slice */
export function defaultState() {
  return {
    sentence: DEFAULT_SENTENCE,
    chapter: 'attention',    // the chapter shown: an id of lessons/chapters.js (an unknown one shows the first)
    // Four designed heads a learner can name at first sight (designed_heads.hpp).
    numHeads: 4,
    head: 0,                 // selected head, 0-based
    projection: 'identity',
    seed: 1,
    headKinds: ['semantic', 'previous', 'next', 'first'],  // per head: a head kind of core.limits (missing: 'projected')
    offset: 2,               // δ of 'offset' heads
    mask: 'bidirectional',   // 'bidirectional' | 'causal' | 'padding'
    validLength: 4,          // keys at positions ≥ validLength are padding when mask = 'padding'
    maskedPositions: [],     // tokens replaced by [MASK]
    temperature: 1,
    normalizer: 'softmax',   // how scores become weights: 'softmax' | 'sparsemax' | 'entmax15' | 'hardmax'
    scoreFunction: 'scaledDot',  // 'scaledDot' (Q Kᵀ / √d_k) | 'dot' | 'additive' (Bahdanau)
    additiveHidden: 16,      // hidden units of the additive score
    positionalEncoding: 'sinusoidal',  // 'none' | 'sinusoidal' | 'learned' | 'rope' | 'alibi' | 't5'
    colorMap: 'viridis',     // attention weights' colour map: 'viridis' | 'cividis' (both colour-blind safe)
    // Each chapter's own slice: its figures' and controls' settings (lessons/<chapter>/chapter.js).
    ...Object.assign({}, ...CHAPTERS.map((chapter) => chapter.state())),
    tour: '',                // id of the guided tour's step shown (tour-steps.js); '' when the tour is closed
  };
}

/** Divisors of dModel: the allowed head counts (d_k = dModel / numHeads must be whole). */
export function headCounts(dModel) {
  return Array.from({ length: dModel }, (_, i) => i + 1).filter((h) => dModel % h === 0);
}

/** Applies a change and keeps the state consistent (the selected and drawn heads exist). */
export function withChange(state, change) {
  const next = { ...state, ...change };
  if (next.head >= next.numHeads) next.head = next.numHeads - 1;
  next.lineHeads = next.lineHeads.filter((h) => h < next.numHeads);
  if (next.lineHeads.length === 0) next.lineHeads = [next.head];
  return next;
}

/** The head spec core.explain() takes for a kind name. */
function headSpec(kind, offset) {
  return kind === 'offset' ? { kind, offset } : kind;
}

/** The options core.explain() takes for this state. */
export function explainOptions(state) {
  const { numHeads, projection, seed, temperature, scoreFunction, additiveHidden, positionalEncoding, maskedPositions,
    positionalScale, embeddingScale, shuffleSeed, normalizer } = state;
  return {
    numHeads, projection, seed, temperature, scoreFunction, additiveHidden, positionalEncoding, maskedPositions, positionalScale,
    embeddingScale, shuffleSeed, normalizer,
    heads: state.headKinds.slice(0, numHeads).map((kind) => headSpec(kind ?? 'projected', state.offset)),
    causal: state.mask === 'causal',
    validLength: state.mask === 'padding' ? state.validLength : undefined,
  };
}
