// A matrix drawn as a heatmap: cells as canvas pixels (cell-canvas.js: tens of thousands stay fast), axes,
// token labels, row notes and outlines (changed-cells.js) in SVG on top, a legend and a tooltip with the exact value;
// larger than its room, it scrolls in a box of its own under its labels, which stay in view. The
// canvas is focusable: arrow keys move a current cell (current-cell.js) whose description a live region
// reads out. Under the legend, a table of the values, built only when opened (data-table.js). Styles:
// heatmap.css. It never changes its arguments. Given the figure it drew before (`last`), it updates that
// one in place, writing only what changed: a keystroke redraws the cells and a label or two, not the figure.
import { scaleBand } from 'd3-scale';
import { select } from 'd3-selection';
import { bandAxis } from './band-axis.js';
import { cellCanvas } from './cell-canvas.js';
import { changedKey, drawHighlights } from './changed-cells.js';
import { GROUP_PX, drawColGroups } from './col-groups.js';
import { followCurrentCell } from './current-cell.js';
import { dataTableDetails } from './data-table.js';
import { setAttr, setAttrs, setHidden, setStyle, setText, visuallyHidden } from './dom-update.js';
import { legend } from './legend.js';
import { tooltip } from './tooltip.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MIN_LABEL_PX = 11; // band width below which only every k-th label is drawn
/**
 * Bands of a token axis are at least this wide at every length, so that every token is labelled (a learner reading a
 * 30- or 200-token sentence needs every word, not every tenth): 10 px labels (labelFontPx). A matrix this makes larger
 * than its box scrolls under its labels, which stay in view (heatmap.css: the row and column panes are sticky).
 */
export const LABELLED_CELL_PX = 13;
// Columns at least this wide turn their labels 60°; narrower ones (and their smaller font) stand upright, where a
// label's box is its line height, so neighbours never overlap.
const SLANTED_LABEL_PX = 14;
// Bands at least this wide hold a label each (labelFontPx's smallest font, 8 px, in its line); narrower, every k-th.
const LABEL_EVERY_BAND_PX = 10;
const SLANTED = { angle: -60, y: -9, dx: '0.4em', dy: '0.3em' }; // y: band-axis.js's tick and padding
const UPRIGHT = { angle: -90, y: 0, dx: 9, dy: '0.32em' }; // dx: the same 9 px, now along the label
const LABEL_STEPS = [1, 2, 5, 10, 20, 25, 50, 100];
const NOTE_PX = 62; // width reserved for row notes

/**
 * The side of a band of a token axis: `budget` pixels shared by `count` tokens, between LABELLED_CELL_PX (so each token
 * has room for its label: the figure then outgrows the budget and scrolls in its box) and `largest`.
 * @param {number} count  tokens  @param {number} budget  pixels  @param {number} [largest]  pixels (default 32)
 * @returns {number}  whole pixels
 */
export function tokenBandPx(count, budget, largest = 32) {
  return Math.max(LABELLED_CELL_PX, Math.min(largest, Math.floor(budget / Math.max(count, 1))));
}

/**
 * The labels' font size for a band: the page's 12 px where there is room, smaller in narrower bands (down to 8 px),
 * so that a label's box (about 1.2 em) stays within its band. Set as --label-px on the axis (explorer.css).
 */
function labelFontPx(band) {
  return band >= 14 ? 12 : Math.max(8, Math.floor(band * 0.82));
}

/** Every index where bands are LABEL_EVERY_BAND_PX or wider; else every k-th (k a round number), MIN_LABEL_PX apart. */
function labelIndices(count, band) {
  const all = Array.from({ length: count }, (_, i) => i);
  if (band >= LABEL_EVERY_BAND_PX) return all;
  const needed = MIN_LABEL_PX / Math.max(band, 1e-9);
  const step = LABEL_STEPS.find((s) => s >= needed) ?? Math.ceil(needed);
  return all.filter((i) => i % step === 0);
}

/**
 * The characters of room the labels get: the longest's (up to 14) on a first draw. Typing lengthens a word a letter at a
 * time, and a margin that followed it moved every cell and label of the matrix, to be laid out and painted anew, at
 * every keystroke; so an update keeps the room it had (`shown`) while the longest label fits in it with at most 3 to
 * spare, and grows it with 2 to spare.
 * @param {string[]} labels  @param {number} [shown]  the room of the figure updated  @returns {number}  characters
 */
