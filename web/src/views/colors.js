// Colour scales shared by the figures: colour-blind-safe sequential maps (viridis, cividis) for
// weights in [0, 1], and a diverging red–blue scale, symmetric around 0, for signed vectors.
import { scaleSequential } from 'd3-scale';
import { interpolateCividis, interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';

const INTERPOLATORS = { viridis: interpolateViridis, cividis: interpolateCividis };

/** Names weightColorMap accepts. */
export const WEIGHT_COLOR_MAPS = Object.keys(INTERPOLATORS);

const weightMaps = new Map(); // one scale per name: heatmap.js caches its colour table per scale object

/**
 * Attention weights, 0 … 1, in a colour-blind-safe sequential map; the same scale object on every call.
 * @param {'viridis' | 'cividis'} [name]
 * @returns {(v: number) => string} a d3 scaleSequential, domain [0, 1]
 */
export function weightColorMap(name = 'viridis') {
  if (!Object.hasOwn(INTERPOLATORS, name)) {
    throw new RangeError(`Unknown colour map "${name}": expected one of ${WEIGHT_COLOR_MAPS.join(', ')}`);
  }
  if (!weightMaps.has(name)) weightMaps.set(name, scaleSequential(INTERPOLATORS[name]).domain([0, 1]));
  return weightMaps.get(name);
}

/** Attention weights: 0 … 1, viridis (kept for existing callers). */
export const weightColor = weightColorMap('viridis');

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
