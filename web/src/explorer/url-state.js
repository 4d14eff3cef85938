// The explorer's state in the URL hash (#sentence=…&numHeads=4&…), so a view can be shared as a link. Each
// setting's key and the syntax of its value come from the state schema (lessons/chapters.js STATE_SCHEMA,
// settings/schema.js), as TensorFlow Playground serializes its URL from its state's property table (src/state.ts).
// Only what differs from the defaults is written, so links stay short; reading keeps only known keys whose values
// parse as their setting's type (anything else in a hand-edited link is ignored). A value of the right type but
// out of range is kept: the core (or the figure) that uses it says what is wrong, as it does today for numHeads=3.
import { STATE_SCHEMA } from '../lessons/chapters.js';
import { decodeHead, decodeHeads, encodeHead, encodeHeads, firstHead, isHead, oldLinkHead } from '../settings/head.js';
import { isList, itemType, urlKey } from '../settings/schema.js';

/** Each setting by its URL key. */
const BY_KEY = new Map(STATE_SCHEMA.map((setting) => [urlKey(setting), setting]));

/** What decodeItem returns for text that is not a value of the type. */
const INVALID = Symbol('invalid');

/** Text of one value: lists as comma-separated items (',' and '%' inside an item written %2C, %25), null as ''. */
function encode(value) {
  if (value === null) return '';
  if (isHead(value)) return encodeHead(value);
  if (Array.isArray(value) && value.length > 0 && value.every(isHead)) return encodeHeads(value); // 0,1;1,3
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

/** An item of a list (the inverse of encode's escaping). */
function unescapeItem(item) {
  return item.replace(/%(2C|25)/gi, (_, code) => (code === '25' ? '%' : ','));
}

/** One value of a type that is not a list; INVALID when the text is not one. */
function decodeItem(text, type, setting) {
  switch (type) {
    case 'text':
    case 'name': // a name is kept as written: whatever uses it names the allowed ones
      return setting.emptyItems && text === '' ? undefined : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : INVALID;
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : INVALID;
    case 'head':
      return decodeHead(text) ?? INVALID;
    case 'number': {
      const number = Number(text);
      return text.trim() !== '' && Number.isFinite(number) ? number : INVALID;
    }
    default:
      throw new Error(`The state schema has no URL syntax for the type ${type}.`);
  }
}

/** Parses `text` as a value of `setting`; INVALID when it does not parse. */
function decode(text, setting) {
  if (setting.nullable && text === '') return null;
  if (setting.type === 'heads') return decodeHeads(text) ?? INVALID; // knockout=0,1;1,3
  if (!isList(setting.type)) return decodeItem(text, setting.type, setting);
  const items = text === '' ? [] : text.split(',').map(unescapeItem);
  const values = items.map((item) => decodeItem(item, itemType(setting.type), setting));
  return values.includes(INVALID) ? INVALID : values;
}

/**
 * @returns {string} the hash (without '#') for `state`, relative to `defaults`: each setting that differs, by its URL
 *   key
 */
export function stateToHash(state, defaults) {
  const params = new URLSearchParams();
  for (const setting of STATE_SCHEMA) {
    const { name } = setting;
    // The head is written when it is not the model's first: choosing a model starts there (settings/state.js).
    const reference = name === 'head' && 'model' in state ? firstHead(state.model) : defaults[name];
    if (name in state && encode(state[name]) !== encode(reference)) params.set(urlKey(setting), encode(state[name]));
  }
  return params.toString();
}

/**
 * @param {string} hash  @param {{ model?: string }} [defaults]  the element's defaults (the model a link without
 *   `model=` shows, for an old link's head)
 * @returns {object} the state entries a hash sets (known keys with values of their setting's type)
 */
export function stateFromHash(hash, defaults) {
  const change = {};
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, text] of params) {
    const setting = BY_KEY.get(key);
    if (!setting) continue;
    const value = decode(text, setting);
    if (value !== INVALID) change[setting.name] = value;
  }
  // A link from before the head was one field (head=2, trainedHead=5) opens at the head it showed.
  const old = oldLinkHead(params, change.model ?? defaults?.model ?? 'designed');
  if (old) change.head = old;
  return change;
}
