// A matrix drawn as a heatmap: cells as canvas pixels (tens of thousands stay fast), axes, token labels,
// row notes and outlines in SVG on top, a legend and a tooltip with the exact value. The canvas is
// focusable: arrow keys move a current cell whose description a live region reads out. Under the
// legend, a table of the values, built only when opened. Styles: heatmap.css.
// Pure: it builds new DOM from its arguments and never changes them.
import { axisLeft, axisTop } from 'd3-axis';
import { rgb } from 'd3-color';
import { format } from 'd3-format';
import { scaleBand } from 'd3-scale';
import { select } from 'd3-selection';
import { scrollRegion } from './layout.js';
import { legend } from './legend.js';
import { tooltip } from './tooltip.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
// Masked cells are left transparent: the canvas's CSS background (a hatch in the theme's greys,
// explorer.css) shows through, so they read as "no value" in light and dark themes alike.
const MASKED_RGBA = [0, 0, 0, 0];
/** The colour exports give masked cells (an exported image has no theme). */
export const MASKED_FILL = '#d9d9d9';
const MIN_LABEL_PX = 11; // band width below which only every k-th label is drawn
const LABEL_STEPS = [1, 2, 5, 10, 20, 25, 50, 100];
const NOTE_PX = 62; // width reserved for row notes
const GROUP_PX = 24; // room under the cells for the column blocks' brackets and labels
const GROUP_CHAR_PX = 6.5; // width of a label character (11 px sans-serif), to know whether a label fits
const TABLE_MAX = 100; // rows and columns in the table of values (the CSV export has them all)
const tableValue = format('.3g');

/** Keys that move the current cell: (i, j, rows, cols) → the next [i, j], clamped by the caller. */
const MOVES = {
  ArrowUp: (i, j) => [i - 1, j],
  ArrowDown: (i, j) => [i + 1, j],
  ArrowLeft: (i, j) => [i, j - 1],
  ArrowRight: (i, j) => [i, j + 1],
  Home: (i) => [i, 0],
  End: (i, j, rows, cols) => [i, cols - 1],
  PageUp: (i, j) => [0, j],
  PageDown: (i, j, rows) => [rows - 1, j],
};

/** Every k-th index (k a round number) so labels stay at least MIN_LABEL_PX apart. */
function labelIndices(count, band) {
  const needed = MIN_LABEL_PX / Math.max(band, 1e-9);
  const step = LABEL_STEPS.find((s) => s >= needed) ?? Math.ceil(needed);
  return Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);
}

function longest(labels) {
  return labels.reduce((max, label) => Math.max(max, String(label).length), 0);
}

/** Each canvas's cell listeners, so a canvas drawn again for a new figure drops the old ones. */
const listeners = new WeakMap();

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
 * smoothing: writing pixels is far faster than painting thousands of rectangles.
 * @param {{ rows, cols, values, color, domain, isMasked?, cellWidth, cellHeight, canvas? }} spec  canvas: one
 *   to draw into instead of a new one (a figure redrawn per keystroke keeps its canvases: making a
 *   canvas costs more than filling it)
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
 * @param {{ label: string, short: string, start: number, end: number }[]} [spec.colGroups]  blocks of columns
 *   [start, end) to mark (the heads in a concatenation): a rule between blocks and a bracket with the label
 *   under each (its `short` form when the block is too narrow for `label`)
 * @param {number} [spec.top]  room above the cells, pixels (to align the rows of figures side by side)
 * @param {HTMLCanvasElement} [spec.canvas]  the canvas to draw the cells into (see cellCanvas); its
 *   listeners from an earlier figure are removed
 * @param {string} [spec.currentCellEvent]  when set, moving the current cell (hover, tap, keys) dispatches a
 *   bubbling CustomEvent of this name with detail { row: i, col: j }
 * @returns {HTMLElement} a <figure>. Its canvas is focusable (role img, roledescription "heatmap"):
 *   arrow keys move a current cell, Home/End to the row's first/last column, PageUp/PageDown to the
 *   first/last row, Escape hides; the cell is outlined and spec.describe's text shown and announced.
 *   Under the legend, <details class="data-table">: a table of the first 100 × 100 values, built when
 *   first opened. `figure.exportData` (for CSV/JSON export; arrays shared with spec, do not change them):
 *   { name, caption, rowTitle, colTitle, rowLabels, colLabels, shape: [rows, cols],
 *     values: Float32Array (value of [i, j] = values[i * cols + j]),
 *     masked?: Uint8Array [rows * cols], 1 where spec.isMasked (only when spec.isMasked is given),
 *     colGroups?: [{ label, start, end }] (only when spec.colGroups is given) }
 */
