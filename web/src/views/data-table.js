// A heatmap's "Table of values": a <details> whose table (the first 100 × 100 values, 3 significant digits)
// is built only when opened, never at render time, which runs per keystroke. A figure updated in place
// gives it its new values and closes it, as a figure drawn anew shows it closed: built again when opened.
import { format } from 'd3-format';
import { scrollRegion } from './layout.js';

const TABLE_MAX = 100; // rows and columns in the table of values (the CSV export has them all)
const tableValue = format('.3g');

/** The values each table shows, kept beside it (its spec). */
const specs = new WeakMap();

/**
 * @param {{ caption, values, rows, cols, rowLabels, colLabels, rowTitle, isMasked? }} spec  heatmap.js's spec
 * @param {HTMLDetailsElement} [details]  the table's <details> of an earlier draw, to update
 * @returns {HTMLDetailsElement} details.data-table
 */
export function dataTableDetails(spec, details) {
  if (details) {
    specs.set(details, spec);
    details.open = false;
    if (details.childElementCount > 1) details.replaceChildren(details.firstElementChild);
    return details;
  }
  details = document.createElement('details');
  details.className = 'data-table';
  details.appendChild(document.createElement('summary')).textContent = 'Table of values';
  specs.set(details, spec);
  details.addEventListener('toggle', () => {
    if (!details.open || details.childElementCount > 1) return;
    details.append(...dataTable(specs.get(details)));
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
