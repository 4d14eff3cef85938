// The line view's own controls: which heads to draw (the heads of the model on screen) and the weight threshold below
// which a line is hidden.
import { field, input } from '../../views/form-controls.js';
import { lineHeadName, lineHeadsShown } from './line-view.js';

/**
 * Controls of the line view: which heads to draw and the weight threshold.
 * @returns {{ form: HTMLFormElement, read: () => object,
 *   sync: (state: object, run: import('../../models/run.js').Run) => void }}  sync: to the state and the run on screen
 *   (a box per head of its model, named, the heads drawn checked)
 */
export function buildLineControls() {
  const form = document.createElement('form');
  form.className = 'controls line-controls';
  form.setAttribute('aria-label', 'Line view settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  const threshold = field(
    form,
    'Hide weights below',
    input('lineThreshold', { type: 'range', min: 0, max: 0.5, step: 0.01 }),
  );
  const thresholdOut = threshold.parentElement.appendChild(document.createElement('output'));
  thresholdOut.className = 'hint';
  const heads = form.appendChild(document.createElement('fieldset'));
  heads.className = 'line-heads';
  heads.appendChild(document.createElement('legend')).textContent = 'Heads drawn';

  const read = () => ({
    lineThreshold: Number(threshold.value),
    lineHeads: [...heads.querySelectorAll('input:checked')].map((box) => Number(box.value)),
  });
  let named = ''; // the heads' names the boxes were built for
  const sync = (state, run) => {
    // Written only when they differ: this runs at every keystroke while the chapter is open.
    if (threshold.value !== String(state.lineThreshold)) threshold.value = String(state.lineThreshold);
    if (thresholdOut.value !== state.lineThreshold.toFixed(2)) thresholdOut.value = state.lineThreshold.toFixed(2);
    if (run.status !== 'ready') return; // a model still loading has no heads yet: the boxes stay as they were
    const names = run.heads.map((_, h) => lineHeadName(run, h));
    if (names.join('\n') !== named) {
      named = names.join('\n');
      heads.replaceChildren(
        heads.querySelector('legend'),
        ...names.map((name, h) => {
          const label = document.createElement('label');
          const box = label.appendChild(input('lineHead', { type: 'checkbox', value: String(h) }));
          box.dataset.head = String(h);
          label.append(` ${name}`);
          return label;
        }),
      );
    }
    const shown = lineHeadsShown(run, state.lineHeads, state.head);
    for (const box of heads.querySelectorAll('input')) {
      const checked = shown.includes(Number(box.value));
      if (box.checked !== checked) box.checked = checked;
    }
  };
  return { form, read, sync };
}
