// The score function in use (d2l.ai §11.3): its formula, and what each choice costs for this sentence.
import { format } from 'd3-format';
import { math } from '../../views/formulas.js';
import { scrollRegion } from '../../views/layout.js';

const count = format(',');
export const SCORE_TEX = {
  scaledDot: String.raw`a(q, k) = \frac{q^{\top} k}{\sqrt{d_k}}`,
  dot: String.raw`a(q, k) = q^{\top} k`,
  additive: String.raw`a(q, k) = v^{\top} \tanh(W_q\, q + W_k\, k)`,
};
const NAMES = {
  scaledDot: 'scaled dot product (Vaswani et al. 2017)',
  dot: 'dot product',
  additive: 'additive (Bahdanau et al. 2014)',
};

/**
 * @param {{ scoreFunction: string, costs: Record<string, { multiplyAdds, additions, divisions, tanh, total }>,
 *   seqLen: number, dK: number, hidden: number, numHeads: number }} data  costs per head for each function
 * @returns {HTMLElement} a <figure data-figure="score-function">
 */
export function scoreFunctionView({ scoreFunction, costs, seqLen, dK, hidden, numHeads }) {
  const figure = document.createElement('figure');
  figure.className = 'score-function';
  figure.dataset.figure = 'score-function';
  figure.appendChild(document.createElement('figcaption')).textContent =
    `Score function: ${NAMES[scoreFunction]}. Operations for one head's [${seqLen}, ${seqLen}] scores (d_k = ${dK}` +
    `${scoreFunction === 'additive' ? `, ${hidden} hidden units` : ''}); × ${numHeads} head${numHeads === 1 ? '' : 's'} for the layer.`;
  const formula = figure.appendChild(math(SCORE_TEX[scoreFunction], { display: true, tag: 'div' }));
  formula.tabIndex = 0; // it scrolls sideways in a narrow explorer: keyboard users must reach it too
  const table = Object.assign(document.createElement('table'), { className: 'cost-table' }); // the cost table's look
  figure.append(scrollRegion('table-scroll', 'Cost of each score function, scrollable', table));
  const head = table.createTHead().insertRow();
  for (const text of ['score function', 'multiply-adds', 'additions', 'divisions', 'tanh', 'total']) {
    head.appendChild(Object.assign(document.createElement('th'), { scope: 'col', textContent: text }));
  }
  const body = table.createTBody();
  for (const [name, cost] of Object.entries(costs)) {
    const row = body.insertRow();
    row.dataset.scoreFunction = name;
    if (name === scoreFunction) row.className = 'current';
    row.appendChild(Object.assign(document.createElement('th'), { scope: 'row', textContent: NAMES[name] }));
    for (const value of [cost.multiplyAdds, cost.additions, cost.divisions, cost.tanh, cost.total])
      row.insertCell().textContent = count(value);
  }
  return figure;
}
