// The line view's own controls: which heads to draw and the weight threshold below which a line is hidden.
import { field, input } from '../../views/form-controls.js';

/**
 * Controls of the line view: which heads to draw and the weight threshold.
 * @returns {{ form: HTMLFormElement, read: () => object, sync: (state: object) => void }}
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
  const sync = (state) => {
    // Written only when they differ: this runs at every keystroke while the chapter is open.
    if (threshold.value !== String(state.lineThreshold)) threshold.value = String(state.lineThreshold);
    if (thresholdOut.value !== state.lineThreshold.toFixed(2)) thresholdOut.value = state.lineThreshold.toFixed(2);
    const boxes = heads.querySelectorAll('input');
    if (boxes.length !== state.numHeads) {
      heads.replaceChildren(
        heads.querySelector('legend'),
        ...Array.from({ length: state.numHeads }, (_, h) => {
          const label = document.createElement('label');
          const box = label.appendChild(input('lineHead', { type: 'checkbox', value: String(h) }));
          box.dataset.head = String(h);
          label.append(` ${h + 1}`);
          return label;
        }),
      );
    }
    for (const box of heads.querySelectorAll('input')) {
      const checked = state.lineHeads.includes(Number(box.value));
      if (box.checked !== checked) box.checked = checked;
    }
  };
  return { form, read, sync };
}
