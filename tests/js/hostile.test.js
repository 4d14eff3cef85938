// Hostile input through the public JS API: every text is accepted, every bad argument is a typed
// error naming it, and nothing leaks or traps.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { randomMatrix } from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

const TEXTS = {
  empty: '',
  whitespace: ' \t\n\u00a0\u3000 ',
  long: 'a'.repeat(100000),
  tokens: 'word '.repeat(10000),
  emoji: 'family 👩‍👩‍👧‍👦 flags 🇫🇷🇩🇪 skin 👍🏽',
  combining: 'Cafe\u0301 nai\u0308ve Z\u0351\u0352a\u0350lgo',
  cjk: '注意力机制 は 素晴らしい 。',
  rtl: 'שלום world مرحبا 123',
  control: 'a\u0000b\u0001c\u001fd\u007f e\u200b f',
  surrogates: 'lone \ud800 high and \udfff low \ud83d',
  html: '<img src=x onerror=alert(1)> <script>alert(1)</script> &amp;',
  punctuation: '3.14159 -- !!! ??? ... $$$ 1,000,000 (a) [b] {c}',
};

describe('any text is accepted', () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    test(name, () => {
      const tokens = core.tokenize(text);
      const wellFormed = text.toWellFormed();
      let previousEnd = 0;
      for (const t of tokens) {
        assert.ok(t.start >= previousEnd && t.end > t.start && t.end <= text.length, `span ${t.start}-${t.end}`);
        assert.equal(wellFormed.slice(t.start, t.end), t.text, 'a span slices back to its token');
        previousEnd = t.end;
      }
      const trace = core.explain(text, { numHeads: 4, projection: 'random', seed: 9 });
      assert.equal(trace.tokens.length, Math.min(tokens.length, 256));
      assert.equal(trace.truncated, tokens.length > 256);
      for (const x of trace.weights.data) assert.ok(Number.isFinite(x));
      for (const x of trace.output.data) assert.ok(Number.isFinite(x));
    });
  }

  test('10,000 tokens are cut at the documented maximum', () => {
    const trace = core.explain(TEXTS.tokens);
    assert.equal(trace.totalTokens, 10000);
    assert.equal(trace.tokens.length, core.maxTokens);
    assert.equal(trace.truncated, true);
  });

  test('an emoji ZWJ sequence stays one token; combining marks stay with their letter', () => {
    assert.equal(core.tokenize('👩‍👩‍👧‍👦').length, 1);
    assert.deepEqual(
      core.tokenize('Cafe\u0301 ok').map((t) => t.text),
      ['Cafe\u0301', 'ok'],
    );
  });
});

