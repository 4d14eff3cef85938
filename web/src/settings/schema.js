// The state schema's form: one entry per setting of the explorer's state, defined once, as TensorFlow
// Playground's src/state.ts defines its state as a table of properties (name, type) from which its URL
// is serialized. Ours adds the default, the allowed range or names (the core's limits, read when checked),
// the element's attribute, the URL key, and whether a trained model fixes the setting. The table itself is
// settings/state.js (the settings every chapter reads) plus each chapter's slice
// (lessons/<chapter>/chapter.js `settings`), put together by lessons/chapters.js (STATE_SCHEMA). From it
// come the defaults (here), the value checks of el.change() (here), the attribute parsers (here), the
// URL syntax (explorer/url-state.js) and the settings form (explorer/settings-form.js, from each setting's
// `control`); tests/js/state-schema.test.js checks the .d.ts's ExplorerState against it.
import { integerIn, numberIn, oneOf } from './attribute-values.js';
import { decodeHeads, isHead } from './head.js';

/**
 * One setting.
 * @typedef {object} Setting
 * @property {string} name  the state's field, and its URL key unless `url` says otherwise
 * @property {'text' | 'boolean' | 'integer' | 'number' | 'name' | 'head' | 'texts' | 'integers' | 'numbers' | 'names' | 'heads'} type
 *   a plural type is a list of the singular one's values; a head is { layer, head } (settings/head.js); a list of
 *   heads lists each head once, and is written "layer,head;layer,head" in the URL and its attribute
 * @property {unknown} default  the value before anything sets it (a list is copied for each state)
 * @property {() => [number, number]} [range]  inclusive bounds of a number (of each item of a list), from the
 *   core's limits: a function, as the limits are known only once the core has loaded
 * @property {boolean} [aboveMin]  the lower bound itself is not allowed (the range is (min, max])
 * @property {() => readonly string[]} [names]  the names a name (each item of a list of names) may be: the
 *   core's name lists (settings/limits.js names()), or the page's own
 * @property {boolean} [nullable]  null is a value too (what it means is said where the setting is defined)
 * @property {boolean} [emptyItems]  a list of names whose items may be missing (undefined or null)
 * @property {number} [length]  a list of exactly this many items
 * @property {string} [attribute]  the element's attribute that sets it; several settings can share one (heads)
 * @property {string} [url]  its key in the URL hash, when not its name
 * @property {boolean} [fixed]  a trained model fixes it (its value is the model's, not the learner's)
 * @property {Control} [control]  its control in the explorer's settings form, which is built, read and synced from
 *   these descriptions alone (explorer/settings-form.js); a setting without one has no control there
 */

/**
 * A setting's control in the explorer's settings form. Its bounds are the setting's `range`, its choices the setting's
 * `names` (or `values`): the core's limits, never written twice.
 * @typedef {object} Control
 * @property {string} label  the text of its label
 * @property {'select' | 'range' | 'number'} widget  a select of the setting's choices; a slider (its value shown in an
 *   <output> beside it) or a whole-number field, over the setting's range (a number field's text is clamped to it)
 * @property {'view' | 'more'} place  in view (the few settings every chapter reads) or folded under "More settings"
 * @property {number} order  its position among the controls of its place, from 1: the form's order is the learner's,
 *   while the schema's is the order of the attributes and the URL
 * @property {string} [name]  the control's `name`, when not the setting's: the control of a list (headKinds) is named
 *   after the item it shows and edits, the selected designed head's
 * @property {(state: object) => string | number} [shown]  the value the control shows, when not the setting's value
 *   (an item of a list, the designed head selected)
 * @property {(context: { dModel: number }) => number[]} [values]  a select's choices, when the setting has no names,
 *   before the setting's range filters them; a select of the designed heads (type 'head') lists them instead
 * @property {(value: string | number, context: { dModel: number }) => string} [optionLabel]  an option's text, when
 *   not the value itself
 * @property {number} [step]  a slider's step (its <output> shows as many decimals)
 * @property {string} [title]  its tooltip
 * @property {(state: object) => boolean} [inapplicable]  when the setting does not apply to the state (its control is
 *   disabled)
 * @property {boolean} [hideInapplicable]  hidden too (.inactive) while it does not apply
 * @property {boolean} [designedOnly]  a trained model sets the control aside although it does not fix the setting
 */

/** What each type's values are, in the words of the messages (change()'s TypeErrors). */
const TYPE_WORDS = {
  text: 'string',
  boolean: 'boolean',
  integer: 'number',
  number: 'number',
  name: 'string',
  head: 'object',
  texts: 'list',
  integers: 'list',
  numbers: 'list',
  names: 'list',
  heads: 'list',
};

/** The list types: lists of the values of their singular type. */
const LIST_TYPES = new Set(['texts', 'integers', 'numbers', 'names', 'heads']);

/** @returns {boolean} whether `type` is a list type */
export function isList(type) {
  return LIST_TYPES.has(type);
}

/** The type of a list's items. */
export function itemType(type) {
  return type.slice(0, -1);
}

/** @param {Setting} setting @returns {string} the key of `setting` in the URL hash */
export function urlKey(setting) {
  return setting.url ?? setting.name;
}