export function heatmap(spec) {
  const { rows, cols, values, cellWidth, cellHeight } = spec;
  const margin = {
    top: spec.top ?? 14 + 6.5 * Math.min(longest(spec.colLabels), 14) + 20,
    left: Math.max(16 + 7 * Math.min(longest(spec.rowLabels), 14), 7 * spec.rowTitle.length) + 8,
    // Column labels are turned 60°: the last one reaches past its column by about half its length.
    right: Math.max(
      spec.rowNotes ? NOTE_PX : 8,
      Math.ceil(3.4 * Math.min(longest(spec.colLabels), 14) - cellWidth / 2),
    ),
    bottom: spec.colGroups ? GROUP_PX : 8,
  };
  const width = cols * cellWidth,
    height = rows * cellHeight;

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
  plot.style.height = `${margin.top + height + margin.bottom}px`;

  const canvas = plot.appendChild(cellCanvas(spec));
  Object.assign(canvas.style, { left: `${margin.left}px`, top: `${margin.top}px` });

  const x = scaleBand()
    .domain(spec.colLabels.map((_, j) => j))
    .range([0, width]);
  const y = scaleBand()
    .domain(spec.rowLabels.map((_, i) => i))
    .range([0, height]);
  const svg = select(plot.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', margin.left + width + margin.right)
    .attr('height', margin.top + height + margin.bottom)
    .attr('aria-hidden', 'true');
  const frame = svg.append('g').attr('transform', `translate(${margin.left}, ${margin.top})`);
  frame
    .append('g')
    .attr('class', 'axis axis-cols')
    .call(
      axisTop(x)
        .tickValues(labelIndices(cols, cellWidth))
        .tickFormat((j) => spec.colLabels[j])
        .tickSizeOuter(0),
    )
    .selectAll('text')
    .attr('text-anchor', 'start')
    .attr('transform', 'rotate(-60)')
    .attr('dx', '0.4em')
    .attr('dy', '0.3em');
  frame
    .append('g')
    .attr('class', 'axis axis-rows')
    .call(
      axisLeft(y)
        .tickValues(labelIndices(rows, cellHeight))
        .tickFormat((i) => spec.rowLabels[i])
        .tickSizeOuter(0),
    );
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', margin.left + width / 2)
    .attr('y', 11)
    .attr('text-anchor', 'middle')
    .text(spec.colTitle);
  // The row title sits in the free top-left corner, so it never outgrows a short matrix.
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', margin.left - 12)
    .attr('y', margin.top - 8)
    .attr('text-anchor', 'end')
    .text(spec.rowTitle);
  if (spec.rowNotes) {
    const notes = frame.append('g').attr('class', 'row-notes');
    notes
      .append('text')
      .attr('class', 'axis-title')
      .attr('x', width + 6)
      .attr('y', -8)
      .text(spec.rowNotesTitle ?? '');
    labelIndices(rows, cellHeight).forEach((i) => {
      notes
        .append('text')
        .attr('x', width + 6)
        .attr('y', (i + 0.5) * cellHeight)
        .attr('dy', '0.32em')
        .text(spec.rowNotes[i]);
    });
  }
  if (spec.colGroups) drawColGroups(frame, spec.colGroups, cellWidth, height);
  for (const [i, j] of spec.highlights ?? []) {
    frame
      .append('rect')
      .attr('class', 'changed')
      .attr('x', j * cellWidth)
      .attr('y', i * cellHeight)
      .attr('width', cellWidth)
      .attr('height', cellHeight);
  }
  const outline = frame
    .append('rect')
    .attr('class', 'hover-outline')
    .attr('width', cellWidth)
    .attr('height', cellHeight)
    .attr('visibility', 'hidden');

  const tip = tooltip(plot);
  tip.element.setAttribute('aria-hidden', 'true'); // drawn for the eyes; `live` below says the same
  // A live region must exist before its text changes to be announced: the tooltip comes and goes.
  const live = plot.appendChild(document.createElement('p'));
  live.setAttribute('role', 'status');
  visuallyHidden(live);

  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-roledescription', 'heatmap');
  canvas.setAttribute('aria-label', `${spec.caption} — arrow keys move between cells`);
  const showCell = (i, j) => {
    const text = spec.describe(i, j, values[i * cols + j]);
    outline
      .attr('x', j * cellWidth)
      .attr('y', i * cellHeight)
      .attr('visibility', 'visible');
    const box = canvas.getBoundingClientRect(); // the cell in viewport pixels (the canvas may be scaled)
    const cw = box.width / cols,
      ch = box.height / rows;
    tip.show(text, {
      left: box.left + j * cw,
      right: box.left + (j + 1) * cw,
      top: box.top + i * ch,
      bottom: box.top + (i + 1) * ch,
    });
    live.textContent = text;
    if (spec.currentCellEvent)
      canvas.dispatchEvent(new CustomEvent(spec.currentCellEvent, { detail: { row: i, col: j }, bubbles: true }));
  };
  const hideCell = () => {
    outline.attr('visibility', 'hidden');
    tip.hide();
    live.textContent = '';
  };
  followCurrentCell(canvas, spec, showCell, hideCell);

  figure.appendChild(legend({ color: spec.color, domain: spec.domain, title: spec.legendTitle }));
  figure.appendChild(dataTableDetails(spec));
  figure.exportData = exportData(spec);
  return figure;
}

/** Rules between blocks of columns, and under each block a bracket with its label (short when narrow). */
function drawColGroups(frame, groups, cellWidth, height) {
  const g = frame.append('g').attr('class', 'col-groups');
  for (const { label, short, start, end } of groups) {
    const x0 = start * cellWidth,
      x1 = end * cellWidth;
    if (start > 0)
      g.append('line')
        .attr('class', 'group-rule')
        .attr('x1', x0)
        .attr('x2', x0)
        .attr('y1', -4)
        .attr('y2', height + 4);
    g.append('path')
      .attr('class', 'group-bracket')
      .attr('d', `M${x0 + 1},${height + 3}v4H${x1 - 1}v-4`);
    const fits = label.length * GROUP_CHAR_PX <= x1 - x0;
    g.append('text')
      .attr('class', 'group-label')
      .attr('x', (x0 + x1) / 2)
      .attr('y', height + 18)
      .attr('text-anchor', 'middle')
      .text(fits ? label : short)
      .append('title')
      .text(label);
  }
}

/** Read by screen readers, not drawn (inline, so it holds without any stylesheet). */
function visuallyHidden(element) {
  Object.assign(element.style, {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '0',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  });
}

/**
 * One current cell for pointer and keyboard: hovering sets it, keys move it from there (from 0, 0 on
 * first focus). show(i, j) runs only when the cell changes or was hidden, so a screen reader does
 * not repeat the same text.
 */
function followCurrentCell(canvas, { rows, cols, cellWidth, cellHeight }, show, hide) {
  // A reused canvas drops the listeners of the figure it was drawn for before.
  listeners.get(canvas)?.abort();
  const controller = new AbortController();
  listeners.set(canvas, controller);
  const { signal } = controller;
  let current = null; // [i, j]
  let shown = false;
  const moveTo = (i, j) => {
    if (shown && current[0] === i && current[1] === j) return;
    current = [i, j];
    shown = true;
    show(i, j);
  };
  const clear = () => {
    shown = false;
    hide();
  };
  const point = (event) => {
    const j = Math.min(cols - 1, Math.floor(event.offsetX / cellWidth));
    const i = Math.min(rows - 1, Math.floor(event.offsetY / cellHeight));
    if (i >= 0 && j >= 0) moveTo(i, j);
  };
  canvas.addEventListener('pointermove', point, { signal });
  canvas.addEventListener('pointerdown', point, { signal }); // a tap on a touch screen sends no move first
  canvas.addEventListener('pointerleave', clear, { signal });
  canvas.addEventListener('blur', clear, { signal });
  canvas.addEventListener(
    'focus',
    () => {
      if (rows > 0 && cols > 0) moveTo(...(current ?? [0, 0]));
    },
    { signal },
  );
  canvas.addEventListener(
    'keydown',
    (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || rows === 0 || cols === 0) return; // browser shortcuts
      if (event.key === 'Escape' && shown) {
        clear();
      } else if (Object.hasOwn(MOVES, event.key)) {
        const [i, j] = MOVES[event.key](...(current ?? [0, 0]), rows, cols);
        moveTo(Math.max(0, Math.min(rows - 1, i)), Math.max(0, Math.min(cols - 1, j)));
      } else {
        return;
      }
      event.preventDefault(); // the page must not scroll under the cell
    },
    { signal },
  );
}

