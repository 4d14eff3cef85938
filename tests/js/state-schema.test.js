// The state schema (web/src/settings/schema.js; STATE_SCHEMA in lessons/chapters.js) and the four places that must
// agree with it: the .d.ts's ExplorerState, the attributes the element observes, the URL hash, and el.change()'s
// checks. The checkers of the first two (state-schema-check.js) are shown failing on made-up disagreements too.
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createAttentionCore } from 'attention-explorer/core';
import {
  ATTRIBUTE_SETTINGS,
  OBSERVED_ATTRIBUTES,
  VIEW_ATTRIBUTES,
  checkChange,
  readAttributes,
} from '../../web/src/explorer/attributes.js';
import { TOUR_STEPS } from '../../web/src/explorer/tour-steps.js';
import { stateFromHash, stateToHash } from '../../web/src/explorer/url-state.js';
import { STATE_SCHEMA, defaultState } from '../../web/src/lessons/chapters.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';
import { isList, itemType, urlKey } from '../../web/src/settings/schema.js';
import { COLOR_MAPS } from '../../web/src/settings/state.js';
import { WEIGHT_COLOR_MAPS } from '../../web/src/views/colors.js';
import { attributeDisagreements, declaredFields, typeDisagreements } from './state-schema-check.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DTS = resolve(HERE, '../../web/src/explorer/attention-explorer.d.ts');
const D_MODEL = 100;

before(async () => {
  const core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
});

/** A value of `setting` other than its default, inside its range and names (the heads' count divides d_model). */
function sample(setting) {
  if (setting.name === 'numHeads') return 2;
  if (setting.name === 'tour') return TOUR_STEPS[1].id;
  const { type } = setting;
  const [min, max] = setting.range ? setting.range() : [-Infinity, Infinity];
  const numbers = [min, min + 1, max, max - 1, 1, 2, 0.5].filter(
    (x) =>
      Number.isFinite(x) &&
      (setting.aboveMin ? x > min : x >= min) &&
      x <= max &&
      (type !== 'integer' || Number.isInteger(x)),
  );
  switch (type) {
    case 'text':
      return `${setting.default}, 100% & more`;
    case 'boolean':
      return !setting.default;
    case 'name':
      return setting.names().find((name) => name !== setting.default);
    case 'integer':
    case 'number':
      return numbers.find((x) => x !== setting.default);
    case 'texts':
      return ['a, b', '100%', '', '42'];
    case 'integers':
      return numbers.filter(Number.isInteger).slice(0, 2);
    case 'numbers':
      return [0.25, -1.5, 2].slice(0, setting.length ?? 3);
    case 'names':
      return [setting.names().at(-1), ...(setting.emptyItems ? [undefined] : []), setting.names()[0]];
    case 'head':
      return { layer: 1, head: 2 };
    case 'heads':
      return [
        { layer: 1, head: 2 },
        { layer: 0, head: 0 },
      ];
  }
  throw new Error(`no sample of ${type}`);
}

/** Values outside `setting`'s range or names that change() must refuse with a RangeError. */
function outside(setting) {
  const { type } = setting;
  const single = isList(type) ? itemType(type) : type;
  const wrap = (values) => (isList(type) ? values.map((value) => [value]) : values);
  if (single === 'name') return wrap(['no-such-name']);
  if (single === 'head') {
    const bad = wrap([{ layer: -1, head: 0 }, { layer: 0, head: 1.5 }, { layer: 0 }]);
    return isList(type)
      ? [
          ...bad,
          [
            { layer: 0, head: 1 },
            { layer: 0, head: 1 },
          ],
        ]
      : bad; // a head listed twice
  }
  if (single !== 'integer' && single !== 'number') return [];
  const [min, max] = setting.range ? setting.range() : [-Infinity, Infinity];
  const values = [NaN, Infinity];
  if (Number.isFinite(min)) values.push(setting.aboveMin ? min : min - 1);
  if (Number.isFinite(max)) values.push(max + 1);
  if (single === 'integer') values.push(1.5);
  return wrap(values);
}

test('the schema names each setting and URL key once, and its defaults are its own kind of value', () => {
  const names = STATE_SCHEMA.map((setting) => setting.name);
  const keys = STATE_SCHEMA.map(urlKey);
  assert.equal(new Set(names).size, names.length, 'each setting once');
  assert.equal(new Set(keys).size, keys.length, 'each URL key once');
  const defaults = defaultState();
  assert.deepEqual(Object.keys(defaults), names);
  assert.doesNotThrow(() => checkChange(defaults, defaults, D_MODEL), 'every default passes change()');
  assert.deepEqual(
    COLOR_MAPS,
    WEIGHT_COLOR_MAPS,
    'the colour maps the schema allows are the ones views/colors.js draws',
  );
});

test("the .d.ts's ExplorerState declares every setting with the schema's type, and nothing else", () => {
  assert.deepEqual(typeDisagreements(STATE_SCHEMA, declaredFields(DTS, 'ExplorerState')), []);
});

