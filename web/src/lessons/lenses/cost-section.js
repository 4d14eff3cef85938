// The section "Cost: self-attention vs. convolution vs. recurrence" (d2l.ai §11.6.2; Vaswani
// et al. 2017 Table 1): the three layers' operations, sequential operations and maximum path length for
// the current sentence (n = its token count, d = d_model), a kernel-size control (state.costKernel), and
// operations against n on log–log axes with the crossings. Its figures (costTable, costPlot) are drawn by
// the explorer from costData(), computed while they are on screen and only when n or k changes.
import { field, input } from '../../views/form-controls.js';
import { element, section } from '../../views/layout.js';

export const COST_KERNEL_RANGE = [2, 50];
const POINTS_PER_DECADE = 20;

/** Whole numbers from 1 to `last`, evenly spaced on a log scale (duplicates removed), `last` included. */
export function logSpacedN(last) {
  const decades = Math.log10(last);
  const ns = new Set([1]);
  for (let i = 1; i <= Math.ceil(decades * POINTS_PER_DECADE); i++)
    ns.add(Math.min(last, Math.round(10 ** (i / POINTS_PER_DECADE))));
  ns.add(last);
  return [...ns].sort((a, b) => a - b);
}

/** The figures' sizes: n is the sentence's token count (all of it, also past what explain() traces). */
export function costInputs(state, n, dModel) {
  return { n: Math.max(1, n), dModel, kernelSize: state.costKernel };
}

/**
 * One core.layerCosts() call: the costs at these sizes, and the curves from n = 1 to a power of ten past
 * both crossings (n = d and n = k·d). Throws the core's message.
 * @returns {{ costs: object, sizes: { n, dModel, kernelSize } }}
 */
export function costData(core, sizes) {
  const last = 10 ** Math.max(4, Math.ceil(Math.log10(Math.max(sizes.n, 2 * sizes.kernelSize * sizes.dModel))));
  return { costs: core.layerCosts({ ...sizes, curveN: logSpacedN(last) }), sizes };
}

/**
 * @param {(change: object) => void} onChange  applies a state change (the explorer's edit)
 * @param {HTMLElement[]} slots  where the explorer draws the table and the plot
 * @returns {{ element: HTMLElement, forms: HTMLFormElement[], message: HTMLElement,
 *   sync: (state: object, context: { readonly: boolean }) => void }}  message: why the last change drew nothing new
 */
export function costSection(onChange, slots) {
  const form = element('form', 'controls lab-controls cost-controls');
  form.setAttribute('aria-label', 'Cost: kernel size');
  form.addEventListener('submit', (event) => event.preventDefault());
  const [low, high] = COST_KERNEL_RANGE;
  const kernel = field(
    form,
    'CNN kernel size k',
    input('costKernel', { type: 'number', min: low, max: high, step: 1 }),
  );
  form.addEventListener('input', () => {
    const k = Math.trunc(Number(kernel.value));
    if (k >= low && k <= high) onChange({ costKernel: k });
  });
  const message = element('p', 'status error cost-message');
  message.setAttribute('role', 'alert');
  const el = section(
    'Cost: self-attention vs. convolution vs. recurrence',
    'What one layer costs on this sentence (d2l.ai §11.6.2; Vaswani et al. 2017, Table 1). Operations are the leading ' +
      'multiply–add counts without constant factors; sequential operations must wait for each other; the maximum path length ' +
      'is how many layers or steps separate the farthest two tokens. Type a longer sentence and watch n move.',
    form,
    message,
    ...slots,
  );
  el.classList.add('lens-section', 'cost-section');

  const sync = (state, { readonly }) => {
    if (!kernel.matches(':focus') && Number(kernel.value) !== state.costKernel) kernel.value = String(state.costKernel);
    kernel.disabled = readonly;
  };
  return { element: el, forms: [form], message, sync };
}
