// A matrix as a canvas with one pixel per cell, stretched to the cells' size in CSS pixels without
// smoothing: writing pixels is far faster than painting thousands of rectangles (the heatmaps, the heads'
// small multiples, the mix's strips). Colours come from a table computed once per colour scale.
import { rgb } from 'd3-color';
import { setStyle } from './dom-update.js';

/** The colour exports give masked cells (an exported image has no theme). */
export const MASKED_FILL = '#d9d9d9';

const LUT_SIZE = 256;
const lutCache = new WeakMap(); // colour function → [domain key, RGBA table]

/** RGBA bytes of `color` at LUT_SIZE evenly spaced values across `domain` (computed once per scale). */
function colorTable(color, [d0, d1]) {
  const key = `${d0},${d1}`;
  const cached = lutCache.get(color);
  if (cached?.[0] === key) return cached[1];
  const table = new Uint8ClampedArray(LUT_SIZE * 4);
  for (let k = 0; k < LUT_SIZE; k++) {
    const c = rgb(color(d0 + (k / (LUT_SIZE - 1)) * (d1 - d0)));
    table.set([c.r, c.g, c.b, 255], k * 4);
  }
  lutCache.set(color, [key, table]);
  return table;
}

/**
 * A canvas with one pixel per cell, stretched to cellWidth × cellHeight CSS pixels without
 * smoothing.
 * @param {{ rows, cols, values, color, domain, isMasked?, cellWidth, cellHeight, canvas? }} spec  canvas: one
 *   to draw into instead of a new one (a figure redrawn per keystroke keeps its canvases: making a
 *   canvas costs more than filling it)
 * @returns {HTMLCanvasElement}
 */
export function cellCanvas({
  rows,
  cols,
  values,
  color,
  domain,
  isMasked,
  cellWidth,
  cellHeight,
  canvas = document.createElement('canvas'),
}) {
  if (canvas.width !== Math.max(1, cols)) canvas.width = Math.max(1, cols);
  if (canvas.height !== Math.max(1, rows)) canvas.height = Math.max(1, rows);
  setStyle(canvas, { width: `${cols * cellWidth}px`, height: `${rows * cellHeight}px` });
  if (rows === 0 || cols === 0) return canvas;
  const table = colorTable(color, domain);
  const [d0, d1] = domain;
  const scale = (LUT_SIZE - 1) / (d1 - d0 || 1);
  const image = new ImageData(cols, rows);
  const pixels = new Uint32Array(image.data.buffer); // one RGBA pixel per element (the platform's byte order)
  const colors = new Uint32Array(table.buffer);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      // Masked cells are left transparent (ImageData starts so): the canvas's CSS background (a hatch in the
      // theme's greys, explorer.css) shows through, so they read as "no value" in light and dark themes alike.
      if (isMasked?.(i, j)) continue;
      const k = Math.max(0, Math.min(LUT_SIZE - 1, Math.round((values[i * cols + j] - d0) * scale)));
      pixels[i * cols + j] = colors[k];
    }
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
  return canvas;
}
