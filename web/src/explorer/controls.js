// The explorer's controls: a form whose values are read back into the state on every change.
import { headCounts } from './state.js';

let nextId = 0;

function field(form, labelText, control, hint) {
  const id = `ae-control-${nextId++}`;
  const wrapper = form.appendChild(document.createElement('div'));
  wrapper.className = 'control';
  const label = wrapper.appendChild(document.createElement('label'));
  label.htmlFor = id;
  label.textContent = labelText;
  control.id = id;
  wrapper.appendChild(control);
  if (hint) {
    const out = wrapper.appendChild(document.createElement('output'));
    out.htmlFor = id;
    out.className = 'hint';
    return { control, out };
  }
  return { control };
}

function select(name, options) {
  const el = document.createElement('select');
  el.name = name;
  for (const [value, text] of options) el.add(new Option(text, String(value)));
  return el;
}

function input(name, attributes) {
  const el = document.createElement('input');
  el.name = name;
  Object.assign(el, attributes);
  return el;
}

/**
 * Builds the controls for a core with `dModel`-wide vectors.
 * @returns {{ form: HTMLFormElement, read: () => object, sync: (state: object) => void }}
 */
export function buildControls(dModel) {
  const form = document.createElement('form');
  form.className = 'controls';
  form.setAttribute('aria-label', 'Attention settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  const numHeads = field(form, 'Heads', select('numHeads', headCounts(dModel).map((h) => [h, `${h} (d_k = ${dModel / h})`]))).control;
  const head = field(form, 'Show head', select('head', [])).control;
  const projection = field(form, 'Projections W_Q, W_K, W_V, W_O', select('projection', [
    ['identity', 'identity (raw word-vector similarity)'], ['random', 'random (Glorot, seeded)']])).control;
  const seed = field(form, 'Seed', input('seed', { type: 'number', min: 0, max: 4294967295, step: 1 })).control;
  const temperature = field(form, 'Temperature τ', input('temperature', { type: 'range', min: 0.05, max: 5, step: 0.05 }), true);
  const causal = field(form, 'Causal mask', input('causal', { type: 'checkbox' })).control;
  const positional = field(form, 'Add positional encoding', input('positionalEncoding', { type: 'checkbox' })).control;

  const read = () => ({
    numHeads: Number(numHeads.value),
    head: Number(head.value),
    projection: projection.value,
    seed: Math.max(0, Math.min(4294967295, Math.trunc(Number(seed.value) || 0))),
    temperature: Number(temperature.control.value),
    causal: causal.checked,
    positionalEncoding: positional.checked,
  });

  const sync = (state) => {
    numHeads.value = String(state.numHeads);
    if (head.options.length !== state.numHeads) {
      head.replaceChildren(...Array.from({ length: state.numHeads }, (_, h) => new Option(`head ${h + 1}`, String(h))));
    }
    head.value = String(state.head);
    head.disabled = state.numHeads === 1;
    projection.value = state.projection;
    seed.value = String(state.seed);
    seed.disabled = state.projection !== 'random';
    temperature.control.value = String(state.temperature);
    temperature.out.value = `${Number(state.temperature).toFixed(2)}`;
    causal.checked = state.causal;
    positional.checked = state.positionalEncoding;
  };
  return { form, read, sync };
}
