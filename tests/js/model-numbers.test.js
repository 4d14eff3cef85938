// One held-out figure per claim: every number the page quotes about the shipped models names the text it was measured
// on (model-facts.js), the Learn chapter's baselines say theirs are counted on another text over fewer words
// (language-figures.js), and no tour step quotes a training size of its own beside the model file's.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { modelFacts, trainingSize } from '../../web/src/models/model-facts.js';
import { baselineText, startNote } from '../../web/src/lessons/learn/language-figures.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';
import { defaultState } from '../../web/src/lessons/chapters.js';
import { stepState } from '../../web/src/explorer/tour.js';
import { TOUR_STEPS, stepText } from '../../web/src/explorer/tour-steps.js';

let core, causal, masked;
before(async () => {
  core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
  causal = (await core.languageModel('causal')).config;
  masked = (await core.languageModel('masked')).config;
});

test("the decoder's perplexity and its bigram's name the held-out text both are measured on", () => {
  const text = modelFacts(causal);
  const tokens = causal.measured.heldOutTokens.toLocaleString('en-US');
  assert.equal(causal.baselines.tokens, causal.measured.heldOutTokens, 'the file measures both on one text');
  assert.ok(text.includes(`On the corpus's ${tokens} held-out tokens`), text);
  assert.ok(text.includes(`(${causal.outputSize.toLocaleString('en-US')} output words)`), text);
  assert.ok(text.includes(`perplexity ${causal.heldOutPerplexity.toFixed(1)}`), text);
  assert.ok(
    text.includes(`${causal.baselines.bigramPerplexity.toFixed(1)} for a bigram model counted on the same split`),
  );
  assert.ok(text.includes(`trained on ${trainingSize(causal)} tokens`), text);
  const blanks = modelFacts(masked);
  const outputs = masked.outputSize.toLocaleString('en-US');
  assert.ok(
    blanks.includes(`(${masked.measured.heldOutTokens.toLocaleString('en-US')} blanks, ${outputs} output words;`),
    blanks,
  );
});

test("the Learn chart's baselines say which text and how many words they are counted over", () => {
  const text = baselineText(2048);
  assert.match(text, /measured on these held-out words over its 2,047 output words \(every other word is <unk>\)/);
  assert.match(text, /not on the shipped decoder's held-out text/);
});

test('no tour step quotes a training size other than the model file says, nor says where a figure is on screen', () => {
  const defaults = defaultState();
  const size = `${trainingSize(causal)} tokens`;
  for (const step of TOUR_STEPS) {
    const text = stepText(step, { core, state: stepState(step, defaults, defaults) });
    for (const [quoted] of text.matchAll(/\d+(\.\d+)? ?M (words|tokens)/g)) assert.equal(quoted, size, step.id);
    assert.doesNotMatch(text, /on the (right|left)\b/, `${step.id}: the layout decides where a figure is`);
  }
});

test("the Learn chart's uniform-guess line, and why an untrained model starts above it", () => {
  const tied = startNote(16.67, 2048, true);
  assert.match(tied, /uniform-guess line is ln 2,048 = 7\.62/);
  assert.match(tied, /The untrained model starts higher, at 16\.7: its output is tied to the word vectors/);
  assert.match(startNote(16.67, 2048, false), /at 16\.7: its random output layer/);
  assert.doesNotMatch(startNote(7.7, 2048, true), /starts higher/, 'a start near ln V needs no reason');
});
