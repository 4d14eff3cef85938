// Which attention weights moved since the previous update (the "what changed" highlight).

/**
 * Cells (i, j) of head `head` whose weight changed by more than `threshold` between two traces.
 * Tokens are matched by position, over the rows and columns both traces have.
 * @returns {[number, number][]}
 */
export function changedCells(trace, previous, head, threshold = 0.05) {
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
