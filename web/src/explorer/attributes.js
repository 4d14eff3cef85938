// The element's attributes: how a course author presets an explorer in a page, and the tag that
// reproduces the current view ("copy embed code"). Pure: strings in, state changes and strings out.
import { WEIGHT_COLOR_MAPS } from '../views/colors.js';
import { CHAPTERS, defaultState, withChange } from '../lessons/chapters.js';
import { integerIn, numberIn, oneOf } from '../settings/attribute-values.js';
import { coreLimits, names } from '../settings/limits.js';
import { headCounts } from '../settings/state.js';
import { asHead } from '../settings/head.js';
import { tourStepId } from './tour-steps.js';
import { parsesAs, stateFromHash, stateToHash } from './url-state.js';

/** Figures (groups of figures) the `views` attribute can list, in page order: the tokens, then each chapter's. */
export const VIEWS = ['tokens', ...CHAPTERS.flatMap((chapter) => chapter.views)];
/** Controls the `controls` attribute can list ('none' shows none; absent shows all). */
export const CONTROLS = [
  'sentence',
  'model',
  'heads',
  'projection',
  'mask',
  'temperature',
  'score-function',
  'normalizer',
  'positional-encoding',
  'color-map',
  'share',
  'figures',
];
const MASKS = ['bidirectional', 'causal', 'padding'];

/** Values of the `theme` attribute: 'auto' (the default) follows the OS setting. */
export const THEMES = ['auto', 'light', 'dark'];

/**
 * Attributes that set one field of the state: attribute → [field, parse(text) → value] (throws on bad text). Name
 * lists and ranges are the core's (core.limits, read through settings/limits.js). Chapters add their own (`attributes`).
 */
const FIELD_ATTRIBUTES = {
  sentence: ['sentence', (text) => text],
  model: ['model', (text) => oneOf(text, names('models'))],
  projection: ['projection', (text) => oneOf(text, names('projections'))],
  seed: ['seed', (text) => integerIn(text, 0, coreLimits().maxSeed)],
  mask: ['mask', (text) => oneOf(text, MASKS)],
  'valid-length': ['validLength', (text) => integerIn(text, 0, coreLimits().maxTokens)],
  'positional-encoding': ['positionalEncoding', (text) => oneOf(text, names('positionalEncodings'))],
  temperature: [
    'temperature',
    (text) => numberIn(text, coreLimits().minExplorerTemperature, coreLimits().maxExplorerTemperature),
  ],
  normalizer: ['normalizer', (text) => oneOf(text, names('normalizers'))],
  'score-function': ['scoreFunction', (text) => oneOf(text, names('scoreFunctions'))],
  'color-map': ['colorMap', (text) => oneOf(text, WEIGHT_COLOR_MAPS)],
  tour: ['tour', (text) => tourStepId(text)],
  ...Object.assign({}, ...CHAPTERS.map((chapter) => chapter.attributes ?? {})),
};

/** The attribute that sets each field (change() checks a field with its attribute's parser). */
const ATTRIBUTE_OF_FIELD = Object.fromEntries(
  Object.entries(FIELD_ATTRIBUTES).map(([attribute, [field]]) => [field, attribute]),
);

/** Attributes that configure the state, each with its parser: (text, d_model) → state change (throws on bad text). */
const STATE_ATTRIBUTES = {
  sentence: null, // its place in the order (the order the errors are named in): first, then the heads
  heads: (text, dModel) => parseHeads(text, headCounts(dModel)),
  ...Object.fromEntries(
    Object.entries(FIELD_ATTRIBUTES).map(([attribute, [field, parse]]) => [
      attribute,
      (text) => ({ [field]: parse(text) }),
    ]),
  ),
  state: (text) => stateFromHash(text, defaultState()),
};

