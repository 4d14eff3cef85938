// A chapter's opening sentence is true of the model on screen: under a causal mask a word's new vector mixes only the
// words it may attend to (itself and the words before it), not every word's value vector.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { setCoreLimits } from '../../web/src/settings/limits.js';
import { CHAPTERS, defaultState } from '../../web/src/lessons/chapters.js';
import { masksLaterWords, modelIdThat, modelRegistry } from '../../web/src/models/registry.js';

before(async () => {
  const core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
});

const takeaway = (chapter, state) =>
  typeof chapter.takeaway === 'function' ? chapter.takeaway(state) : chapter.takeaway;
const attention = () => CHAPTERS.find((c) => c.id === 'attention');

test("the Attention chapter's takeaway: every word's value vectors without a causal mask, the visible words under one", () => {
  const defaults = defaultState();
  for (const entry of modelRegistry()) {
    for (const mask of ['none', 'causal']) {
      const state = { ...defaults, model: entry.id, mask };
      const text = takeaway(attention(), state);
      if (masksLaterWords(state)) {
        assert.doesNotMatch(text, /every word/, `${entry.id}, mask ${mask}: ${text}`);
        assert.match(text, /of itself and the words before it \(the causal mask\),/, `${entry.id}, mask ${mask}`);
      } else assert.match(text, /mix of the value vectors of every word,/, `${entry.id}, mask ${mask}: ${text}`);
    }
  }
  assert.equal(masksLaterWords({ ...defaults, model: modelIdThat('generate'), mask: 'none' }), true, 'a decoder');
  assert.equal(masksLaterWords({ ...defaults, model: modelIdThat('fillBlanks'), mask: 'causal' }), false, 'an encoder');
  assert.equal(masksLaterWords({ ...defaults, model: modelIdThat('designedControls'), mask: 'causal' }), true);
});

test('every takeaway is one sentence, a string for every state', () => {
  for (const chapter of CHAPTERS) {
    const text = takeaway(chapter, { ...defaultState(), model: modelIdThat('generate') });
    assert.equal(typeof text, 'string', chapter.id);
    assert.ok(text.length > 20, chapter.id);
  }
});
