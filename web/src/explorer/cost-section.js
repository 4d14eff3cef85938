// The section "Cost: self-attention vs. convolution vs. recurrence" (issue 8 §5; d2l.ai §11.6.2; Vaswani
// et al. 2017 Table 1): the three layers' operations, sequential operations and maximum path length for
// the current sentence (n = its token count, d = d_model), a kernel-size control (state.costKernel), and
// operations against n on log–log axes with the crossings. One core.layerCosts() call per change of n or k.
import { addExportMenus } from './figure-export.js';
import { field, input } from './controls.js';
import { element, section } from './layout.js';
import { costPlot } from '../views/cost-plot.js';
import { costTable } from '../views/cost-table.js';

export const COST_KERNEL_RANGE = [2, 50];
const POINTS_PER_DECADE = 20;

/** Whole numbers from 1 to `last`, evenly spaced on a log scale (duplicates removed), `last` included. */
export function logSpacedN(last) {
  const decades = Math.log10(last);
  const ns = new Set([1]);
  for (let i = 1; i <= Math.ceil(decades * POINTS_PER_DECADE); i++) ns.add(Math.min(last, Math.round(10 ** (i / POINTS_PER_DECADE))));
  ns.add(last);
  return [...ns].sort((a, b) => a - b);
}

/**
 * @param {object} core  the attention core (core.layerCosts, core.dModel)
 * @param {(change: object) => void} onChange  applies a state change (the explorer's edit)
 * @returns {{ element: HTMLElement, forms: HTMLFormElement[], update: (state: object, n: number, readonly: boolean) => void }}
 *   update: n is the sentence's token count (all of it, also past what explain() traces)
 */
export function costSection(core, onChange) {
  const form = element('form', 'controls lab-controls cost-controls');
  form.setAttribute('aria-label', 'Cost: kernel size');
  form.addEventListener('submit', (event) => event.preventDefault());
  const [low, high] = COST_KERNEL_RANGE;
  const kernel = field(form, 'CNN kernel size k', input('costKernel', { type: 'number', min: low, max: high, step: 1 }));
  form.addEventListener('input', () => {
    const k = Math.trunc(Number(kernel.value));
    if (k >= low && k <= high) onChange({ costKernel: k });
  });
  const message = element('p', 'status error cost-message');
  message.setAttribute('role', 'alert');
  const tableSlot = element('div', 'slot slot-cost-table');
  const plotSlot = element('div', 'slot slot-cost-plot');
  const el = section('Cost: self-attention vs. convolution vs. recurrence',
    'What one layer costs on this sentence (d2l.ai §11.6.2; Vaswani et al. 2017, Table 1). Operations are the leading ' +
    'multiply–add counts without constant factors; sequential operations must wait for each other; the maximum path length ' +
    'is how many layers or steps separate the farthest two tokens. Type a longer sentence and watch n move.',
    form, message, tableSlot, plotSlot);
  el.classList.add('lens-section', 'cost-section');

  let drawnKey = null;
  const update = (state, n, readonly) => {
    if (!kernel.matches(':focus') && Number(kernel.value) !== state.costKernel) kernel.value = String(state.costKernel);
    kernel.disabled = readonly;
    const sizes = { n: Math.max(1, n), dModel: core.dModel, kernelSize: state.costKernel };
    const key = JSON.stringify(sizes);
    if (key === drawnKey) return;
    const last = 10 ** Math.max(4, Math.ceil(Math.log10(Math.max(sizes.n, 2 * sizes.kernelSize * sizes.dModel))));
    let costs;
    try {
      costs = core.layerCosts({ ...sizes, curveN: logSpacedN(last) });
    } catch (error) {
      message.textContent = error.message;
      return;
    }
    message.textContent = '';
    drawnKey = key;
    tableSlot.replaceChildren(costTable(costs, sizes));
    plotSlot.replaceChildren(costPlot(costs, sizes));
    addExportMenus(tableSlot);
    addExportMenus(plotSlot);
  };
  return { element: el, forms: [form], update };
}
