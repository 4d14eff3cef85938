// Colour scales shared by the figures: colour-blind-safe viridis for weights in [0, 1], and a
// diverging red–blue scale, symmetric around 0, for signed vectors.
import { scaleSequential } from 'd3-scale';
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';

/** Attention weights: 0 … 1. */
export const weightColor = scaleSequential(interpolateViridis).domain([0, 1]);

/** Largest |value| of the finite entries (at least a tiny positive number). */
export function maxAbs(values) {
  let max = 1e-9;
  for (const v of values) if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return max;
}

/** Signed values: red positive, blue negative, white 0; domain [−limit, limit]. */
export function divergingColor(limit) {
  return scaleSequential((t) => interpolateRdBu(1 - t)).domain([-limit, limit]);
}
