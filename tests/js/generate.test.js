// The JS API as the docs promise it (docs/language-models.md, docs/js-api.md): languageModel.generate() writes on
// after a text as the page's Generate does, joining each word as the tokenizer reads it back; fillMask() without a
// blank is an error; every message names its function once; explain(text, { heads: 'designed' }) is the page's
// designed heads.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { appendWord } from '../../web/src/core/generate.js';
import { prefixOnce } from '../../web/src/core/wasm-module.js';
import { generate as pageGenerate } from '../../web/src/models/output-layer.js';
import { defaultsOf } from '../../web/src/settings/schema.js';
import { BASE_SETTINGS } from '../../web/src/settings/state.js';

let core, causal, masked;
before(async () => {
  core = await createAttentionCore();
  [causal, masked] = await Promise.all([core.languageModel('causal'), core.languageModel('masked')]);
});

const words = (text) => core.tokenize(text).map((t) => t.text.toLowerCase());

describe('languageModel.generate', () => {
  test('n words, each what sample() draws after the text so far with seed + i; the text re-tokenizes to them', () => {
    const start = 'The river bank was muddy after the';
    const options = { temperature: 0.9, topK: 40 };
    const made = causal.generate(start, { ...options, n: 6, seed: 11 });
    assert.equal(made.words.length, 6);
    assert.equal(made.nextSeed, 17);
    // The same draws by hand: sample() after the text so far, the seed advancing by one a word, each word written on
    // as the tokenizer reads it back (appendWord: "chief" + "'s" is "chief's").
    const wasm = { tokenize: (text) => ({ value: core.tokenize(text) }) };
    let text = start;
    made.words.forEach(({ word, id, p, seed }, i) => {
      assert.equal(seed, 11 + i);
      const drawn = causal.sample(text, { ...options, seed });
      assert.deepEqual({ word, id, p }, { word: drawn.word, id: drawn.id, p: drawn.p }, `word ${i}`);
      text = appendWord(wasm, text, word);
    });
    assert.equal(made.text, text);
    assert.deepEqual(words(made.text), [...words(start), ...made.words.map((w) => w.word)]);
    assert.ok(made.text.startsWith(start));
  });

  test('clitics and punctuation are glued on, other words follow a space, as the tokenizer reads them back', () => {
    // appendWord over the core's own tokenizer (the binding's { value } result, as generate() reads it).
    const wasm = { tokenize: (text) => ({ value: core.tokenize(text) }) };
    for (const [text, word, joined] of [
      ['she', "'d", "she'd"],
      ['do', "n't", "don't"],
      ['the end', '.', 'the end.'],
      ['first', ',', 'first,'],
      ['the king', "'s", "the king's"],
      ['she', 'said', 'she said'],
      ['she said  ', 'that', 'she said that'],
      ['', 'the', 'the'],
    ]) {
      const made = appendWord(wasm, text, word);
      assert.equal(made, joined, `${JSON.stringify(text)} + ${word}`);
      assert.deepEqual(words(made), [...words(text), word], `${made} reads back as the text and then ${word}`);
    }
    // The real model's words, drawn greedily, read back the same way.
    const made = causal.generate('she said that', { n: 8, topK: 1 });
    assert.deepEqual(words(made.text), [...words('she said that'), ...made.words.map((w) => w.word)]);
  });

  test("the page's Generate is generate() with the state's options: the same word, text and next seed", () => {
    const state = { sentence: 'the king of', outputTemperature: 1.2, topK: 0, sampleSeed: 4, knockout: [] };
    const page = pageGenerate(causal, state);
    const api = causal.generate(state.sentence, { temperature: 1.2, topK: 0, seed: 4, n: 1 });
    assert.deepEqual(page.change, { sentence: api.text, sampleSeed: 5 });
    assert.equal(page.word, api.words[0].word);
    const last = core.languageModelLimits.maxSampleSeed;
    assert.equal(causal.generate('the king of', { seed: last, n: 2 }).words[1].seed, 0, 'the seed wraps to 0');
  });

  test('errors: the masked model, n out of range, an empty text, a text too long to write on, unknown options', () => {
    assert.throws(() => masked.generate('the [MASK] sat'), { name: 'RangeError', message: /only the 'causal' model/ });
    assert.throws(() => causal.generate('the cat', { n: 0 }), {
      name: 'RangeError',
      message: /^languageModel\.generate: n/,
    });
    assert.throws(() => causal.generate('the cat', { n: 1.5 }), { name: 'RangeError', message: /n must be/ });
    assert.throws(() => causal.generate('   '), { name: 'RangeError', message: /no token to write after/ });
    assert.throws(() => causal.generate('word '.repeat(250), { n: 10 }), {
      name: 'RangeError',
      message: /^languageModel\.generate: the text holds 250 tokens; 10 more would pass the 256/,
    });
    assert.throws(() => causal.generate('the cat', { length: 3 }), {
      name: 'RangeError',
      message: /unknown option 'length'/,
    });
    assert.throws(() => causal.generate(42), { name: 'TypeError' });
  });
});

