// The score-function figure's data: what each score function (d2l.ai §11.3) costs for one head of the
// sentence, from core.scoreCost.

/** What the score-function figure depends on: the function in use and one head's sizes for a sentence of seqLen tokens. */
export function scoreCostInputs(state, seqLen, dModel) {
  const { numHeads, scoreFunction, additiveHidden: hidden } = state;
  return { scoreFunction, seqLen, dK: dModel / numHeads, hidden, numHeads };
}

/** The score-function figure's data: core.scoreCost for each function, one head's [seqLen, seqLen] scores. */
export function scoreCosts(core, inputs) {
  const { seqLen, dK, hidden } = inputs;
  const costs = Object.fromEntries(
    core.limits.scoreFunctions.map((name) => [
      name,
      core.scoreCost({ scoreFunction: name, queries: seqLen, keys: seqLen, dK, hidden }),
    ]),
  );
  return { ...inputs, costs };
}
