// The cost of one layer on the current sentence (d2l.ai §11.6.2; Vaswani et al. 2017 Table 1): a table of
// operations, sequential operations and maximum path length for convolution, recurrence and self-attention,
// with the formulas and their values for this n, d and k. Pure: new DOM from core.layerCosts()'s result.
import { format } from 'd3-format';
import { math } from '../../views/formulas.js';
import { scrollRegion } from '../../views/layout.js';

const count = format(',');

/** The three layer kinds in table order, with their formulas (TeX) for each column. */
export const LAYER_ROWS = [
  {
    kind: 'convolution',
    name: 'Convolution (kernel k)',
    operations: String.raw`k\,n\,d^2`,
    sequential: '1',
    path: String.raw`\lceil (n-1)/(k-1) \rceil`,
  },
  { kind: 'recurrent', name: 'Recurrent', operations: String.raw`n\,d^2`, sequential: 'n', path: 'n-1' },
  { kind: 'selfAttention', name: 'Self-attention', operations: String.raw`n^2 d`, sequential: '1', path: '1' },
];

/** A formula and its value ("n − 1 = 11"), or the value alone for a constant formula ("1"). */
function cell(tag, tex, value) {
  const el = document.createElement(tag);
  if (tex === String(value)) el.textContent = count(value);
  else el.append(math(tex), ` = ${count(value)}`);
  return el;
}

/**
 * @param {object} costs  core.layerCosts()'s result
 * @param {{ n: number, dModel: number, kernelSize: number }} sizes  the n, d and k it was computed for
 * @returns {HTMLElement} <figure data-figure="cost-table"> with a <table>; rows carry data-kind and data-operations
 */
export function costTable(costs, { n, dModel, kernelSize }) {
  const figure = document.createElement('figure');
  figure.className = 'cost-table';
  figure.dataset.figure = 'cost-table';
  figure.dataset.n = String(n);
  figure.appendChild(document.createElement('figcaption')).textContent =
    `One layer on this sentence: n = ${count(n)} token${n === 1 ? '' : 's'}, d = d_model = ${dModel}, kernel k = ${kernelSize}`;
  const table = document.createElement('table');
  figure.append(scrollRegion('table-scroll', 'Cost of each layer kind, scrollable', table));
  const head = table.appendChild(document.createElement('thead')).appendChild(document.createElement('tr'));
  for (const text of ['Layer', 'Operations', 'Sequential operations', 'Maximum path length']) {
    const th = head.appendChild(document.createElement('th'));
    th.scope = 'col';
    th.textContent = text;
  }
  const fewest = Math.min(...LAYER_ROWS.map(({ kind }) => costs[kind].operations));
  const body = table.appendChild(document.createElement('tbody'));
  for (const row of LAYER_ROWS) {
    const c = costs[row.kind];
    const tr = body.appendChild(document.createElement('tr'));
    tr.dataset.kind = row.kind;
    tr.dataset.operations = String(c.operations);
    const name = tr.appendChild(document.createElement('th'));
    name.scope = 'row';
    name.textContent = row.name;
    if (c.operations === fewest) {
      tr.classList.add('cheapest');
      name.appendChild(document.createElement('span')).className = 'badge';
      name.lastChild.textContent = 'fewest operations';
    }
    tr.append(
      cell('td', row.operations, c.operations),
      cell('td', row.sequential, c.sequentialOperations),
      cell('td', row.path, c.maxPathLength),
    );
  }
  const { selfAttentionRecurrent: d, selfAttentionConvolution: kd } = costs.crossings;
  const note = figure.appendChild(document.createElement('p'));
  note.className = 'verdict cost-verdict';
  note.textContent =
    n < d
      ? `n = ${count(n)} < d = ${count(d)}: self-attention needs fewer operations than recurrence (and than convolution, below k·d = ${count(kd)}), ` +
        'all positions at once, and one step between any two tokens.'
      : n < kd
        ? `n = ${count(n)} ≥ d = ${count(d)}: recurrence now needs fewer operations than self-attention; ` +
          `convolution still needs more (until n = k·d = ${count(kd)}).`
        : `n = ${count(n)} ≥ k·d = ${count(kd)}: self-attention needs the most operations — ` +
          "its cost grows with n², the others' with n.";
  return figure;
}
