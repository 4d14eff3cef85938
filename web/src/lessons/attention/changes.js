// Which attention weights moved since the previous update (the "what changed" highlight).

/** How much a weight must move to be outlined: less is the flicker of a far-away edit. */
export const CHANGE_THRESHOLD = 0.05;

/** What the outlines mark, for the heatmap's key (heatmap.js spec.highlightsKey). */
export const CHANGED_KEY = `weight changed by more than ${CHANGE_THRESHOLD} by your last edit`;

/**
 * Cells (i, j) of head `head` whose weight changed by more than `threshold` between two traces.
 * Tokens are matched by position, over the rows and columns both traces have.
 * @returns {[number, number][]}
 */
export function changedCells(trace, previous, head, threshold = CHANGE_THRESHOLD) {
  if (!previous || head >= previous.heads.length) return [];
  const n = trace.tokens.length,
    m = previous.tokens.length,
    common = Math.min(n, m);
  const now = trace.heads[head].weights.data,
    before = previous.heads[head].weights.data;
  const cells = [];
  for (let i = 0; i < common; i++) {
    for (let j = 0; j < common; j++) {
      if (Math.abs(now[i * n + j] - before[i * m + j]) > threshold) cells.push([i, j]);
    }
  }
  return cells;
}
