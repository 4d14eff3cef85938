// The explorer's state: what the learner has chosen. The trace is computed from it; views draw the trace.

export const DEFAULT_SENTENCE = 'The river bank was muddy after the storm';

/** @returns {object} the default state */
export function defaultState() {
  return {
    sentence: DEFAULT_SENTENCE,
    numHeads: 1,
    head: 0,               // selected head, 0-based
    projection: 'identity',
    seed: 1,
    causal: false,
    temperature: 1,
    positionalEncoding: true,
  };
}

/** Divisors of dModel: the allowed head counts (d_k = dModel / numHeads must be whole). */
export function headCounts(dModel) {
  return Array.from({ length: dModel }, (_, i) => i + 1).filter((h) => dModel % h === 0);
}

/** Applies a change and keeps the state consistent (the selected head exists). */
export function withChange(state, change) {
  const next = { ...state, ...change };
  if (next.head >= next.numHeads) next.head = next.numHeads - 1;
  return next;
}

/** The options core.explain() takes for this state. */
export function explainOptions(state) {
  const { numHeads, projection, seed, causal, temperature, positionalEncoding } = state;
  return { numHeads, projection, seed, causal, temperature, positionalEncoding };
}
