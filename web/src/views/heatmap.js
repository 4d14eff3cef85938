// A matrix drawn as a heatmap: cells as canvas pixels (tens of thousands stay fast), axes, token labels,
// row notes and outlines in SVG on top, a legend and a tooltip with the exact value.
// Pure: it builds new DOM from its arguments and never changes them.
import { axisLeft, axisTop } from 'd3-axis';
import { rgb } from 'd3-color';
import { scaleBand } from 'd3-scale';
import { select } from 'd3-selection';
import { legend } from './legend.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MASKED_RGBA = [217, 217, 217, 255];  // #d9d9d9
const MIN_LABEL_PX = 11;  // band width below which only every k-th label is drawn
const LABEL_STEPS = [1, 2, 5, 10, 20, 25, 50, 100];
const NOTE_PX = 62;       // width reserved for row notes

/** Every k-th index (k a round number) so labels stay at least MIN_LABEL_PX apart. */
function labelIndices(count, band) {
  const needed = MIN_LABEL_PX / Math.max(band, 1e-9);
  const step = LABEL_STEPS.find((s) => s >= needed) ?? Math.ceil(needed);
  return Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);
}

function longest(labels) {
  return labels.reduce((max, label) => Math.max(max, String(label).length), 0);
}

const LUT_SIZE = 256;
const lutCache = new WeakMap();  // colour function → [domain key, RGBA table]

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
 * smoothing: writing pixels is far faster than painting thousands of rectangles.
 * @param {{ rows, cols, values, color, domain, isMasked?, cellWidth, cellHeight }} spec
 */
export function cellCanvas({ rows, cols, values, color, domain, isMasked, cellWidth, cellHeight }) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, cols);
  canvas.height = Math.max(1, rows);
  canvas.style.width = `${cols * cellWidth}px`;
  canvas.style.height = `${rows * cellHeight}px`;
  if (rows === 0 || cols === 0) return canvas;
  const table = colorTable(color, domain);
  const [d0, d1] = domain;
  const scale = (LUT_SIZE - 1) / (d1 - d0 || 1);
  const image = new ImageData(cols, rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const at = (i * cols + j) * 4;
      if (isMasked?.(i, j)) {
        image.data.set(MASKED_RGBA, at);
        continue;
      }
      const k = Math.max(0, Math.min(LUT_SIZE - 1, Math.round((values[i * cols + j] - d0) * scale)));
      image.data.set(table.subarray(k * 4, k * 4 + 4), at);
    }
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
  return canvas;
}

/**
 * @param {object} spec
 * @param {string} spec.name          data-figure name, for tests and styling
 * @param {string} spec.caption       figure caption (what is shown, with its shape)
 * @param {Float32Array} spec.values  [rows * cols], row-major
 * @param {number} spec.rows @param {number} spec.cols
 * @param {string[]} spec.rowLabels   one per row @param {string[]} spec.colLabels one per column
 * @param {string} spec.rowTitle @param {string} spec.colTitle  axis titles
 * @param {(v: number) => string} spec.color   colour of a value
 * @param {[number, number]} spec.domain      legend range @param {string} spec.legendTitle
 * @param {number} spec.cellWidth @param {number} spec.cellHeight  pixels
 * @param {(i: number, j: number) => boolean} [spec.isMasked]  drawn grey, not as a value
 * @param {(i: number, j: number, value: number) => string} spec.describe  tooltip text
 * @param {string[]} [spec.rowNotes]  a short note right of each row (e.g. its entropy)
 * @param {string} [spec.rowNotesTitle]
 * @param {[number, number][]} [spec.highlights]  cells to outline briefly (what just changed)
 * @param {number} [spec.top]  room above the cells, pixels (to align the rows of figures side by side)
 * @returns {HTMLElement} a <figure>
 */
