// Which attention weights moved since the previous update (the "what changed" highlight).
import { headCounts, headWeights } from '../../models/run.js';

/** How much a weight must move to be outlined: less is the flicker of a far-away edit. */
export const CHANGE_THRESHOLD = 0.05;

/** What the outlines mark, for the heatmap's key (heatmap.js spec.highlightsKey). */
export const CHANGED_KEY = `weight changed by more than ${CHANGE_THRESHOLD} by your last edit`;

/**
 * Cells (i, j) of head `ref` whose weight changed by more than `threshold` between two Runs of the same model (of
 * another model, or with other head counts, nothing is compared). Tokens are matched by position, over the rows and
 * columns both Runs have.
 * @param {import('../../models/run.js').Run} run  @param {import('../../models/run.js').Run | null} previous
 * @param {{ layer: number, head: number }} ref
 * @returns {[number, number][]}
 */
export function changedCells(run, previous, ref, threshold = CHANGE_THRESHOLD) {
  if (!previous?.attention || previous.model !== run.model) return [];
  const [L, H] = run.attention.shape;
  const before = headCounts(previous);
  if (before.numLayers !== L || before.numHeads !== H) return [];
  const n = run.tokens.length,
    m = previous.attention.shape[2],
    common = Math.min(n, m);
  const now = headWeights(run, ref),
    was = headWeights(previous, ref);
  const cells = [];
  for (let i = 0; i < common; i++) {
    for (let j = 0; j < common; j++) {
      if (Math.abs(now[i * n + j] - was[i * m + j]) > threshold) cells.push([i, j]);
    }
  }
  return cells;
}
