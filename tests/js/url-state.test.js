// The explorer's state ⇄ URL hash: round trips, short links, hand-edited links.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultState, withChange } from '../../web/src/lessons/chapters.js';
import { stateFromHash, stateToHash } from '../../web/src/explorer/url-state.js';
import { resolveHead } from '../../web/src/models/run.js';

const defaults = defaultState();

test('a changed state survives the round trip through the hash; the defaults give an empty hash', () => {
  assert.equal(stateToHash(defaults, defaults), '');
  const state = withChange(defaults, {
    sentence: 'the cat, & the “dog” = 2 #tags',
    numHeads: 4,
    head: 2,
    headKinds: [undefined, 'semantic', 'offset'],
    maskedPositions: [1, 3],
    temperature: 0.35,
    scoreFunction: 'additive',
    simplexScores: [2.5, -1, 0.25],
    positionalEncoding: 'rope',
    lineQuery: 2,
    labPositions: 60,
    compare: true,
    embeddingScale: 10,
  });
  const hash = stateToHash(state, defaults);
  assert.ok(!hash.includes('projection='), 'unchanged values are left out');
  assert.deepEqual(withChange(defaults, stateFromHash(`#${hash}`, defaults)), state);
});

test('unknown keys and values of the wrong type are ignored', () => {
  const change = stateFromHash(
    '#numHeads=four&scale=maybe&bogus=1&sentence=hi&maskedPositions=&labPositions=&simplexScores=1,x',
    defaults,
  );
  assert.deepEqual(change, { sentence: 'hi', maskedPositions: [], labPositions: null });
});

test('lists of free text (the lookup table) survive the hash: commas, percent signs, numbers and blanks stay text', () => {
  const state = withChange(defaults, {
    lookupKeys: ['Luke, Jr.', '100%', '42', '', 'é €'],
    lookupValues: ['a,b', '%2C', '7', '', 'x'],
    lookupQuery: 'Luk, 2',
    lookupTemperature: 0.05,
    lookupSimilarity: 'wordVectors',
    costKernel: 5,
  });
  const hash = stateToHash(state, defaults);
  assert.deepEqual(withChange(defaults, stateFromHash(`#${hash}`, defaults)), state);
  assert.deepEqual(
    stateFromHash('#lookupKeys=1,2', defaults).lookupKeys,
    ['1', '2'],
    'numbers in a text list stay strings',
  );
});

test('the head is one { layer, head } in the state and the link (head=layer,head), for every model', () => {
  const state = withChange(defaults, { model: 'causal', head: { layer: 2, head: 3 } });
  const hash = stateToHash(state, defaults);
  assert.match(hash, /(^|&)head=2%2C3(&|$)/);
  assert.doesNotMatch(hash, /trainedHead/);
  assert.deepEqual(withChange(defaults, stateFromHash(`#${hash}`, defaults)).head, { layer: 2, head: 3 });
  // Each model starts at its first head, which the link leaves out: the designed heads' first, each trained
  // model's previous-word head (the decoder's layer 2, head 3; the encoder's layer 2, head 3).
  assert.deepEqual(defaults.head, { layer: 0, head: 0 });
  const decoder = withChange(defaults, { model: 'causal' });
  assert.deepEqual(decoder.head, { layer: 1, head: 2 });
  assert.equal(stateToHash(decoder, defaults), 'model=causal');
  assert.deepEqual(withChange(defaults, stateFromHash('#model=causal', defaults)).head, { layer: 1, head: 2 });
  assert.deepEqual(withChange(defaults, { model: 'masked' }).head, { layer: 1, head: 2 });
  // The encoder's first head of all is not its first head: the link names it, and opens at it.
  const encoder = withChange(defaults, { model: 'masked' });
  const first = withChange(encoder, { head: { layer: 0, head: 0 } });
  assert.equal(stateToHash(first, defaults), 'model=masked&head=0%2C0');
  assert.deepEqual(withChange(defaults, stateFromHash(`#${stateToHash(first, defaults)}`, defaults)), first);
  // A designed head past the last (fewer heads) is their last; a head of another layer is theirs too.
  assert.deepEqual(withChange(defaults, { numHeads: 2, head: { layer: 0, head: 3 } }).head, { layer: 0, head: 1 });
  assert.deepEqual(withChange(defaults, { head: { layer: 1, head: 0 } }).head, { layer: 0, head: 3 });
});

test('old links, from before the head was one field, open at the same head (head= designed, trainedHead= trained)', () => {
  const open = (hash) => withChange(defaults, stateFromHash(hash, defaults));
  assert.deepEqual(open('#head=2').head, { layer: 0, head: 2 });
  assert.deepEqual(open('#head=2&trainedHead=5').head, { layer: 0, head: 2 }, 'the designed heads read head=');
  // trainedHead counted the trained heads layer-major: { layer: 0, head: 5 } counts on into layer 2 (4 heads a layer).
  const trained = open('#model=causal&trainedHead=5');
  assert.deepEqual(trained.head, { layer: 0, head: 5 });
  assert.deepEqual(resolveHead({ numLayers: 2, numHeads: 4 }, trained.head), { layer: 1, head: 1 });
  assert.deepEqual(resolveHead({ numLayers: 2, numHeads: 4 }, open('#model=causal&trainedHead=99').head), {
    layer: 1,
    head: 3,
  });
  // A trained model's link with only a designed head= showed the trained model's default head.
  assert.deepEqual(open('#model=masked&head=3').head, { layer: 1, head: 2 });
  assert.deepEqual(open('#model=masked&head=3&trainedHead=0').head, { layer: 0, head: 0 });
  // Written again, the link says the head once, in today's form.
  assert.equal(stateToHash(open('#model=causal&trainedHead=6'), defaults), 'model=causal&head=0%2C6');
});