/** Every attribute the element observes. */
export const OBSERVED_ATTRIBUTES = [
  ...Object.keys(STATE_ATTRIBUTES),
  'views',
  'controls',
  'height',
  'readonly',
  'url-state',
  'assets-base',
  'theme',
  'autoplay',
];

/** `heads="4"`: four projected heads; `heads="previous,semantic"`: one head of each kind. */
function parseHeads(text, counts) {
  const kinds = /^\s*\d+\s*$/.test(text) ? null : text.split(',').map((kind) => kind.trim());
  for (const kind of kinds ?? []) oneOf(kind, names('headKinds'));
  const numHeads = kinds ? kinds.length : Number(text);
  if (!counts.includes(numHeads)) {
    throw new RangeError(`the number of heads must divide d_model = ${counts.at(-1)}: one of ${counts.join(', ')}`);
  }
  return { numHeads, headKinds: kinds ?? [] };
}

/** A list attribute: its items (each one of `allowed`), or all of `allowed` when absent. */
function listOf(text, allowed, errors, name) {
  if (text === null) return new Set(allowed);
  if (text.trim() === 'none') return new Set();
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item));
  if (unknown.length) errors.push(`${name}="${text}": unknown ${unknown.join(', ')} (known: ${allowed.join(', ')})`);
  return new Set(items.filter((item) => allowed.includes(item)));
}

/**
 * Reads the attributes.
 * @param {(name: string) => string | null} get  the element's getAttribute
 * @param {number} dModel  the core's d_model (the head count must divide it)
 * @returns {{ change: object, views: Set<string>, controls: Set<string>, theme: string, errors: string[] }} change: the state
 *   entries the attributes set (a bad attribute sets nothing and adds a message to errors); theme: one of THEMES
 */
export function readAttributes(get, dModel) {
  const errors = [];
  let change = {};
  for (const [name, parse] of Object.entries(STATE_ATTRIBUTES)) {
    const text = get(name);
    if (text === null) continue;
    try {
      change = { ...change, ...parse(text, dModel) };
    } catch (error) {
      errors.push(`${name}="${text}": ${error.message}`);
    }
  }
  let theme = 'auto';
  const themeText = get('theme');
  if (themeText !== null) {
    try {
      theme = oneOf(themeText.trim(), THEMES);
    } catch (error) {
      errors.push(`theme="${themeText}": ${error.message}`);
    }
  }
  return {
    change,
    views: listOf(get('views'), VIEWS, errors, 'views'),
    controls: listOf(get('controls'), CONTROLS, errors, 'controls'),
    theme,
    errors,
  };
}

/**
 * Checks a change given to the element from JavaScript (el.change(), the property setters) exactly as the
 * attributes are checked: each field a named attribute sets goes through that attribute's parser (its
 * value written as the attribute's text), the heads through the `heads` parser, and every other field must
 * read back from the URL syntax as its default's type (the `state` attribute's rule).
 * @param {object} partial  the change @param {object} state  the state it applies to @param {number} dModel
 * @throws {TypeError} a change that is not an object, or a value of another type than the field's default
 * @throws {RangeError} an unknown field, or a value its attribute would refuse; the message names the field
 */
