// The explorer's state ⇄ URL hash: round trips, short links, hand-edited links.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultState, withChange } from '../../web/src/lessons/chapters.js';
import { stateFromHash, stateToHash } from '../../web/src/explorer/url-state.js';

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