describe('every bad argument is a typed error naming it', () => {
  const q = randomMatrix(3, 2, 1);
  const cases = [
    ['text not a string', () => core.explain(null), TypeError, /text/],
    ['options not an object', () => core.explain('a', 5), TypeError, /options/],
    ['unknown option', () => core.explain('a', { temprature: 2 }), RangeError, /temprature/],
    ['numHeads fractional', () => core.explain('a', { numHeads: 2.5 }), RangeError, /numHeads/],
    ['numHeads negative', () => core.explain('a', { numHeads: -4 }), RangeError, /numHeads/],
    ['numHeads huge', () => core.explain('a', { numHeads: 1e9 }), RangeError, /numHeads/],
    ['numHeads not dividing', () => core.explain('a', { numHeads: 3 }), RangeError, /numHeads must divide/],
    ['numHeads a string', () => core.explain('a', { numHeads: '2' }), TypeError, /numHeads/],
    ['temperature NaN', () => core.explain('a', { temperature: NaN }), RangeError, /temperature/],
    ['temperature Infinity', () => core.explain('a', { temperature: Infinity }), RangeError, /temperature/],
    ['temperature 0', () => core.explain('a', { temperature: 0 }), RangeError, /temperature/],
    ['seed negative', () => core.explain('a', { seed: -1 }), RangeError, /seed/],
    ['seed above 2^32', () => core.explain('a', { seed: 2 ** 33 }), RangeError, /seed/],
    ['maxTokens 0', () => core.explain('a', { maxTokens: 0 }), RangeError, /maxTokens/],
    ['validLength fractional', () => core.explain('a', { validLength: 1.5 }), RangeError, /validLength/],
    ['maskedPositions not an array', () => core.explain('a', { maskedPositions: 3 }), TypeError, /maskedPositions/],
    ['head kind unknown', () => core.explain('a', { heads: ['sideways'] }), RangeError, /heads\[0\]/],
    ['more head kinds than heads', () => core.explain('a', { heads: ['uniform', 'uniform'] }), RangeError, /heads/],
    ['tensor a plain array', () => core.attention({ queries: [[1, 2]], keys: q, values: q }), TypeError, /queries/],
    [
      'data length ≠ shape',
      () => core.attention({ queries: { data: new Float32Array(5), shape: [3, 2] }, keys: q, values: q }),
      RangeError,
      /queries\.data has 5/,
    ],
    [
      'shape of rank 3',
      () => core.attention({ queries: { data: new Float32Array(6), shape: [3, 2, 1] }, keys: q, values: q }),
      RangeError,
      /queries\.shape/,
    ],
    [
      'negative size',
      () => core.attention({ queries: { data: new Float32Array(0), shape: [-1, 0] }, keys: q, values: q }),
      RangeError,
      /queries\.shape\[0\]/,
    ],
    [
      'Infinity in data',
      () =>
        core.attention({
          queries: { data: new Float32Array([1, Infinity, 0, 0, 0, 0]), shape: [3, 2] },
          keys: q,
          values: q,
        }),
      RangeError,
      /queries\.data\[1\]/,
    ],
    [
      'mismatched widths',
      () => core.attention({ queries: q, keys: randomMatrix(3, 4, 2), values: q }),
      RangeError,
      /keys/,
    ],
    [
      'over the memory budget',
      () =>
        core.attention({
          queries: randomMatrix(5000, 1, 3),
          keys: randomMatrix(5000, 1, 4),
          values: randomMatrix(5000, 1, 5),
        }),
      RangeError,
      /limit/,
    ],
    ['encoding too large', () => core.sinusoidalEncoding(65536, 4096), RangeError, /64 MB/],
    ['layerNorm epsilon negative', () => core.layerNorm(q, { epsilon: -1 }), RangeError, /epsilon/],
    [
      'multiHead weights wrong shape',
      () => core.multiHeadAttention({ input: randomMatrix(3, 4, 1), numHeads: 2, wQ: q, wK: q, wV: q, wO: q }),
      RangeError,
      /W_Q/,
    ],
  ];
  for (const [name, call, ErrorType, message] of cases) {
    test(name, () => assert.throws(call, (error) => error instanceof ErrorType && message.test(error.message)));
  }

  test('after all of them the module still works and has not leaked', () => {
    const before = core.heapInUse();
    for (let i = 0; i < 200; i++) for (const [, call] of cases) assert.throws(call);
    assert.equal(core.heapInUse() - before, 0);
    assert.equal(core.explain('still fine').tokens.length, 2);
  });
});

describe('asset faults name the file and the reason', () => {
  const good = readFileSync(new URL('../../web/assets/embeddings.bin', import.meta.url));
  const variants = {
    'wrong version': (b) => {
      b[4] = 7;
      return b;
    },
    'wrong magic': (b) => {
      b[0] = 0x50;
      return b;
    },
    truncated: (b) => b.subarray(0, b.length - 1),
    corrupted: (b) => {
      b[b.length - 1] ^= 0xff;
      return b;
    },
    empty: () => new Uint8Array(0),
  };
  const reasons = {
    'wrong version': /version 7/,
    'wrong magic': /magic/,
    truncated: /truncated/,
    corrupted: /checksum/,
    empty: /header/,
  };
  for (const [name, damage] of Object.entries(variants)) {
    test(name, async () => {
      await assert.rejects(createAttentionCore({ embeddings: damage(new Uint8Array(good)) }), reasons[name]);
    });
  }
});

describe('the language models take any text: a defined result or a typed error, never NaN', () => {
  let causal, masked;
  before(async () => {
    [causal, masked] = await Promise.all([core.languageModel('causal'), core.languageModel('masked')]);
  });
  for (const [name, text] of Object.entries(TEXTS)) {
    test(name, () => {
      for (const model of [causal, masked]) {
        const tokens = core.tokenize(text).length;
        if (tokens === 0 || tokens > core.languageModelLimits.maxTokens) {
          assert.throws(
            () => model.run(text),
            (e) => e instanceof RangeError && /1 to 256 tokens/.test(e.message),
          );
          continue;
        }
        const r = model.run(text, { k: 3 });
        assert.ok(r.top.flat().every((w) => Number.isFinite(w.p) && w.p >= 0 && w.p <= 1));
        assert.ok(r.attention.flat().every((weights) => weights.every(Number.isFinite)));
        if (model === causal && tokens >= 2) assert.ok(Number.isFinite(causal.score(text).perplexity));
      }
    });
  }
  test('non-strings and bad k are typed errors', () => {
    for (const bad of [null, undefined, 42, {}, ['a']]) assert.throws(() => causal.run(bad), TypeError);
    for (const k of [0, -1, 1.5, 101, NaN]) assert.throws(() => masked.fillMask('the [MASK]', k), RangeError);
  });
});
