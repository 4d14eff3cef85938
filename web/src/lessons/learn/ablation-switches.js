// The Learn chapter's ablation switches: one checkbox per head of the model in training (checked: switched
// off), which the worker applies to training and to the measurements; the heads' grid flips them too.
import { headName } from '../../models/run.js';
import { element } from '../../views/layout.js';

/**
 * @param {(layer: number, head: number, off: boolean) => void} ablate  tells the worker a switch moved
 * @returns {{ element: HTMLFieldSetElement, box: (layer: number | string, head: number | string) => HTMLInputElement | null,
 *   sync: (snapshot: { weights: { shape: number[] }, ablated: string[] }, readonly: boolean) => void }}  box: a head's
 *   switch; sync: one switch per head, rebuilt when the model's shape changes, checked as the snapshot's ablated heads
 */
export function ablationSwitches(ablate) {
  const fieldset = element('fieldset', 'ablation');
  fieldset.append(element('legend', '', 'Switch heads off (ablation): which heads does the accuracy need?'));
  fieldset.addEventListener('change', (event) => {
    const { layer, head } = event.target.dataset;
    ablate(Number(layer), Number(head), event.target.checked);
  });
  const box = (layer, head) => fieldset.querySelector(`input[data-layer="${layer}"][data-head="${head}"]`);
  const sync = (snapshot, readonly) => {
    const [numLayers, numHeads] = snapshot.weights.shape;
    const shape = `${numLayers}x${numHeads}`;
    if (fieldset.dataset.shape !== shape) {
      fieldset.dataset.shape = shape;
      fieldset.replaceChildren(fieldset.firstChild);
      for (let l = 0; l < numLayers; l++) {
        for (let h = 0; h < numHeads; h++) {
          const label = fieldset.appendChild(element('label', 'ablation-switch'));
          const input = label.appendChild(document.createElement('input'));
          Object.assign(input, { type: 'checkbox', disabled: readonly });
          Object.assign(input.dataset, { layer: String(l), head: String(h) });
          label.append(headName({ layer: l, head: h }));
        }
      }
    }
    for (const input of fieldset.querySelectorAll('input'))
      input.checked = snapshot.ablated.includes(`${input.dataset.layer},${input.dataset.head}`);
  };
  return { element: fieldset, box, sync };
}
