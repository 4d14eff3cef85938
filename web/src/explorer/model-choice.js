// Whose attention the page shows, above the chapters: the designed heads, or one of the core's trained
// language models (the decoder that predicts the next word, the encoder that fills in a blank). A choice of
// model, not a setting of one: a radio group of buttons beside the settings, not among them.
import { modelEntry } from '../models/registry.js';
import { labelled, modelDescription } from '../settings/limits.js';
import { element } from '../views/layout.js';
import { setHidden } from '../views/dom-update.js';

/**
 * What the model choice says when a model's file did not load (the figures name the address tried): our models' ship
 * in the package; a checkpoint is the author's to host.
 * @param {string} kind  the model's id  @param {boolean} ourModel  one of ours (registry.js ourModel)
 */
export function modelFileNote(kind, ourModel) {
  if (!ourModel) {
    return (
      'A checkpoint is yours to host: a GPT-2 model.safetensors and its config.json beside the page, named by the ' +
      'checkpoint attribute (or checkpoint= in the link).'
    );
  }
  return (
    `This model needs its file, ${kind}.safetensors (in the npm package's dist/core/), at the address named below, ` +
    'or a models-base attribute naming the folder that holds it.'
  );
}

/**
 * @param {(model: string) => void} choose  called with the name picked (settings/limits.js modelNames)
 * @returns {{ element: HTMLElement, sync: (state: object, readonly: boolean) => void, say: (text: string) => void }}
 *   say: a message under the choice ('' removes it)
 */
export function modelChoice(choose) {
  const group = element('div', 'model-choice');
  group.setAttribute('role', 'radiogroup');
  group.setAttribute('aria-label', 'Model');
  group.append(element('span', 'model-choice-label', 'Model'));
  const buttons = labelled('models').map(([name, label]) => {
    const button = group.appendChild(element('button', 'model-option', label));
    button.type = 'button';
    button.setAttribute('role', 'radio');
    button.dataset.model = name;
    button.title = modelDescription(name);
    button.addEventListener('click', () => choose(name));
    return button;
  });
  // Arrow keys move between the options, as a radio group's do (WAI-ARIA radio group pattern).
  group.addEventListener('keydown', (event) => {
    const by = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    const shown = buttons.filter((button) => !button.hidden);
    const at = shown.indexOf(event.target);
    if (!by || at < 0) return;
    const next = shown[(at + by + shown.length) % shown.length];
    next.focus();
    next.click();
    event.preventDefault();
  });
  // Why the chosen trained model is not shown (its file did not load: which file, where it was looked for), beside the
  // choice that asked for it.
  const note = group.appendChild(element('p', 'model-note status error'));
  setHidden(note, true);
  const say = (text) => {
    if (note.textContent !== text) note.textContent = text;
    setHidden(note, !text);
  };
  const sync = (state, readonly) => {
    for (const button of buttons) {
      const checked = button.dataset.model === state.model;
      // A checkpoint's model is offered once the page names one (or shown while chosen, to say what is missing).
      setHidden(button, modelEntry(button.dataset.model).can.checkpoint && !state.checkpoint && !checked);
      button.setAttribute('aria-checked', String(checked));
      button.tabIndex = checked ? 0 : -1;
      button.disabled = readonly;
    }
  };
  return { element: group, sync, say };
}
