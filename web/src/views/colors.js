// Colour scales shared by the figures: colour-blind-safe sequential maps (viridis, cividis) for
// weights in [0, 1], and a diverging red–blue scale, symmetric around 0, for signed vectors.
import { rgb } from 'd3-color';
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

/**
 * The end of a signed scale for values up to `largest` in size: `largest` to two significant digits, the number its
 * legend shows (a value past it, by 5 % at most, takes the end colour, as the legend says). A scale and its legend on
 * the same rounded end give the legend the same colours at every redraw (its gradient is then written again only when
 * that end changes, not at every keystroke), and the legend's ends are the scale's.
 * @param {number} largest  > 0  @returns {number}
 */
export function roundedLimit(largest) {
  return Number(largest.toPrecision(2));
}

/** Signed values: red positive, blue negative, white 0; domain [−limit, limit]. */
export function divergingColor(limit) {
  return scaleSequential((t) => interpolateRdBu(1 - t)).domain([-limit, limit]);
}

/** WCAG 2.1 relative luminance of a CSS colour (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance). */
function luminance(color) {
  const { r, g, b } = rgb(color);
  const linear = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * Whether white text has a larger WCAG contrast ratio on `background` than black text: the ink for a label drawn on a
 * colour of a scale, chosen by the colour itself, not by where it sits on the scale. One of the two always reaches
 * 4.58:1 (they are equal at luminance 0.179), above WCAG AA's 4.5:1 for text.
 * @param {string} background  a CSS colour
 */
export function lightInkOn(background) {
  const L = luminance(background);
  return 1.05 / (L + 0.05) > (L + 0.05) / 0.05;
}
