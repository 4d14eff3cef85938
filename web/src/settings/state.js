// The explorer's state: what the learner has chosen. Here its part that every chapter reads (the
// sentence, the heads and their settings, where the page is); each chapter adds its own slice
// (lessons/<chapter>/chapter.js `state`), and lessons/chapters.js puts the two together. The trace is
// computed from the state (trace.js); views draw the trace.
import { asHead, designedHead, firstHead } from './head.js';
import { COMPARISON, DEFAULT_SENTENCE } from './sentences.js';

/** Hidden units the additive score offers (its limit is core.limits.maxAdditiveHidden). */
export const ADDITIVE_HIDDEN_SIZES = [4, 8, 16, 32, 64];

/** @returns {object} the defaults of the settings every chapter reads, and of where the page is (chapter, tour) */
export function baseState() {
  return {
    sentence: DEFAULT_SENTENCE,
    compare: false, // show `sentence` and `compareSentence` together, on shared axes (context moves meaning)
    compareSentence: COMPARISON[1],
    chapter: 'attention', // the chapter shown: an id of lessons/chapters.js (an unknown one shows the first)
    model: 'designed', // whose attention: 'designed' heads, or a trained model, 'causal' (decoder) or 'masked' (encoder)
    // Four designed heads a learner can name at first sight (designed_heads.hpp).
    numHeads: 4,
    head: firstHead('designed'), // the selected head: { layer, head }, both from 0 (settings/head.js)
    projection: 'identity',
    seed: 1,
    headKinds: ['semantic', 'previous', 'next', 'first'], // per head: a head kind of core.limits (missing: 'projected')
    offset: 2, // δ of 'offset' heads
    mask: 'bidirectional', // 'bidirectional' | 'causal' | 'padding'
    validLength: 4, // keys at positions ≥ validLength are padding when mask = 'padding'
    maskedPositions: [], // tokens replaced by [MASK]
    temperature: 1,
    normalizer: 'softmax', // how scores become weights: 'softmax' | 'sparsemax' | 'entmax15' | 'hardmax'
    scoreFunction: 'scaledDot', // 'scaledDot' (Q Kᵀ / √d_k) | 'dot' | 'additive' (Bahdanau)
    additiveHidden: 16, // hidden units of the additive score
    positionalEncoding: 'sinusoidal', // 'none' | 'sinusoidal' | 'learned' | 'rope' | 'alibi' | 't5'
    colorMap: 'viridis', // attention weights' colour map: 'viridis' | 'cividis' (both colour-blind safe)
    tour: '', // id of the guided tour's step shown (explorer/tour-steps.js); '' when the tour is closed
  };
}

/**
 * The settings a trained model fixes (it was trained with its own heads, mask, positions and scores): they change only
 * the designed heads.
 */
export const FIXED_BY_TRAINED = [
  'numHeads',
  'headKinds',
  'offset',
  'projection',
  'seed',
  'mask',
  'validLength',
  'temperature',
  'scoreFunction',
  'additiveHidden',
  'positionalEncoding',
  'normalizer',
  'positionalScale',
  'embeddingScale',
];

/** Divisors of dModel: the allowed head counts (d_k = dModel / numHeads must be whole). */
export function headCounts(dModel) {
  return Array.from({ length: dModel }, (_, i) => i + 1).filter((h) => dModel % h === 0);
}

/**
 * Applies a change to the settings every chapter reads and keeps them consistent: a head given as a number (the old
 * single field) is { layer: 0, head }; choosing another model starts at its first head; the designed heads' selected
 * head exists (a trained model's is resolved when its run knows its size: models/run.js headIndex).
 */
export function withBaseChange(state, change) {
  const next = { ...state, ...change };
  if ('head' in change) next.head = asHead(change.head) ?? state.head;
  else if (next.model !== state.model) next.head = firstHead(next.model);
  if (next.model === 'designed') next.head = { layer: 0, head: designedHead(next.head, next.numHeads) };
  return next;
}
