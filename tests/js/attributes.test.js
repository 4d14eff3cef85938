// The element's attributes: parsing, clear messages for bad values, and the embed code's round trip.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { checkChange, embedCode, readAttributes } from '../../web/src/explorer/attributes.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';
import { defaultState, withChange } from '../../web/src/lessons/chapters.js';

const D_MODEL = 100;
// The parsers' name lists and ranges are the core's own (core.limits).
before(async () => {
  const core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits);
});
const reader = (attributes) => (name) => attributes[name] ?? null;

/** The attributes of a tag, unescaped (the way a browser parses them); a bare one's value is ''. */
function parseTag(tag) {
  const attributes = {};
  for (const [, name, value = ''] of tag.matchAll(/ ([a-z-]+)(?:="([^"]*)")?(?=[ >])/g)) {
    attributes[name] = value
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
  }
  return attributes;
}

test('named attributes set the state; views and controls are lists', () => {
  const { change, views, controls, errors } = readAttributes(
    reader({
      sentence: 'the cat sat',
      heads: 'previous,semantic',
      projection: 'random',
      seed: '7',
      mask: 'causal',
      'positional-encoding': 'rope',
      temperature: '0.5',
      views: 'attention, positional',
      controls: 'none',
    }),
    D_MODEL,
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(change, {
    sentence: 'the cat sat',
    numHeads: 2,
    headKinds: ['previous', 'semantic'],
    projection: 'random',
    seed: 7,
    mask: 'causal',
    positionalEncoding: 'rope',
    temperature: 0.5,
  });
  assert.deepEqual([...views], ['attention', 'positional']);
  assert.equal(controls.size, 0);
  const all = readAttributes(reader({}), D_MODEL);
  assert.ok(all.views.has('lab') && all.controls.has('sentence'), 'absent lists mean all');
});

test('a bad attribute is named with what is allowed, and sets nothing', () => {
  const { change, errors } = readAttributes(
    reader({ heads: '3', temperature: '0', mask: 'sideways', seed: '-1', views: 'attention,bogus' }),
    D_MODEL,
  );
  assert.deepEqual(change, {});
  assert.equal(errors.length, 5);
  assert.match(
    errors[0],
    /^heads="3": the number of heads must divide d_model = 100: one of 1, 2, 4, 5, 10, 20, 25, 50, 100$/,
  );
  assert.match(errors.join('\n'), /mask="sideways": must be one of bidirectional, causal, padding/);
  assert.match(errors.join('\n'), /temperature="0": must be a number from 0.05 to 5/);
  assert.match(errors.join('\n'), /views="attention,bogus": unknown bogus/);
});

test('the embed code reproduces the state through the attributes, and is empty for the defaults', () => {
  const defaults = defaultState();
  const MODULE = 'https://example.org/course/element/attention-explorer.js';
  assert.equal(
    embedCode(defaults, D_MODEL, MODULE),
    `<script type="module" src="${MODULE}"></script>\n<attention-explorer></attention-explorer>`,
    'the script tag, then the element',
  );
  const state = withChange(defaults, {
    sentence: 'she said "a < b & c"',
    numHeads: 4,
    headKinds: [undefined, 'semantic'],
    head: 1,
    projection: 'random',
    seed: 9,
    mask: 'padding',
    validLength: 3,
    temperature: 0.35,
    positionalEncoding: 'alibi',
    colorMap: 'cividis',
    lineThreshold: 0.2,
    labDModel: 32,
  });
  const tag = embedCode(state, D_MODEL, MODULE, { views: 'attention,lines', controls: null }).split('\n')[1];
  assert.match(
    tag,
    /^<attention-explorer sentence="she said &quot;a &lt; b &amp; c&quot;" heads="projected,semantic,projected,projected" /,
  );
  const attributes = parseTag(tag);
  assert.equal(attributes.views, 'attention,lines');
  assert.ok(!('controls' in attributes));
  const { change, errors } = readAttributes(reader(attributes), D_MODEL);
  assert.deepEqual(errors, []);
  const kinds = (s) => Array.from({ length: s.numHeads }, (_, h) => s.headKinds[h] ?? 'projected');
  const reproduced = withChange(defaults, change);
  assert.deepEqual(kinds(reproduced), kinds(state));
  assert.deepEqual({ ...reproduced, headKinds: null }, { ...state, headKinds: null });
});

test("checkChange: JS changes are checked with the attributes' parsers; unknown fields and wrong types are refused", () => {
  const defaults = defaultState();
  assert.throws(() => checkChange({ temperature: 99 }, defaults, D_MODEL), {
    name: 'RangeError',
    message: 'temperature = 99: must be a number from 0.05 to 5',
  });
  assert.throws(() => checkChange({ temperature: NaN }, defaults, D_MODEL), {
    name: 'RangeError',
    message: /^temperature = NaN: /,
  });
  assert.throws(() => checkChange({ numHeads: 3 }, defaults, D_MODEL), {
    name: 'RangeError',
    message: /the number of heads must divide d_model = 100/,
  });
  assert.throws(() => checkChange({ headKinds: ['sideways'] }, defaults, D_MODEL), {
    name: 'RangeError',
    message: /must be one of/,
  });
  // The head: { layer, head } from 0, or the number of a designed head (as before it was one field).
  checkChange({ head: { layer: 1, head: 2 } }, defaults, D_MODEL);
  checkChange({ head: 2 }, defaults, D_MODEL);
  // Not an object: a TypeError; an object that is not a head: a RangeError, as for every setting.
  for (const head of ['L1 H2', [0, 1], 1.5])
    assert.throws(() => checkChange({ head }, defaults, D_MODEL), {
      name: 'TypeError',
      message: /^head must be \{ layer, head \}/,
    });
  for (const head of [{ layer: -1, head: 0 }, { layer: 0 }])
    assert.throws(() => checkChange({ head }, defaults, D_MODEL), {
      name: 'RangeError',
      message: /^head = .*: must be \{ layer, head \}/,
    });
  assert.throws(() => checkChange({ bogus: 1 }, defaults, D_MODEL), {
    name: 'RangeError',
    message: /^unknown setting 'bogus'/,
  });
  assert.throws(() => checkChange({ sentence: null }, defaults, D_MODEL), {
    name: 'TypeError',
    message: 'sentence must be a string, got null',
  });
  assert.throws(() => checkChange({ maskedPositions: 3 }, defaults, D_MODEL), {
    name: 'TypeError',
    message: 'maskedPositions must be a list, got number',
  });
  assert.throws(() => checkChange(null, defaults, D_MODEL), TypeError);
  assert.doesNotThrow(() =>
    checkChange(
      { temperature: 0.5, numHeads: 4, headKinds: ['semantic', 'previous'], labPositions: null, compare: true },
      defaults,
      D_MODEL,
    ),
  );
});

test("the embed code keeps the element's own attributes, bare when boolean; in an app's bundle it imports the package", () => {
  const state = withChange(defaultState(), { trainTask: 'sort', chapter: 'learn' });
  const kept = { views: 'learn', controls: 'none', height: '640', theme: 'dark', readonly: null, autoplay: '' };
  const OWN = 'https://example.org/course/element/attention-explorer.js';
  const [loader, tag] = embedCode(state, D_MODEL, OWN, kept).split('\n');
  assert.equal(loader, `<script type="module" src="${OWN}"></script>`);
  assert.match(tag, / task="sort"/);
  assert.match(tag, / views="learn" controls="none" height="640" theme="dark" autoplay><\/attention-explorer>$/);
  const attributes = parseTag(tag);
  assert.equal(attributes.autoplay, '');
  assert.ok(!('readonly' in attributes));
  assert.equal(readAttributes(reader(attributes), D_MODEL).change.trainTask, 'sort');
  // Vite and webpack name the chunk that took the element in after the app ('index-CE2iV_Zw.js', 'main.js'): a script
  // tag of it would load the whole app, so the snippet imports the package where it is pasted.
  // webpack writes the build machine's path of the package's file in place of import.meta.url.
  for (const bundle of [
    'https://example.org/assets/index-CE2iV_Zw.js',
    'http://localhost:8080/main.js',
    'file:///home/author/app/node_modules/attention-explorer/dist/element/attention-explorer.js',
  ]) {
    const lines = embedCode(state, D_MODEL, bundle, kept).split('\n');
    assert.equal(lines[0], '<script type="module">');
    assert.match(lines[1], /^ {2}\/\/ .*import it once in the app's code/);
    assert.equal(lines[2], "  import 'attention-explorer/element';");
    assert.equal(lines[3], '</script>');
    assert.equal(lines.at(-1), tag);
    assert.ok(!lines.join('\n').includes(bundle), 'the app bundle is not named');
  }
});
