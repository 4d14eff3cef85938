// The explorer's state: what the learner has chosen. The trace is computed from it; views draw the trace.

export const DEFAULT_SENTENCE = 'The river bank was muddy after the storm';

/** The one-click comparison: "bank" by a river and "bank" with money (issue: context moves meaning). */
export const COMPARISON = ['the river bank was muddy', 'she deposited money at the bank'];

export const HEAD_KINDS = ['projected', 'semantic', 'previous', 'next', 'offset', 'first', 'uniform'];

/** @returns {object} the default state */
export function defaultState() {
  return {
    sentence: DEFAULT_SENTENCE,
    numHeads: 1,
    head: 0,                 // selected head, 0-based
    projection: 'identity',
    seed: 1,
    headKinds: [],           // per head: a HEAD_KINDS name (missing: 'projected')
    offset: 2,               // δ of 'offset' heads
    mask: 'bidirectional',   // 'bidirectional' | 'causal' | 'padding'
    validLength: 4,          // keys at positions ≥ validLength are padding when mask = 'padding'
    maskedPositions: [],     // tokens replaced by [MASK]
    temperature: 1,
    scale: true,             // divide scores by √d_k
    positionalEncoding: 'sinusoidal',  // 'none' | 'sinusoidal' | 'learned' | 'rope' | 'alibi' | 't5'
    lineHeads: [0],          // heads drawn in the line view
    lineQuery: null,         // pinned query of the line view
    lineThreshold: 0.05,
    compare: false,          // show this sentence and compareSentence on shared PCA axes
    compareSentence: COMPARISON[1],
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
  const { numHeads, projection, seed, temperature, scale, positionalEncoding, maskedPositions } = state;
  return {
    numHeads, projection, seed, temperature, scale, positionalEncoding, maskedPositions,
    heads: state.headKinds.slice(0, numHeads).map((kind) => headSpec(kind ?? 'projected', state.offset)),
    causal: state.mask === 'causal',
    validLength: state.mask === 'padding' ? state.validLength : undefined,
  };
}