function labelChars(labels, shown) {
  const longest = Math.min(
    14,
    labels.reduce((max, label) => Math.max(max, String(label).length), 0),
  );
  if (shown === undefined) return longest;
  if (longest <= shown && shown <= longest + 3) return shown;
  return longest > shown ? Math.min(14, longest + 2) : longest;
}

/** A figure's parts that its updates write to, by figure (found again without querying the DOM). */
const partsOf = new WeakMap();

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
 * @param {string} [spec.highlightsKey]  what the outlines mark, shown under the legend while there are some
 * @param {{ label: string, short: string, start: number, end: number }[]} [spec.colGroups]  blocks of columns
 *   [start, end) to mark (the heads in a concatenation): a rule between blocks and a bracket with the label
 *   under each (its `short` form when the block is too narrow for `label`)
 * @param {number} [spec.top]  room above the cells, pixels (to align the rows of figures side by side)
 * @param {HTMLCanvasElement} [spec.canvas]  the canvas to draw the cells into (see cellCanvas); its
 *   listeners from an earlier figure are removed
 * @param {string} [spec.currentCellEvent]  when set, moving the current cell (hover, tap, keys) dispatches a
 *   bubbling CustomEvent of this name with detail { row: i, col: j }
 * @param {HTMLElement} [last]  a figure this function returned before: when it is a heatmap of the same name,
 *   it is updated in place (its current cell hidden, its table closed, as a new figure's) and returned
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
export function heatmap(spec, last) {
  const { rows, cols, values, cellWidth, cellHeight } = spec;
  const reused = last?.dataset.figure === spec.name && partsOf.has(last);
  const parts = reused ? partsOf.get(last) : skeleton(spec);
  const rowChars = (parts.rowChars = labelChars(spec.rowLabels, parts.rowChars)),
    colChars = (parts.colChars = labelChars(spec.colLabels, parts.colChars));
  const margin = {
    top: spec.top ?? 14 + 6.5 * colChars + 20,
    left: Math.max(16 + 7 * rowChars, 7 * spec.rowTitle.length) + 8,
    // Column labels are turned 60°: the last one reaches past its column by about half its length.
    right: Math.max(spec.rowNotes ? NOTE_PX : 8, Math.ceil(3.4 * colChars - cellWidth / 2)),
    bottom: spec.colGroups ? GROUP_PX : 8,
  };
  const width = cols * cellWidth,
    height = rows * cellHeight;
  const { figure, caption, plot, svg, frame, outline, panes, titles, tip, live } = parts;
  setAttrs(figure, { 'data-rows': rows, 'data-cols': cols });
  setText(caption, spec.caption);
  setStyle(plot, {
    width: `${margin.left + width + margin.right}px`,
    height: `${margin.top + height + margin.bottom}px`,
  });

  const canvas = cellCanvas({ ...spec, canvas: spec.canvas ?? parts.canvas });
  if (canvas !== parts.canvas) {
    if (parts.canvas) parts.canvas.replaceWith(canvas);
    else plot.prepend(canvas);
    parts.canvas = canvas;
  }
  setStyle(canvas, { left: `${margin.left}px`, top: `${margin.top}px` });
  setAttrs(canvas, {
    tabindex: 0,
    role: 'img',
    'aria-roledescription': 'heatmap',
    'aria-label': `${spec.caption} — arrow keys move between cells`,
  });

  const x = scaleBand()
    .domain(spec.colLabels.map((_, j) => j))
    .range([0, width]);
  const y = scaleBand()
    .domain(spec.rowLabels.map((_, i) => i))
    .range([0, height]);
  setAttrs(svg, { width: margin.left + width + margin.right, height: margin.top + height + margin.bottom });
  // The panes (skeleton): the rows' labels the plot's height, the columns' its width, each with the domain line beside
  // it; the corner where they meet ends short of the first column, whose turned label reaches a little to its left.
  const sizes = {
    rows: [margin.left + 1, margin.top + height + margin.bottom],
    cols: [margin.left + width + margin.right, margin.top + 1],
    corner: [margin.left - 6, margin.top + 1],
  };
  for (const [name, [w, h]] of Object.entries(sizes)) {
    setAttrs(panes[name].svg, { width: w, height: h });
    setAttrs(panes[name].background, { width: w, height: h });
    setAttr(panes[name].frame, 'transform', `translate(${margin.left}, ${margin.top})`);
  }
  setStyle(parts.scroll, { scrollPaddingTop: `${margin.top}px`, scrollPaddingLeft: `${margin.left}px` });
  setAttr(frame, 'transform', `translate(${margin.left}, ${margin.top})`);
  // Narrow columns turn their labels upright (at 60° neighbours would overlap), in a smaller font, centred on their
  // column: turned, the axis's offset above the tick (y) would move a label sideways, a column to the left.
  bandAxis(parts.colAxis, {
    orient: 'top',
    scale: x,
    ticks: labelIndices(cols, cellWidth),
    label: (j) => spec.colLabels[j],
    turn: cellWidth >= SLANTED_LABEL_PX ? SLANTED : UPRIGHT,
  });
  setStyle(parts.colAxis, { '--label-px': `${labelFontPx(cellWidth)}px` });
  bandAxis(parts.rowAxis, {
    orient: 'left',
    scale: y,
    ticks: labelIndices(rows, cellHeight),
    label: (i) => spec.rowLabels[i],
  });
  setStyle(parts.rowAxis, { '--label-px': `${labelFontPx(cellHeight)}px` });
  // Over the cells from the first column on: centred, a title wider than a short matrix reached left under the corner.
  setAttrs(titles.col, { x: margin.left });
  setText(titles.col, spec.colTitle);
  // The row title sits in the free top-left corner, so it never outgrows a short matrix.
  setAttrs(titles.row, { x: margin.left - 12, y: margin.top - 8 });
  setText(titles.row, spec.rowTitle);
  setAttrs(titles.notes, { x: margin.left + width + 6, y: margin.top - 8 });
  setText(titles.notes, spec.rowNotes ? (spec.rowNotesTitle ?? '') : '');
  drawRowNotes(frame, outline, spec, width);
  frame.querySelector(':scope > .col-groups')?.remove(); // the concatenation's blocks: drawn anew (no keystroke moves them)
  if (spec.colGroups) drawColGroups(frame, outline, spec.colGroups, cellWidth, height);
  drawHighlights(parts, spec.highlights ?? [], cellWidth, cellHeight);
  setStyle(parts.changes, { left: `${margin.left}px`, top: `${margin.top}px` });
  setAttrs(parts.changes, { width, height });
  setAttrs(outline, { width: cellWidth, height: cellHeight, visibility: 'hidden' });

  tip.hide();
  setText(live, '');
  const showCell = (i, j, byKey) => {
    const text = spec.describe(i, j, values[i * cols + j]);
    outline.setAttribute('x', j * cellWidth);
    outline.setAttribute('y', i * cellHeight);
    outline.setAttribute('visibility', 'visible');
    // A cell the keys moved to out of the box's view, or under the labels' panes, is scrolled into view (the box's
    // scroll-padding keeps it clear of the panes); a pointed cell is in view already.
    if (byKey) outline.scrollIntoView({ block: 'nearest', inline: 'nearest' });
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
    outline.setAttribute('visibility', 'hidden');
    tip.hide();
    live.textContent = '';
    // No cell is current: what follows it goes back to what it shows without one.
    if (spec.currentCellEvent)
      canvas.dispatchEvent(new CustomEvent(spec.currentCellEvent, { detail: { row: null, col: null }, bubbles: true }));
  };
  followCurrentCell(canvas, spec, showCell, hideCell);

  const key = legend({ color: spec.color, domain: spec.domain, title: spec.legendTitle }, parts.legend);
  if (key !== parts.legend) {
    if (parts.legend) parts.legend.replaceWith(key);
    else parts.scroll.after(key);
    parts.legend = key;
  }
  parts.changedKey ??= changedKey();
  if (!parts.changedKey.isConnected) key.after(parts.changedKey);
  setHidden(parts.changedKey, !spec.highlights?.length || !spec.highlightsKey);
  setText(parts.changedKey.lastChild, spec.highlightsKey ?? '');
  parts.table = dataTableDetails(spec, parts.table);
  if (!parts.table.isConnected) parts.changedKey.after(parts.table);
  figure.exportData = exportData(spec);
  partsOf.set(figure, parts);
  return figure;
}

/** The elements every heatmap has, empty: heatmap() fills them in. */
function skeleton(spec) {
  const figure = document.createElement('figure');
  figure.className = 'heatmap';
  figure.dataset.figure = spec.name;
  const caption = figure.appendChild(document.createElement('figcaption'));
  // The box the plot scrolls in when it is larger than the room it has (heatmap.css: at most the pane's width and most
  // of the window's height).
  const scroll = figure.appendChild(document.createElement('div'));
  scroll.className = 'heatmap-scroll';
  const plot = scroll.appendChild(document.createElement('div'));
  plot.className = 'heatmap-plot';
  // The labels in <svg> panes of their own, sticky at the box's edges (heatmap.css): the rows' at its left, the
  // columns' at its top, their corner (the rows' title) at both. The cells scroll under them, and every label stays in
  // view. Each pane has a background, so what passes under it is hidden.
  const pane = (name) => {
    const svg = select(plot.appendChild(document.createElementNS(SVG_NS, 'svg')))
      .attr('class', `label-pane ${name}-labels`)
      .attr('aria-hidden', 'true');
    const background = svg.append('rect').attr('class', 'label-pane-background').node();
    return { svg: svg.node(), background, frame: svg.append('g').node() };
  };
  const panes = { rows: pane('row'), cols: pane('col'), corner: pane('corner') };
  const rowAxis = select(panes.rows.frame).append('g').attr('class', 'axis axis-rows').node();
  const colAxis = select(panes.cols.frame).append('g').attr('class', 'axis axis-cols').node();
  const svg = select(plot.appendChild(document.createElementNS(SVG_NS, 'svg'))).attr('aria-hidden', 'true');
  const frame = svg.append('g');
  const outline = frame.append('rect').attr('class', 'hover-outline').node();
  const title = (parent, anchor) =>
    select(parent).append('text').attr('class', 'axis-title').attr('y', 11).attr('text-anchor', anchor);
  // The titles stay in view with the labels: the columns' in the corner too (it reaches past the corner, over the
  // columns' pane, above their labels), the notes' in the columns' pane.
  const titles = {
    col: title(panes.corner.svg, 'start').node(),
    row: title(panes.corner.svg, 'end').node(),
    notes: title(panes.cols.svg, 'start').node(),
  };
  // Over the cells, under nothing that takes the pointer: the outlines of what just changed (drawHighlights).
  const changes = select(plot.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('class', 'changes')
    .attr('aria-hidden', 'true')
    .node();
  const tip = tooltip(plot);
  tip.element.setAttribute('aria-hidden', 'true'); // drawn for the eyes; `live` below says the same
  // A live region must exist before its text changes to be announced: the tooltip comes and goes.
  const live = plot.appendChild(document.createElement('p'));
  live.setAttribute('role', 'status');
  visuallyHidden(live);
  return {
    figure,
    caption,
    scroll,
    plot,
    svg: svg.node(),
    frame: frame.node(),
    panes,
    colAxis,
    rowAxis,
    outline,
    changes,
    titles,
    tip,
    live,
  };
}

/** The notes right of the rows, joined by row: a keystroke rewrites the notes that changed (their title: a pane's). */
function drawRowNotes(frame, outline, spec, width) {
  const existing = frame.querySelector(':scope > .row-notes');
  if (!spec.rowNotes) {
    existing?.remove();
    return;
  }
  const notes = select(existing ?? frame.insertBefore(document.createElementNS(SVG_NS, 'g'), outline));
  if (!existing) notes.attr('class', 'row-notes');
  notes
    .selectAll('text')
    .data(labelIndices(spec.rows, spec.cellHeight), (i) => i)
    .join((enter) => enter.append('text').attr('dy', '0.32em'))
    .order()
    .each(function (i) {
      setAttrs(this, { x: width + 6, y: (i + 0.5) * spec.cellHeight });
      setText(this, spec.rowNotes[i]);
    });
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
