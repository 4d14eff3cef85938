// The explorer's controls: a form whose values are read back into the state on every change.
import { WEIGHT_COLOR_MAPS } from '../views/colors.js';
import { coreLimits, labelled } from './core-limits.js';
import { headCounts } from './state.js';

let nextId = 0;

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

export function select(name, options) {
  const el = document.createElement('select');
  el.name = name;
  for (const [value, text] of options) el.add(new Option(text, String(value)));
  return el;
}

export function input(name, attributes) {
  const el = document.createElement('input');
  el.name = name;
  Object.assign(el, attributes);
  return el;
}

export function clampInteger(value, min, max) {
  return Math.max(min, Math.min(max, Math.trunc(Number(value) || 0)));
}

/** Hidden units the additive score offers (its limit is core.limits.maxAdditiveHidden). */
export const ADDITIVE_HIDDEN_SIZES = [4, 8, 16, 32, 64];

/**
 * Builds the controls for a core with `dModel`-wide vectors and at most `maxTokens` tokens; name lists
 * and ranges come from core.limits (core-limits.js).
 * @returns {{ form: HTMLFormElement, read: (changed: string) => object, sync: (state: object) => void }}
 */
export function buildControls(dModel, maxTokens) {
  const form = document.createElement('form');
  form.className = 'controls';
  form.setAttribute('aria-label', 'Attention settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  // In view: at most six settings, the ones every chapter reads. The rest wait under "More settings".
  // Each option names what every head shares, the value width d_v = d_model / heads; a designed head's d_k
  // can differ (its note and its line in the heads list say which it uses).
  const numHeads = field(form, 'Heads', select('numHeads', headCounts(dModel).map((h) => [h, `${h} (d_v = ${dModel / h})`])));
  numHeads.title = 'Each head\'s values are d_model / heads wide (d_v). A projected head\'s queries and keys too (d_k = d_v); ' +
    'a designed head uses its own d_k, shown beside it.';
  const limits = coreLimits();
  const kind = field(form, 'Selected head is', select('headKind', labelled('headKinds')));
  const mask = field(form, 'Mask', select('mask', [['bidirectional', 'bidirectional (BERT)'], ['causal', 'causal (GPT)'],
    ['padding', 'padding (valid length)']]));
  const validLength = field(form, 'Valid length', input('validLength', { type: 'number', min: 0, max: maxTokens, step: 1 }));
  const temperature = field(form, 'Temperature τ', input('temperature', {
    type: 'range', min: limits.minExplorerTemperature, max: limits.maxExplorerTemperature, step: 0.05 }));
  const temperatureOut = temperature.parentElement.appendChild(document.createElement('output'));
  temperatureOut.className = 'hint';
  const positional = field(form, 'Position information', select('positionalEncoding', labelled('positionalEncodings')));
  const details = form.appendChild(document.createElement('details'));
  details.className = 'more-settings';
  details.appendChild(document.createElement('summary')).textContent = 'More settings';
  const more = details.appendChild(document.createElement('div'));
  more.className = 'more-controls';
  const head = field(more, 'Selected head', select('head', []));
  const offset = field(more, 'δ', input('offset', { type: 'number', min: -16, max: 16, step: 1 }));
  const projection = field(more, 'Projections W_Q, W_K, W_V, W_O', select('projection', labelled('projections')));
  const seed = field(more, 'Seed', input('seed', { type: 'number', min: 0, max: limits.maxSeed, step: 1 }));
  const scoreFunction = field(more, 'Score function', select('scoreFunction', labelled('scoreFunctions')));
  const additiveHidden = field(more, 'Additive hidden units', select('additiveHidden',
    ADDITIVE_HIDDEN_SIZES.filter((h) => h <= limits.maxAdditiveHidden).map((h) => [h, String(h)])));
  const normalizer = field(more, 'Normalizer', select('normalizer', labelled('normalizers')));
  const colorMap = field(more, 'Colour map', select('colorMap', WEIGHT_COLOR_MAPS.map((name) => [name, name])));

  let headKinds = [];
  /**
   * The state change of the control that moved (named `changed`): that one field only, so a control
   * never re-sends the others' values (a head's kind changes headKinds at the selected head).
   */
  const read = (changed) => {
    const h = Number(head.value);
    if (changed === 'headKind') {
      headKinds = [...headKinds];
      headKinds[h] = kind.value;
      return { headKinds };
    }
    const values = {
      numHeads: Number(numHeads.value),
      head: h,
      headKinds,
      offset: clampInteger(offset.value, -16, 16),
      projection: projection.value,
      seed: clampInteger(seed.value, 0, limits.maxSeed),
      mask: mask.value,
      validLength: clampInteger(validLength.value, 0, maxTokens),
      temperature: Number(temperature.value),
      scoreFunction: scoreFunction.value,
      additiveHidden: Number(additiveHidden.value),
      positionalEncoding: positional.value,
      colorMap: colorMap.value,
      normalizer: normalizer.value,
    };
    if (!Object.hasOwn(values, changed)) throw new RangeError(`No setting named "${changed}" in the controls`);
    return { [changed]: values[changed] };
  };

  const sync = (state) => {
    headKinds = state.headKinds;
    numHeads.value = String(state.numHeads);
    if (head.options.length !== state.numHeads) {
      head.replaceChildren(...Array.from({ length: state.numHeads }, (_, h) => new Option(`head ${h + 1}`, String(h))));
    }
    head.value = String(state.head);
    head.disabled = state.numHeads === 1;
    kind.value = state.headKinds[state.head] ?? 'projected';
    offset.value = String(state.offset);
    offset.disabled = kind.value !== 'offset';
    projection.value = state.projection;
    seed.value = String(state.seed);
    seed.disabled = state.projection !== 'random';
    mask.value = state.mask;
    validLength.value = String(state.validLength);
    validLength.disabled = state.mask !== 'padding';
    validLength.parentElement.classList.toggle('inactive', state.mask !== 'padding');  // only beside a padding mask
    temperature.value = String(state.temperature);
    temperatureOut.value = Number(state.temperature).toFixed(2);
    scoreFunction.value = state.scoreFunction;
    additiveHidden.value = String(state.additiveHidden);
    additiveHidden.disabled = state.scoreFunction !== 'additive';
    positional.value = state.positionalEncoding;
    colorMap.value = state.colorMap;
    normalizer.value = state.normalizer;
  };
  return { form, read, sync };
}

/**
 * Controls of the line view: which heads to draw and the weight threshold.
 * @returns {{ form: HTMLFormElement, read: () => object, sync: (state: object) => void }}
 */
export function buildLineControls() {
  const form = document.createElement('form');
  form.className = 'controls line-controls';
  form.setAttribute('aria-label', 'Line view settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  const threshold = field(form, 'Hide weights below', input('lineThreshold', { type: 'range', min: 0, max: 0.5, step: 0.01 }));
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
    threshold.value = String(state.lineThreshold);
    thresholdOut.value = state.lineThreshold.toFixed(2);
    const boxes = heads.querySelectorAll('input');
    if (boxes.length !== state.numHeads) {
      heads.replaceChildren(heads.querySelector('legend'), ...Array.from({ length: state.numHeads }, (_, h) => {
        const label = document.createElement('label');
        const box = label.appendChild(input('lineHead', { type: 'checkbox', value: String(h) }));
        box.dataset.head = String(h);
        label.append(` ${h + 1}`);
        return label;
      }));
    }
    for (const box of heads.querySelectorAll('input')) box.checked = state.lineHeads.includes(Number(box.value));
  };
  return { form, read, sync };
}
