// The blanks a new sentence keeps (web/src/settings/blanks.js): only on the same word at the same place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blanksKept, keepingBlanks } from '../../web/src/settings/blanks.js';

const words = (text) => text.split(' ').map((t) => ({ text: t }));

test('blanksKept keeps a position only where the old and new token are the same word', () => {
  const before = words('the door was opened by the wind');
  assert.deepEqual(blanksKept([3], before, words('she said the shop closed early today')), []);
  assert.deepEqual(blanksKept([3, 1], before, words('the door was opened by the wind last night')), [1, 3]);
  assert.deepEqual(blanksKept([1], before, words('The DOOR was')), [1], 'case is not another word');
  assert.deepEqual(blanksKept([1], before, words('the old door')), [], 'inserted before it: moved, dropped');
  assert.deepEqual(blanksKept([6], before, words('the door')), [], 'past the new end');
  assert.deepEqual(blanksKept([2, 2], before, before), [2], 'no repeats');
});

test('keepingBlanks leaves a change that names its blanks, or keeps the sentence, as it is', () => {
  const state = { sentence: 'a b c', maskedPositions: [1] };
  const tokenize = words;
  const named = { sentence: 'x y z', maskedPositions: [0] };
  assert.equal(keepingBlanks(named, state, tokenize), named);
  const other = { temperature: 2 };
  assert.equal(keepingBlanks(other, state, tokenize), other);
  assert.deepEqual(keepingBlanks({ sentence: 'a b d' }, state, tokenize), { sentence: 'a b d', maskedPositions: [1] });
  assert.deepEqual(keepingBlanks({ sentence: 'x' }, state, tokenize), { sentence: 'x', maskedPositions: [] });
});