test('the .d.ts check fails on made-up disagreements: missing and extra fields, wrong types, an index signature', () => {
  const schema = [
    { name: 'sentence', type: 'text', default: '' },
    { name: 'mask', type: 'name', default: 'causal', names: () => ['causal', 'padding'] },
    { name: 'labPositions', type: 'integer', default: null, nullable: true },
    { name: 'scores', type: 'numbers', default: [0, 0, 0], length: 3 },
    { name: 'kinds', type: 'names', default: [], names: () => ['a', 'b'], emptyItems: true },
    { name: 'compare', type: 'boolean', default: false },
  ];
  const file = resolve(HERE, '../../web/src/explorer/made-up-state.d.ts');
  const agreeing = `type Kind = 'b' | 'a';
    export interface ExplorerState { sentence: string; mask: 'padding' | 'causal'; labPositions: number | null;
      scores: [number, number, number]; kinds: (Kind | undefined)[]; compare: boolean }`;
  assert.deepEqual(typeDisagreements(schema, declaredFields(file, 'ExplorerState', { [file]: agreeing })), []);
  const disagreeing = `export interface ExplorerState { sentence: string; mask: 'causal' | 'sideways';
      labPositions: number; scores: number[]; kinds: ('a' | 'b')[]; colour: string; [more: string]: unknown }`;
  assert.deepEqual(typeDisagreements(schema, declaredFields(file, 'ExplorerState', { [file]: disagreeing })), [
    `mask: declared "causal" | "sideways", the schema says "causal" | "padding"`,
    'labPositions: declared number, the schema says null | number',
    'scores: declared (number)[], the schema says [number, number, number]',
    `kinds: declared ("a" | "b")[], the schema says ("a" | "b" | undefined)[]`,
    'compare: a setting the .d.ts does not declare (boolean)',
    'colour: declared, but no setting of the schema',
    'an index signature: the .d.ts takes fields the schema does not have',
  ]);
});

test("each observed attribute sets a setting or is the element's own; each setting's attribute is observed", () => {
  assert.deepEqual(attributeDisagreements(STATE_SCHEMA, OBSERVED_ATTRIBUTES, [...VIEW_ATTRIBUTES, 'state']), []);
  // The checker on a made-up disagreement: an attribute nothing reads, and a setting's attribute not observed.
  const schema = [{ name: 'temperature', type: 'number', default: 1, attribute: 'temperature' }];
  assert.deepEqual(attributeDisagreements(schema, ['colour', 'views'], ['views']), [
    "temperature: a setting's attribute the element does not observe",
    'colour: observed, but the attribute of no setting',
  ]);
});

test("every setting's URL key round-trips a value other than the default (and null where it is allowed)", () => {
  const defaults = defaultState();
  for (const setting of STATE_SCHEMA) {
    const values = [sample(setting), ...(setting.nullable && setting.default !== null ? [null] : [])];
    for (const value of values) {
      const hash = stateToHash({ ...defaults, [setting.name]: value }, defaults);
      assert.ok(new URLSearchParams(hash).has(urlKey(setting)), `${setting.name}: written as ${urlKey(setting)}=`);
      // Read back: the value, and what else the link implies as the state written has it (a model's first head).
      const written = { ...defaults, [setting.name]: value };
      const read = stateFromHash(`#${hash}`);
      assert.deepEqual(read[setting.name], value, `${setting.name} = ${value}: read back`);
      for (const [name, other] of Object.entries(read)) assert.deepEqual(other, written[name], `${name}, read back`);
    }
  }
});

test("change() takes each setting's values, and refuses values of another type or outside its range or names", () => {
  const defaults = defaultState();
  const wrongType = { text: 42, name: 42, boolean: 1, integer: '1', number: '1', head: 'L1 H2' };
  for (const setting of STATE_SCHEMA) {
    const { name } = setting;
    assert.doesNotThrow(() => checkChange({ [name]: sample(setting) }, defaults, D_MODEL), name);
    const other = isList(setting.type) ? 'a list?' : wrongType[setting.type];
    assert.throws(() => checkChange({ [name]: other }, defaults, D_MODEL), {
      name: 'TypeError',
      message: new RegExp(`^${name} must be `),
    });
    if (!setting.nullable) assert.throws(() => checkChange({ [name]: null }, defaults, D_MODEL), TypeError, name);
    for (const value of outside(setting)) {
      assert.throws(
        () => checkChange({ [name]: value }, defaults, D_MODEL),
        { name: 'RangeError', message: new RegExp(`^${name} = `) },
        `${name} = ${JSON.stringify(value)}`,
      );
    }
  }
});

/** A value as an attribute writes it: a list of heads as layer,head pairs separated by ';' (knockout="0,1;1,3"). */
function attributeText(value) {
  const isHeads = Array.isArray(value) && value.length > 0 && value.every((h) => h !== null && typeof h === 'object');
  return isHeads ? value.map((h) => `${h.layer},${h.head}`).join(';') : String(value);
}

test("an attribute reads its setting's values, and refuses what change() refuses", () => {
  for (const [attribute, settings] of ATTRIBUTE_SETTINGS) {
    // heads and tour have a syntax of their own (attributes.test.js).
    if (settings.length !== 1 || attribute === 'tour') continue;
    const [setting] = settings;
    const value = sample(setting);
    const read = readAttributes((name) => (name === attribute ? attributeText(value) : null), D_MODEL);
    assert.deepEqual(read.errors, [], attribute);
    assert.deepEqual(read.change, { [setting.name]: value }, attribute);
    for (const bad of outside(setting)) {
      const refused = readAttributes((name) => (name === attribute ? attributeText(bad) : null), D_MODEL);
      assert.deepEqual(refused.change, {}, `${attribute}="${bad}"`);
      assert.match(refused.errors[0], new RegExp(`^${attribute}="`));
    }
  }
});

test("every guided-tour step's state is a change the schema allows", () => {
  const defaults = defaultState();
  for (const step of TOUR_STEPS) assert.doesNotThrow(() => checkChange(step.state, defaults, D_MODEL), step.id);
});
