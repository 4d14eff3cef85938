// The explorer's settings form: the model settings every chapter reads, whose values are read back
// into the state on every change. A chapter's own settings are its own controls (lessons/<chapter>/).
import { ADDITIVE_HIDDEN_SIZES, BASE_SETTINGS, headCounts } from '../settings/state.js';
import { designedHead } from '../settings/head.js';
import { DESIGNED, coreLimits, labelled } from '../settings/limits.js';
import { WEIGHT_COLOR_MAPS } from '../views/colors.js';
import { clampInteger, field, input, select } from '../views/form-controls.js';

/** The settings a trained model fixes (the state schema's `fixed`). */
const FIXED = new Set(BASE_SETTINGS.filter((setting) => setting.fixed).map((setting) => setting.name));

/**
 * Controls a trained model sets aside although their setting is not fixed: the selected head is every model's, but this
 * select lists the designed heads (a trained head is chosen in its own figures).
 */
const DESIGNED_ONLY = new Set(['head']);

/** The setting of a control not named after it: the selected head's kind is an item of headKinds. */
const FIELD_OF_CONTROL = { headKind: 'headKinds' };

/**
 * Builds the controls for a core with `dModel`-wide vectors and at most `maxTokens` tokens; name lists
 * and ranges come from core.limits (settings/limits.js).
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
  const numHeads = field(
    form,
    'Heads',
    select(
      'numHeads',
      headCounts(dModel).map((h) => [h, `${h} (d_v = ${dModel / h})`]),
    ),
  );
  numHeads.title =
    "Each head's values are d_model / heads wide (d_v). A projected head's queries and keys too (d_k = d_v); " +
    'a designed head uses its own d_k, shown beside it.';
  const limits = coreLimits();
  const kind = field(form, 'Selected head is', select('headKind', labelled('headKinds')));
  const mask = field(
    form,
    'Mask',
    select('mask', [
      ['bidirectional', 'bidirectional (BERT)'],
      ['causal', 'causal (GPT)'],
      ['padding', 'padding (valid length)'],
    ]),
  );
  const validLength = field(
    form,
    'Valid length',
    input('validLength', { type: 'number', min: 0, max: maxTokens, step: 1 }),
  );
  const temperature = field(
    form,
    'Temperature τ',
    input('temperature', {
      type: 'range',
      min: limits.minExplorerTemperature,
      max: limits.maxExplorerTemperature,
      step: 0.05,
    }),
  );
  const temperatureOut = temperature.parentElement.appendChild(document.createElement('output'));
  temperatureOut.className = 'hint';
  const positional = field(form, 'Position information', select('positionalEncoding', labelled('positionalEncodings')));
  const details = form.appendChild(document.createElement('details'));
  details.className = 'more-settings';
  const summary = details.appendChild(document.createElement('summary'));
  summary.textContent = 'More settings';
  const more = details.appendChild(document.createElement('div'));
  more.className = 'more-controls';
  const head = field(more, 'Selected head', select('head', []));
  const offset = field(more, 'δ', input('offset', { type: 'number', min: -16, max: 16, step: 1 }));
  const projection = field(more, 'Projections W_Q, W_K, W_V, W_O', select('projection', labelled('projections')));
  const seed = field(more, 'Seed', input('seed', { type: 'number', min: 0, max: limits.maxSeed, step: 1 }));
  const scoreFunction = field(more, 'Score function', select('scoreFunction', labelled('scoreFunctions')));
  const additiveHidden = field(
    more,
    'Additive hidden units',
    select(
      'additiveHidden',
      ADDITIVE_HIDDEN_SIZES.filter((h) => h <= limits.maxAdditiveHidden).map((h) => [h, String(h)]),
    ),
  );
  const normalizer = field(more, 'Normalizer', select('normalizer', labelled('normalizers')));
  const colorMap = field(
    more,
    'Colour map',
    select(
      'colorMap',
      WEIGHT_COLOR_MAPS.map((name) => [name, name]),
    ),
  );

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
      head: { layer: 0, head: h }, // a designed head: the one layer's
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

  // A trained model fixes what it was trained with (the state schema's `fixed` settings): these settings show the
  // designed heads' values, disabled, and say why.
  const controls = [
    numHeads,
    kind,
    head,
    offset,
    mask,
    validLength,
    temperature,
    positional,
    projection,
    seed,
    scoreFunction,
    additiveHidden,
    normalizer,
    colorMap,
  ];
  const fixable = controls.filter(
    (control) => FIXED.has(FIELD_OF_CONTROL[control.name] ?? control.name) || DESIGNED_ONLY.has(control.name),
  );
  for (const control of fixable) control.closest('.control').classList.add('fixable');
  // With the settings it fixes gone, the rest fold under one line that says why (the figures come first, even on a phone).
  const fixedNote = more.insertBefore(document.createElement('p'), more.firstChild);
  fixedNote.className = 'hint fixed-note';

  const sync = (state) => {
    headKinds = state.headKinds;
    numHeads.value = String(state.numHeads);
    if (head.options.length !== state.numHeads) {
      head.replaceChildren(...Array.from({ length: state.numHeads }, (_, h) => new Option(`head ${h + 1}`, String(h))));
    }
    // The designed heads' select shows theirs; a trained model's head (of another layer) is its own figures'.
    const designed = designedHead(state.head, state.numHeads);
    head.value = String(designed);
    kind.value = state.headKinds[designed] ?? 'projected';
    offset.value = String(state.offset);
    projection.value = state.projection;
    seed.value = String(state.seed);
    mask.value = state.mask;
    validLength.value = String(state.validLength);
    validLength.parentElement.classList.toggle('inactive', state.mask !== 'padding'); // only beside a padding mask
    temperature.value = String(state.temperature);
    temperatureOut.value = Number(state.temperature).toFixed(2);
    scoreFunction.value = state.scoreFunction;
    additiveHidden.value = String(state.additiveHidden);
    positional.value = state.positionalEncoding;
    colorMap.value = state.colorMap;
    normalizer.value = state.normalizer;
    const fixed = state.model !== DESIGNED;
    fixedNote.hidden = !fixed;
    // What the model was trained with, in place of the settings it fixes (its figures give its sizes).
    const name = labelled('models').find(([model]) => model === state.model)?.[1];
    summary.textContent = fixed ? `Settings: fixed by the ${name}` : 'More settings';
    if (fixed) {
      fixedNote.textContent =
        `The ${name} was trained with its own heads and ` +
        `projections, a ${state.model === 'causal' ? 'causal' : 'bidirectional'} mask, sinusoidal position information and softmax of ` +
        'scaled dot products, so those settings are fixed (its figures give its sizes). Choose “designed heads” to change them.';
    }
    // Each control's own rule (a setting that does not apply is disabled), unless the model fixes them all.
    const own = {
      head: state.numHeads === 1,
      offset: kind.value !== 'offset',
      seed: state.projection !== 'random',
      validLength: state.mask !== 'padding',
      additiveHidden: state.scoreFunction !== 'additive',
    };
    for (const control of fixable) control.disabled = fixed || (own[control.name] ?? false);
    form.classList.toggle('fixed-by-model', fixed);
  };
  return { form, read, sync };
}