export function heatmap(spec) {
  const { rows, cols, values, cellWidth, cellHeight } = spec;
  const margin = {
    top: spec.top ?? 14 + 6.5 * Math.min(longest(spec.colLabels), 14) + 20,
    left: Math.max(16 + 7 * Math.min(longest(spec.rowLabels), 14), 7 * spec.rowTitle.length) + 8,
    right: spec.rowNotes ? NOTE_PX : 8,
  };
  const width = cols * cellWidth, height = rows * cellHeight;

  const figure = document.createElement('figure');
  figure.className = 'heatmap';
  figure.dataset.figure = spec.name;
  figure.dataset.rows = String(rows);
  figure.dataset.cols = String(cols);
  const caption = figure.appendChild(document.createElement('figcaption'));
  caption.textContent = spec.caption;

  const plot = figure.appendChild(document.createElement('div'));
  plot.className = 'heatmap-plot';
  plot.style.width = `${margin.left + width + margin.right}px`;
  plot.style.height = `${margin.top + height + 8}px`;

  const canvas = plot.appendChild(cellCanvas(spec));
  Object.assign(canvas.style, { left: `${margin.left}px`, top: `${margin.top}px` });

  const x = scaleBand().domain(spec.colLabels.map((_, j) => j)).range([0, width]);
  const y = scaleBand().domain(spec.rowLabels.map((_, i) => i)).range([0, height]);
  const svg = select(plot.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', margin.left + width + margin.right).attr('height', margin.top + height + 8)
    .attr('aria-hidden', 'true');
  const frame = svg.append('g').attr('transform', `translate(${margin.left}, ${margin.top})`);
  frame.append('g').attr('class', 'axis axis-cols')
    .call(axisTop(x).tickValues(labelIndices(cols, cellWidth)).tickFormat((j) => spec.colLabels[j]).tickSizeOuter(0))
    .selectAll('text').attr('text-anchor', 'start').attr('transform', 'rotate(-60)').attr('dx', '0.4em').attr('dy', '0.3em');
  frame.append('g').attr('class', 'axis axis-rows')
    .call(axisLeft(y).tickValues(labelIndices(rows, cellHeight)).tickFormat((i) => spec.rowLabels[i]).tickSizeOuter(0));
  svg.append('text').attr('class', 'axis-title').attr('x', margin.left + width / 2).attr('y', 11)
    .attr('text-anchor', 'middle').text(spec.colTitle);
  // The row title sits in the free top-left corner, so it never outgrows a short matrix.
  svg.append('text').attr('class', 'axis-title').attr('x', margin.left - 12).attr('y', margin.top - 8)
    .attr('text-anchor', 'end').text(spec.rowTitle);
  if (spec.rowNotes) {
    const notes = frame.append('g').attr('class', 'row-notes');
    notes.append('text').attr('class', 'axis-title').attr('x', width + 6).attr('y', -8).text(spec.rowNotesTitle ?? '');
    labelIndices(rows, cellHeight).forEach((i) => {
      notes.append('text').attr('x', width + 6).attr('y', (i + 0.5) * cellHeight).attr('dy', '0.32em').text(spec.rowNotes[i]);
    });
  }
  for (const [i, j] of spec.highlights ?? []) {
    frame.append('rect').attr('class', 'changed').attr('x', j * cellWidth).attr('y', i * cellHeight)
      .attr('width', cellWidth).attr('height', cellHeight);
  }
  const outline = frame.append('rect').attr('class', 'hover-outline').attr('width', cellWidth).attr('height', cellHeight)
    .attr('visibility', 'hidden');

  const tooltip = plot.appendChild(document.createElement('div'));
  tooltip.className = 'tooltip';
  tooltip.setAttribute('role', 'status');
  tooltip.hidden = true;
  canvas.addEventListener('pointermove', (event) => {
    const j = Math.min(cols - 1, Math.floor(event.offsetX / cellWidth));
    const i = Math.min(rows - 1, Math.floor(event.offsetY / cellHeight));
    if (i < 0 || j < 0) return;
    outline.attr('x', j * cellWidth).attr('y', i * cellHeight).attr('visibility', 'visible');
    tooltip.textContent = spec.describe(i, j, values[i * cols + j]);
    tooltip.hidden = false;
    tooltip.style.left = `${margin.left + Math.min((j + 1) * cellWidth + 6, width)}px`;
    tooltip.style.top = `${margin.top + (i + 1) * cellHeight + 4}px`;
  });
  canvas.addEventListener('pointerleave', () => {
    outline.attr('visibility', 'hidden');
    tooltip.hidden = true;
  });

  figure.appendChild(legend({ color: spec.color, domain: spec.domain, title: spec.legendTitle }));
  return figure;
}