/** @param {Setting[]} schema @returns {object} a fresh state of every setting's default (lists copied) */
export function defaultsOf(schema) {
  return Object.fromEntries(
    schema.map(({ name, default: value }) => [name, Array.isArray(value) ? [...value] : value]),
  );
}

/** The type of a value, in the words of the messages. */
function typeWord(value) {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;
}

/** Whether `value` is of the JavaScript type of `type` (a list: an array; its items are checked with the content). */
function hasType(type, value) {
  if (type === 'head') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return isList(type) ? Array.isArray(value) : typeof value === TYPE_WORDS[type];
}

/** Throws a RangeError (its message completes "name = value: …") for a single value outside the setting's rule. */
function checkItem(setting, type, value) {
  if (type === 'text') {
    if (typeof value !== 'string') throw new RangeError('must be a string');
    return;
  }
  if (type === 'boolean') {
    if (typeof value !== 'boolean') throw new RangeError('must be true or false');
    return;
  }
  if (type === 'name') {
    if (typeof value !== 'string') throw new RangeError('must be a name');
    oneOf(value, setting.names());
    return;
  }
  if (type === 'head') {
    if (!isHead(value)) throw new RangeError('must be { layer, head }, whole numbers from 0');
    return;
  }
  if (typeof value !== 'number') throw new RangeError('must be a number');
  const [min, max] = setting.range ? setting.range() : [-Infinity, Infinity];
  if (type === 'integer') {
    if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(wholeNumberRule(min, max));
    return;
  }
  if (!(setting.aboveMin ? value > min : value >= min) || !(value <= max) || !Number.isFinite(value)) {
    throw new RangeError(numberRule(setting, min, max));
  }
}

/** Throws a RangeError naming a head a list of heads holds twice (it is either on or off: once is all it means). */
function checkHeadsOnce(heads) {
  const seen = new Set();
  for (const { layer, head } of heads.filter(isHead)) {
    if (seen.has(`${layer},${head}`)) throw new RangeError(`lists layer ${layer}, head ${head} twice`);
    seen.add(`${layer},${head}`);
  }
}

function wholeNumberRule(min, max) {
  if (min === -Infinity && max === Infinity) return 'must be a whole number';
  if (max === Infinity) return `must be a whole number from ${min}`;
  return `must be a whole number from ${min} to ${max}`;
}

function numberRule(setting, min, max) {
  if (min === -Infinity && max === Infinity) return 'must be a finite number';
  const from = setting.aboveMin ? `above ${min}` : `from ${min}`;
  if (max === Infinity) return `must be a finite number ${from}`;
  return setting.aboveMin ? `must be a number ${from}, at most ${max}` : `must be a number ${from} to ${max}`;
}

/**
 * Checks a value given for a setting from JavaScript (el.change()).
 * @param {Setting} setting @param {unknown} value
 * @throws {TypeError} "name must be a number, got string": a value of another JavaScript type than the setting's
 * @throws {RangeError} "name = value: must be …": a value outside its range or names, a list item that is
 */
export function checkValue(setting, value) {
  const { name, type } = setting;
  if (type === 'head' && !hasType(type, value))
    throw new TypeError(`${name} must be { layer, head } (whole numbers from 0), got ${typeWord(value)}`);
  if (!(value === null && setting.nullable) && !hasType(type, value)) {
    const expected = setting.nullable ? `${TYPE_WORDS[type]} or null` : TYPE_WORDS[type];
    throw new TypeError(`${name} must be a ${expected}, got ${typeWord(value)}`);
  }
  if (value === null) return;
  try {
    if (!isList(type)) {
      checkItem(setting, type, value);
      return;
    }
    if (setting.length !== undefined && value.length !== setting.length)
      throw new RangeError(`must be a list of ${setting.length}`);
    if (type === 'heads') checkHeadsOnce(value);
    for (const item of value) {
      if (setting.emptyItems && (item === undefined || item === null)) continue;
      checkItem(setting, itemType(type), item);
    }
  } catch (error) {
    const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
    throw new RangeError(`${name} = ${shown}: ${error.message}`, { cause: error });
  }
}

/**
 * The value an attribute's text gives a setting of one value (a text, a name or a number: the types an attribute
 * sets, and a list of heads; a setting whose attribute has a syntax of its own, like `heads`, is parsed where that syntax is).
 * @param {Setting} setting @param {string} text
 * @returns {unknown} the value
 * @throws {RangeError} naming what is allowed (the message completes `attribute="text": …`)
 */
export function parseAttribute(setting, text) {
  const { type } = setting;
  if (type === 'text') return text;
  if (type === 'name') return oneOf(text, setting.names());
  const [min, max] = setting.range ? setting.range() : [-Infinity, Infinity];
  if (type === 'integer') return integerIn(text, min, max);
  if (type === 'heads') {
    const heads = decodeHeads(text);
    if (!heads) throw new RangeError('must be heads as layer,head from 0, separated by ";" (e.g. 0,1;1,3)');
    checkHeadsOnce(heads);
    return heads;
  }
  if (type === 'number') {
    const value = numberIn(text, min, max);
    checkItem(setting, type, value); // the range's open end, if it has one
    return value;
  }
  throw new Error(`The attribute ${setting.attribute} sets a ${type}: it needs a parser of its own.`);
}
