// Form controls shared by the explorer's settings and the chapters' own controls: a labelled field,
// a select from [value, text] pairs, an input with its attributes, and the clamp a number field's
// value goes through before it reaches the state.

let nextId = 0;

/**
 * Appends to `form` a labelled wrapper (.control) holding `control`, linked to its label by a fresh id.
 * @param {HTMLElement} form  @param {string} labelText  @param {HTMLElement} control
 * @returns {HTMLElement} the control
 */
export function field(form, labelText, control) {
  const id = `ae-control-${nextId++}`;
  const wrapper = form.appendChild(document.createElement('div'));
  wrapper.className = 'control';
  const label = wrapper.appendChild(document.createElement('label'));
  label.htmlFor = id;
  label.textContent = labelText;
  control.id = id;
  wrapper.appendChild(control);
  return control;
}

/**
 * A select named `name`.
 * @param {string} name  @param {[string | number, string][]} options  [value, text] pairs in order
 * @returns {HTMLSelectElement}
 */
export function select(name, options) {
  const el = document.createElement('select');
  el.name = name;
  for (const [value, text] of options) el.add(new Option(text, String(value)));
  return el;
}

/**
 * An input named `name` with these properties (type, min, max, step, …).
 * @param {string} name  @param {object} attributes
 * @returns {HTMLInputElement}
 */
export function input(name, attributes) {
  const el = document.createElement('input');
  el.name = name;
  Object.assign(el, attributes);
  return el;
}

/**
 * A number field's text as a whole number in [min, max]: truncated, clamped, 0 for text that is no number.
 * @param {string | number} value  @param {number} min  @param {number} max
 * @returns {number}
 */
export function clampInteger(value, min, max) {
  return Math.max(min, Math.min(max, Math.trunc(Number(value) || 0)));
}