export function checkChange(partial, state, dModel) {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new TypeError(
      `change() takes an object of settings such as { temperature: 0.5 }, got ${partial === null ? 'null' : typeof partial}`,
    );
  }
  const defaults = defaultState();
  for (const [key, value] of Object.entries(partial)) {
    if (!(key in defaults))
      throw new RangeError(`unknown setting '${key}' (known: ${Object.keys(defaults).join(', ')})`);
    // The selected head: { layer, head }, or the number of a designed head (as before it was one field).
    if (key === 'head') {
      if (asHead(value)) continue;
      throw new TypeError(`head must be { layer, head } (whole numbers from 0), got ${JSON.stringify(value)}`);
    }
    const template = defaults[key];
    const expected = Array.isArray(template) ? 'list' : template === null ? 'number or null' : typeof template;
    const fits = Array.isArray(template)
      ? Array.isArray(value)
      : template === null
        ? value === null || typeof value === 'number'
        : typeof value === typeof template;
    if (!fits)
      throw new TypeError(
        `${key} must be a ${expected}, got ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}`,
      );
    const attribute = ATTRIBUTE_OF_FIELD[key];
    try {
      if (attribute) STATE_ATTRIBUTES[attribute](String(value), dModel);
      else if (key !== 'numHeads' && key !== 'headKinds' && !parsesAs(value, defaults[key], key)) {
        throw new RangeError(
          `must be ${Array.isArray(defaults[key]) ? 'a list' : defaults[key] === null ? 'a number or null' : `a ${typeof defaults[key]}`} as in the default ${JSON.stringify(defaults[key])}`,
        );
      }
    } catch (error) {
      throw new RangeError(
        `${key} = ${typeof value === 'number' ? String(value) : JSON.stringify(value)}: ${error.message}`,
        { cause: error },
      );
    }
  }
  if ('numHeads' in partial || 'headKinds' in partial) {
    const next = { ...state, ...partial };
    if (!Array.isArray(next.headKinds)) throw new TypeError('headKinds must be a list of head kinds');
    try {
      STATE_ATTRIBUTES.heads(
        headsText({ numHeads: next.numHeads, headKinds: next.headKinds.map((kind) => kind ?? undefined) }),
        dModel,
      );
    } catch (error) {
      throw new RangeError(
        `numHeads = ${next.numHeads}, headKinds = ${JSON.stringify(next.headKinds)}: ${error.message}`,
        { cause: error },
      );
    }
  }
}

/** Each head's kind (an unset one is 'projected'). */
function kindsOf({ numHeads, headKinds }) {
  return Array.from({ length: numHeads }, (_, h) => headKinds[h] ?? 'projected');
}

/** The heads attribute for a state: a count, or the kinds when any head is designed. */
function headsText(state) {
  const kinds = kindsOf(state);
  return kinds.every((kind) => kind === 'projected') ? String(state.numHeads) : kinds.join(',');
}

/** The named attributes' text for a state. */
function namedAttributes(state) {
  return {
    sentence: state.sentence,
    heads: headsText(state),
    ...Object.fromEntries(
      Object.entries(FIELD_ATTRIBUTES).map(([attribute, [field]]) => [attribute, String(state[field])]),
    ),
  };
}

function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The snippet that reproduces `state` when pasted into any page: the script tag of the element's module
 * (`moduleUrl`), then the tag with the named attributes for what differs from the defaults, and
 * `state="…"` (the URL-hash syntax) for the rest.
 * @param {object} state @param {number} dModel  the core's d_model @param {string} moduleUrl  the element's module
 * @param {{ views?: string | null, controls?: string | null }} [extra]  attributes to copy as they are
 * @returns {string} `<script type="module" src="…"></script>` and `<attention-explorer …></attention-explorer>`, a line each
 */
export function embedCode(state, dModel, moduleUrl, extra = {}) {
  const defaults = defaultState();
  const usual = namedAttributes(defaults);
  const attributes = Object.entries(namedAttributes(state)).filter(([name, value]) => value !== usual[name]);
  // Everything else that differs from the defaults is written in the hash syntax.
  const given = attributes.reduce(
    (sum, [name, value]) => withChange(sum, STATE_ATTRIBUTES[name](value, dModel)),
    defaults,
  );
  const rest = stateToHash({ ...state, headKinds: kindsOf(state) }, { ...given, headKinds: kindsOf(given) });
  if (rest) attributes.push(['state', rest]);
  for (const [name, value] of Object.entries(extra))
    if (value !== null && value !== undefined) attributes.push([name, value]);
  const text = attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  return `<script type="module" src="${escapeAttribute(moduleUrl)}"></script>\n<attention-explorer${text}></attention-explorer>`;
}
