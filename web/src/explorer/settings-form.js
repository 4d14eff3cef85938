// The explorer's settings form: the model settings every chapter reads, whose values are read back
// into the state on every change. A chapter's own settings are its own controls (lessons/<chapter>/).
// Every control comes from its setting's `control` description in the state schema (settings/state.js
// BASE_SETTINGS; the Control typedef of settings/schema.js): its label, widget, place, choices and the rule
// that disables it. This file only lays them out, reads them and syncs them.
import { modelEntry } from '../models/registry.js';
import { BASE_SETTINGS } from '../settings/state.js';
import { designedHead } from '../settings/head.js';
import { isList } from '../settings/schema.js';
import { clampInteger, field, input, select } from '../views/form-controls.js';
import { setHidden } from '../views/dom-update.js';

/** Where a control can sit, in the form's order. */
const PLACES = ['view', 'more'];

/**
 * The settings of the form, in its order (in view, then under "More settings"), each with its control's `name`.
 * @param {import('../settings/schema.js').Setting[]} schema
 * @returns {{ name: string, setting: import('../settings/schema.js').Setting }[]}
 */
export function formSettings(schema = BASE_SETTINGS) {
  return schema
    .filter((setting) => setting.control)
    .sort(
      (a, b) => PLACES.indexOf(a.control.place) - PLACES.indexOf(b.control.place) || a.control.order - b.control.order,
    )
    .map((setting) => ({ name: setting.control.name ?? setting.name, setting }));
}

/** A select's choices: the setting's names, or the control's values within the setting's range. */
function choices(setting, context) {
  if (setting.names) return setting.names();
  const [min, max] = setting.range ? setting.range() : [-Infinity, Infinity];
  return (setting.control.values?.(context) ?? []).filter((value) => value >= min && value <= max);
}

/** [value, text] pairs of a select's options. */
function options(setting, values, context) {
  return values.map((value) => [value, setting.control.optionLabel?.(value, context) ?? String(value)]);
}

/** The element of one setting's control (with its <output> when a slider), appended to `parent`. */
function controlElement(parent, name, setting, context) {
  const { control } = setting;
  if (control.widget === 'select') {
    return { el: field(parent, control.label, select(name, options(setting, choices(setting, context), context))) };
  }
  const [min, max] = setting.range();
  const step = control.widget === 'range' ? control.step : 1; // a number field holds a whole number
  const el = field(parent, control.label, input(name, { type: control.widget, min, max, step }));
  if (control.widget !== 'range') return { el };
  const output = el.parentElement.appendChild(document.createElement('output'));
  output.className = 'hint';
  return { el, output, decimals: String(step).split('.')[1]?.length ?? 0 };
}

/**
 * The setting's value from its control's text. A list's control edits one item, the selected designed head's (the
 * selected head's kind, of headKinds); the head select names a designed head, of the one layer.
 */
function valueOf(setting, text, state) {
  if (isList(setting.type)) {
    const items = [...state[setting.name]];
    items[designedHead(state.head, state.numHeads)] = text;
    return items;
  }
  if (setting.type === 'head') return { layer: 0, head: Number(text) };
  if (setting.control.widget === 'number') return clampInteger(text, ...setting.range());
  return setting.type === 'integer' || setting.type === 'number' ? Number(text) : text;
}

/**
 * Builds the controls for a core with `dModel`-wide vectors; name lists and ranges come from the state schema, which
 * reads them from core.limits (settings/limits.js).
 * @returns {{ form: HTMLFormElement, read: (changed: string) => object, sync: (state: object) => void }}
 */
export function buildControls(dModel) {
  const context = { dModel };
  const form = document.createElement('form');
  form.className = 'controls';
  form.setAttribute('aria-label', 'Attention settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  // In view: at most six settings, the ones every chapter reads. The rest wait under "More settings".
  const details = document.createElement('details');
  details.className = 'more-settings';
  const summary = details.appendChild(document.createElement('summary'));
  summary.textContent = 'More settings';
  const more = details.appendChild(document.createElement('div'));
  more.className = 'more-controls';
  const controls = new Map();
  for (const { name, setting } of formSettings()) {
    const built = controlElement(setting.control.place === 'more' ? more : form, name, setting, context);
    if (setting.control.title) built.el.title = setting.control.title;
    // A trained model fixes what it was trained with (the state schema's `fixed` settings): these settings show the
    // designed heads' values, disabled, and say why.
    const fixable = Boolean(setting.fixed || setting.control.designedOnly);
    if (fixable) built.el.closest('.control').classList.add('fixable');
    controls.set(name, { setting, fixable, ...built });
  }
  form.appendChild(details);
  // With the settings it fixes gone, the rest fold under one line that says why (the figures come first, even on a phone).
  const fixedNote = more.insertBefore(document.createElement('p'), more.firstChild);
  fixedNote.className = 'hint fixed-note';

  let synced = null;
  /**
   * The state change of the control that moved (named `changed`): that one setting only, so a control never re-sends
   * the others' values (a head's kind changes headKinds at the selected head).
   */
  const read = (changed) => {
    if (!controls.has(changed)) throw new RangeError(`No setting named "${changed}" in the controls`);
    const { setting, el } = controls.get(changed);
    return { [setting.name]: valueOf(setting, el.value, synced) };
  };

  const sync = (state) => {
    synced = state;
    const model = modelEntry(state.model);
    const fixed = !model.can.designedControls;
    for (const { setting, fixable, el, output, decimals } of controls.values()) {
      const { control } = setting;
      // The designed heads' select lists theirs; a trained model's head (of another layer) is its own figures'.
      if (setting.type === 'head' && el.options.length !== state.numHeads) {
        const heads = Array.from({ length: state.numHeads }, (_, h) => h);
        el.replaceChildren(...options(setting, heads, context).map(([h, text]) => new Option(text, String(h))));
      }
      el.value = String(control.shown ? control.shown(state) : state[setting.name]);
      if (output) output.value = Number(state[setting.name]).toFixed(decimals);
      // A setting that does not apply is disabled, and a model that fixes it disables it too.
      const inapplicable = control.inapplicable?.(state) ?? false;
      if (control.hideInapplicable) el.parentElement.classList.toggle('inactive', inapplicable);
      el.disabled = (fixable && fixed) || inapplicable;
    }
    setHidden(fixedNote, !fixed);
    // What the model was trained with, in place of the settings it fixes (its figures give its sizes).
    summary.textContent = fixed ? `Settings: fixed by the ${model.label}` : 'More settings';
    if (fixed) {
      // A model that writes the next word reads left to right (a causal mask); one that fills blanks reads both sides.
      fixedNote.textContent =
        `The ${model.label} was trained with its own heads and ` +
        `projections, a ${model.can.generate ? 'causal' : 'bidirectional'} mask, sinusoidal position information and softmax of ` +
        'scaled dot products, so those settings are fixed (its figures give its sizes). Choose “designed heads” to change them.';
    }
    form.classList.toggle('fixed-by-model', fixed);
  };
  return { form, read, sync };
}
