// The outlines of a heatmap's cells that just changed (heatmap.js spec.highlights) and their key: drawn over the cells
// for a moment after an edit, so that a learner sees what a keystroke moved.
import { select } from 'd3-selection';
import { setAttr, setAttrs, setHidden } from './dom-update.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CHANGED_SHOWN_MS = 1600; // how long the outlines of what just changed stay

/** The key of the outlined cells (spec.highlights): an outline swatch and what it marks, shown while there are some. */
export function changedKey() {
  const key = document.createElement('p');
  key.className = 'changed-key';
  const swatch = select(key.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', 14)
    .attr('height', 14)
    .attr('aria-hidden', 'true');
  swatch.append('rect').attr('class', 'changed-swatch').attr('x', 2).attr('y', 2).attr('width', 10).attr('height', 10);
  key.append(document.createElement('span'));
  return key;
}

/**
 * The cells that just changed, outlined for CHANGED_SHOWN_MS (with their key, parts.changedKey): one path of a square
 * per cell (data-cells: how many) in an <svg> of its own over the cells (parts.changes), so that a keystroke rewrites
 * one attribute and makes no element. The outlines go at once when the time is up, not by a fade: an animation, even one the compositor runs, had
 * the browser recompute style in every frame while it ran, and at 8 tokens (every keystroke outlining cells) the typed
 * character then painted a frame late (keystroke → next paint median 24 ms, against under 16 without it).
 */
export function drawHighlights(parts, cells, cellWidth, cellHeight) {
  const path = (parts.changed ??= select(parts.changes).append('path').attr('class', 'changed').node());
  setAttrs(path, {
    d: cells.map(([i, j]) => `M${j * cellWidth},${i * cellHeight}h${cellWidth}v${cellHeight}h${-cellWidth}z`).join(''),
    'data-cells': cells.length,
  });
  clearTimeout(parts.outlinesGo);
  setAttr(parts.changes, 'visibility', cells.length ? 'visible' : 'hidden');
  if (!cells.length) return;
  parts.outlinesGo = setTimeout(() => {
    setAttr(parts.changes, 'visibility', 'hidden');
    if (parts.changedKey) setHidden(parts.changedKey, true); // the key goes with the outlines it names
  }, CHANGED_SHOWN_MS);
}