describe('messages and blanks', () => {
  test('fillMask on a text without [MASK] is a RangeError, as sample() is', () => {
    assert.throws(() => masked.fillMask('the cat sat on the mat'), {
      name: 'RangeError',
      message: /^languageModel\.fillMask: the text has no \[MASK\] to fill in$/,
    });
    assert.throws(() => masked.sample('the cat sat on the mat'), { name: 'RangeError' });
  });

  test("the rule: the function called starts the message once, in place of the core's object or method name", () => {
    for (const [message, where, said] of [
      ['languageModel: the text must hold 1 to 256 tokens', 'languageModel.sample', 'languageModel.sample: the text'],
      ['languageModel.run: k must be in [1, 100]', 'languageModel.run', 'languageModel.run: k must'],
      ['trainer: this trainer was released', 'languageTrainer.step', 'languageTrainer.step: this trainer'],
      ['setParameters: expected 10 numbers', 'trainer.setParameters', 'trainer.setParameters: expected 10'],
      ['the training text holds 2 tokens', 'createLanguageTrainer', 'createLanguageTrainer: the training text'],
      ['dModel: 3 is odd', 'explain', 'explain: dModel: 3 is odd'],
    ]) {
      assert.ok(prefixOnce(message, where).startsWith(said), `${message} from ${where}: ${prefixOnce(message, where)}`);
    }
  });

  test('each message names its function once', () => {
    for (const [call, where] of [
      [() => causal.sample(''), 'languageModel.sample'],
      [() => causal.run(''), 'languageModel.run'],
      [() => causal.attribute('', { position: 0, word: 'the' }), 'languageModel.attribute'],
      [() => causal.score('the'), 'languageModel.score'],
    ]) {
      assert.throws(call, (error) => {
        assert.ok(error.message.startsWith(`${where}: `), error.message);
        assert.equal(error.message.match(/languageModel\b/g).length, 1, error.message);
        return true;
      });
    }
  });
});

describe("explain with the page's designed heads", () => {
  test("heads: 'designed' is core.limits.designedHeads, one head each, as the page's default state", () => {
    assert.deepEqual([...core.limits.designedHeads], ['semantic', 'previous', 'next', 'first']);
    assert.deepEqual(defaultsOf(BASE_SETTINGS).headKinds, [...core.limits.designedHeads]);
    const trace = core.explain('the river bank was muddy', { heads: 'designed' });
    assert.deepEqual(
      trace.heads.map((h) => [h.kind, h.offset]),
      [
        ['semantic', 0],
        ['offset', -1],
        ['offset', 1],
        ['first', 0],
      ],
    );
    assert.deepEqual(trace.weights.shape, [4, 5, 5]);
    const listed = core.explain('the river bank was muddy', { numHeads: 4, heads: [...core.limits.designedHeads] });
    assert.deepEqual(trace.weights.data, listed.weights.data);
    assert.throws(() => core.explain('the river', { heads: 'designer' }), {
      name: 'TypeError',
      message: /heads must be an array of head kinds, or 'designed'/,
    });
  });
});