/** "Table of values", whose table is built when first opened: never at render time, which runs per keystroke. */
function dataTableDetails(spec) {
  const details = document.createElement('details');
  details.className = 'data-table';
  details.appendChild(document.createElement('summary')).textContent = 'Table of values';
  let built = false;
  details.addEventListener('toggle', () => {
    if (!details.open || built) return;
    built = true;
    details.append(...dataTable(spec));
  });
  return details;
}

/** The values as a table of at most TABLE_MAX rows and columns (3 significant digits), and a note if cut. */
function dataTable({ caption, values, rows, cols, rowLabels, colLabels, rowTitle, isMasked }) {
  const shownRows = Math.min(rows, TABLE_MAX),
    shownCols = Math.min(cols, TABLE_MAX);
  const table = document.createElement('table');
  table.createCaption().textContent = caption;
  const header = table.createTHead().insertRow();
  headerCell(header, 'col', rowTitle);
  for (let j = 0; j < shownCols; j++) headerCell(header, 'col', colLabels[j]);
  const body = table.createTBody();
  for (let i = 0; i < shownRows; i++) {
    const row = body.insertRow();
    headerCell(row, 'row', rowLabels[i]);
    for (let j = 0; j < shownCols; j++) {
      row.insertCell().textContent = isMasked?.(i, j) ? 'masked' : tableValue(values[i * cols + j]);
    }
  }
  const scroller = scrollRegion('data-table-scroll', 'Table of values, scrollable', table);
  const cut = [
    rows > TABLE_MAX && `${TABLE_MAX} of ${rows} rows`,
    cols > TABLE_MAX && `${TABLE_MAX} of ${cols} columns`,
  ].filter(Boolean);
  if (cut.length === 0) return [scroller];
  const note = document.createElement('p');
  note.className = 'data-table-note';
  note.textContent = `Showing the first ${cut.join(' and the first ')}; download the CSV for all.`;
  return [scroller, note];
}

function headerCell(row, scope, text) {
  const cell = row.appendChild(document.createElement('th'));
  cell.scope = scope;
  cell.textContent = text;
}

/** What an exporter needs; `masked` (1 = masked, row-major) is computed on first read. */
function exportData({
  name,
  caption,
  rowTitle,
  colTitle,
  rowLabels,
  colLabels,
  rows,
  cols,
  values,
  isMasked,
  colGroups,
}) {
  const data = { name, caption, rowTitle, colTitle, rowLabels, colLabels, shape: [rows, cols], values };
  if (colGroups) data.colGroups = colGroups.map(({ label, start, end }) => ({ label, start, end }));
  if (!isMasked) return data;
  let masked;
  return Object.defineProperty(data, 'masked', {
    enumerable: true,
    get: () =>
      (masked ??= Uint8Array.from({ length: rows * cols }, (_, k) =>
        isMasked(Math.floor(k / cols), k % cols) ? 1 : 0,
      )),
  });
}
