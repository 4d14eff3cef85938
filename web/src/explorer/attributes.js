// The element's attributes: how a course author presets an explorer in a page, and the tag that
// reproduces the current view ("copy embed code"). Pure: strings in, state changes and strings out.
// Which attribute sets which setting, and how its text is checked, come from the state schema
// (lessons/chapters.js STATE_SCHEMA, settings/schema.js); two attributes have a syntax of their own
// (OWN_SYNTAX: heads, tour). change() checks a value with the same schema.
import { CHAPTERS, SETTINGS, STATE_SCHEMA, defaultState, withChange } from '../lessons/chapters.js';
import { oneOf } from '../settings/attribute-values.js';
import { names } from '../settings/limits.js';
import { checkValue, parseAttribute } from '../settings/schema.js';
import { headCounts } from '../settings/state.js';
import { tourStepId } from './tour-steps.js';
import { stateFromHash, stateToHash } from './url-state.js';

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

/** Values of the `theme` attribute: 'auto' (the default) follows the OS setting. */
export const THEMES = ['auto', 'light', 'dark'];

/**
 * Attributes whose text is not a value of their setting: (text, d_model) → state change (throws on bad text).
 * `heads` sets numHeads and headKinds at once, a count or the kinds, the count dividing d_model; `tour` also takes a
 * step number from 1.
 */
const OWN_SYNTAX = {
  heads: (text, dModel) => parseHeads(text, headCounts(dModel)),
  tour: (text) => ({ tour: tourStepId(text) }),
};

/** The settings each attribute of the schema sets, in the schema's order (the order errors are named in). */
export const ATTRIBUTE_SETTINGS = STATE_SCHEMA.reduce((map, setting) => {
  if (setting.attribute) map.set(setting.attribute, [...(map.get(setting.attribute) ?? []), setting]);
  return map;
}, new Map());

/** An attribute that sets one setting, with the schema's parser: text → state change. */
function schemaSyntax(attribute) {
  const settings = ATTRIBUTE_SETTINGS.get(attribute);
  if (settings.length !== 1)
    throw new Error(`The attribute ${attribute} sets several settings: it needs a syntax of its own.`);
  const [setting] = settings;
  return (text) => ({ [setting.name]: parseAttribute(setting, text) });
}

/** Attributes that configure the state, each with its parser: (text, d_model) → state change (throws on bad text). */
const STATE_ATTRIBUTES = {
  ...Object.fromEntries(
    [...ATTRIBUTE_SETTINGS.keys()].map((attribute) => [attribute, OWN_SYNTAX[attribute] ?? schemaSyntax(attribute)]),
  ),
  state: (text) => stateFromHash(text),
};

/** The element's attributes that are not settings of the state: which figures and controls show, and how. */
export const VIEW_ATTRIBUTES = [
  'views',
  'controls',
  'height',
  'readonly',
  'url-state',
  'assets-base',
  'models-base',
  'theme',
  'autoplay',
];

/** Every attribute the element observes. */
export const OBSERVED_ATTRIBUTES = [...Object.keys(STATE_ATTRIBUTES), ...VIEW_ATTRIBUTES];

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
 * Checks a change given to the element from JavaScript (el.change(), the property setters) with the state
 * schema, as the attributes are checked: each value against its setting's type, range or names (the core's
 * limits); the heads as the `heads` attribute reads them (the count dividing d_model); the tour's step ids.
 * @param {object} partial  the change @param {object} state  the state it applies to @param {number} dModel
 * @throws {TypeError} a change that is not an object, or a value of another type than its setting's
 * @throws {RangeError} an unknown field, or a value outside its setting's range or names; the message names the field
 */
export function checkChange(partial, state, dModel) {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new TypeError(
      `change() takes an object of settings such as { temperature: 0.5 }, got ${partial === null ? 'null' : typeof partial}`,
    );
  }
  for (const [key, value] of Object.entries(partial)) {
    const setting = SETTINGS.get(key);
    if (!setting) throw new RangeError(`unknown setting '${key}' (known: ${[...SETTINGS.keys()].join(', ')})`);
    // The selected head may also be given as a designed head's number, as before it was one field (withBaseChange).
    if (key === 'head' && Number.isInteger(value) && value >= 0) continue;
    checkValue(setting, value);
    // An attribute's own syntax may allow less than the type (the tour's step ids); the heads are checked together
    // below.
    if (setting.attribute === 'tour') {
      try {
        OWN_SYNTAX.tour(value, dModel);
      } catch (error) {
        throw new RangeError(`${key} = ${JSON.stringify(value)}: ${error.message}`, { cause: error });
      }
    }
  }
  if ('numHeads' in partial || 'headKinds' in partial) {
    const next = { ...state, ...partial };
    try {
      OWN_SYNTAX.heads(
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

/** The named attributes' text for a state, in the schema's order. */
function namedAttributes(state) {
  return Object.fromEntries(
    [...ATTRIBUTE_SETTINGS].map(([attribute, [setting]]) => [
      attribute,
      attribute === 'heads' ? headsText(state) : String(state[setting.name]),
    ]),
  );
}

function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The snippet that reproduces `state` when pasted into any page: what defines the element (moduleLoader: the script
 * tag of its bundle `moduleUrl`, or the package's import where an app bundled it), then, on the last line, the tag
 * with the named attributes for what differs from the defaults, and `state="…"` (the URL-hash syntax) for the rest.
 * @param {object} state @param {number} dModel  the core's d_model @param {string} moduleUrl  the element's module
 * @param {{ [attribute: string]: string | null }} [extra]  attributes to copy as they are (EMBEDDED_VIEW_ATTRIBUTES);
 *   null: absent, '': a boolean attribute that is present
 * @returns {string} the loader, then `<attention-explorer …></attention-explorer>` on the last line
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
  // A boolean attribute (autoplay, readonly) is written bare.
  const text = attributes.map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`));
  return `${moduleLoader(moduleUrl)}\n<attention-explorer${text.join('')}></attention-explorer>`;
}

/** The element's attributes an embed code keeps as they are (besides the state's): all but url-state, which binds a page's URL. */
export const EMBEDDED_VIEW_ATTRIBUTES = VIEW_ATTRIBUTES.filter((name) => name !== 'url-state');

/**
 * What defines <attention-explorer> where the snippet is pasted: a script tag of the element's own bundle (its file,
 * attention-explorer.js, in dist/element/ or dist/single/), or — where an app's bundler took the element from
 * node_modules into a bundle of the app's own (whose hashed name would load the whole app) — the package's specifier,
 * to import in the app's code.
 */
function moduleLoader(moduleUrl) {
  // webpack writes the build machine's file:///…/node_modules/… path in place of import.meta.url; Vite's dev server
  // serves /node_modules/.vite/deps/…: either way the app took the element from the package.
  const { pathname } = new URL(moduleUrl);
  if (pathname.endsWith('/attention-explorer.js') && !pathname.includes('/node_modules/'))
    return `<script type="module" src="${escapeAttribute(moduleUrl)}"></script>`;
  return [
    '<script type="module">',
    "  // The page's app bundles attention-explorer (npm): import it once in the app's code (a Vite page may keep this).",
    "  import 'attention-explorer/element';",
    '</script>',
  ].join('\n');
}
