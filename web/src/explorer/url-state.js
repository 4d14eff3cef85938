// The explorer's state in the URL hash (#sentence=…&numHeads=4&…), so a view can be shared as a link.
// Only what differs from the defaults is written, so links stay short; reading keeps only known keys
// whose values parse as the default's type (anything else in a hand-edited link is ignored).
import { decodeHead, encodeHead, firstHead, isHead, oldLinkHead } from '../settings/head.js';

/** Text of one value: lists as comma-separated items (',' and '%' inside an item written %2C, %25), null as ''. */
function encode(value) {
  if (value === null) return '';
  if (isHead(value)) return encodeHead(value);
  return Array.isArray(value)
    ? value
        .map((item) =>
          String(item ?? '')
            .replace(/%/g, '%25')
            .replace(/,/g, '%2C'),
        )
        .join(',')
    : String(value);
}

/** An item of a list of free text (the inverse of encode's escaping). */
function unescapeItem(item) {
  return item.replace(/%(2C|25)/gi, (_, code) => (code === '25' ? '%' : ','));
}

/** Lists of free text (the lookup's table): their items stay strings, even empty or numeric ones. */
const FREE_TEXT_LISTS = new Set(['lookupKeys', 'lookupValues']);

/** Parses `text` as the type of `template` (the default value of `key`); undefined when it does not parse. */
function decode(text, template, key) {
  if (isHead(template)) return decodeHead(text);
  if (Array.isArray(template)) {
    const items = text === '' ? [] : text.split(',');
    // Lists of real numbers (scores) when the default holds one.
    if (template.some((x) => typeof x === 'number' && !Number.isInteger(x))) {
      const numbers = items.map((item) => (item.trim() === '' ? NaN : Number(item)));
      return numbers.every(Number.isFinite) ? numbers : undefined;
    }
    // Lists of free text (the lookup's keys and values): strings, even when they look like numbers.
    if (FREE_TEXT_LISTS.has(key)) return items.map(unescapeItem);
    // Lists of integers (positions, heads) or of names (head kinds, where an empty item is unset).
    if (items.length > 0 && items.every((item) => /^-?\d+$/.test(item))) return items.map(Number);
    return items.map((item) => (item === '' ? undefined : item));
  }
  if (typeof template === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  if (typeof template === 'number' || template === null) {
    if (text === '' && template === null) return null;
    const number = Number(text);
    return text !== '' && Number.isFinite(number) ? number : undefined;
  }
  return text;
}

/** Whether `value` reads back from the URL syntax as the type of `template` (the default of `key`). */
export function parsesAs(value, template, key) {
  return decode(encode(value), template, key) !== undefined;
}

/** @returns {string} the hash (without '#') for `state`, relative to `defaults` */
export function stateToHash(state, defaults) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    // The head is written when it is not the model's first: choosing a model starts there (settings/state.js).
    const reference = key === 'head' && 'model' in state ? firstHead(state.model) : defaults[key];
    if (key in defaults && encode(value) !== encode(reference)) params.set(key, encode(value));
  }
  return params.toString();
}

/** @returns {object} the state entries a hash sets (known keys with values of the right type) */
export function stateFromHash(hash, defaults) {
  const change = {};
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, text] of params) {
    if (!(key in defaults)) continue;
    const value = decode(text, defaults[key], key);
    if (value !== undefined) change[key] = value;
  }
  // A link from before the head was one field (head=2, trainedHead=5) opens at the head it showed.
  const old = 'head' in defaults ? oldLinkHead(params, change.model ?? defaults.model) : undefined;
  if (old) change.head = old;
  return change;
}
