// The core's text front end through its public JS API (package export "./core"), in Node: the tokenizer's
// spans and GloVe (PTB) conventions, the word vectors and the post-processing behind the semantic head.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';

let core;
before(async () => {
  core = await createAttentionCore();
});

describe('tokenize and embed', () => {
  test('tokens carry UTF-16 spans into the original text and an OOV flag', () => {
    const text = 'The bank, 😀 blorptastic!';
    const tokens = core.tokenize(text);
    assert.deepEqual(
      tokens.map((t) => text.slice(t.start, t.end)),
      ['The', 'bank', ',', '😀', 'blorptastic', '!'],
    );
    assert.deepEqual(
      tokens.map((t) => t.oov),
      [false, false, false, true, true, false],
    );
  });

  test("contractions split as GloVe's (PTB) tokenizer did, and every part has a vector", () => {
    const text = "The animal didn’t cross the street because it's too tired; I'm sure a 1999 well-known rabbit-hole";
    const tokens = core.tokenize(text);
    assert.deepEqual(
      tokens.map((t) => text.slice(t.start, t.end)),
      [
        'The',
        'animal',
        'did',
        'n’t',
        'cross',
        'the',
        'street',
        'because',
        'it',
        "'s",
        'too',
        'tired',
        ';',
        'I',
        "'m",
        'sure',
        'a',
        '1999',
        'well-known',
        'rabbit',
        '-',
        'hole',
      ],
    );
    assert.deepEqual(
      tokens.filter((t) => t.oov).map((t) => t.text),
      [],
    );
    const trace = core.explain("The animal didn't cross the street because it was too tired");
    assert.equal(trace.tokens.length, 12);
    assert.ok(trace.tokens.every((t) => !t.oov && t.id >= 0));
  });

  test('allButTheTop: the fit behind the semantic head, 3 unit directions orthogonal to each other', () => {
    const { mean, directions, spectrum } = core.allButTheTop();
    assert.equal(mean.length, 100);
    assert.deepEqual(directions.shape, [3, 100]);
    assert.equal(spectrum.length, 8);
    const dot = (a, b) => {
      let s = 0;
      for (let c = 0; c < 100; c++) s += directions.data[a * 100 + c] * directions.data[b * 100 + c];
      return s;
    };
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 3; b++) assert.ok(Math.abs(dot(a, b) - (a === b ? 1 : 0)) < 1e-5, `u_${a} · u_${b}`);
    for (let k = 1; k < 8; k++) assert.ok(spectrum[k] <= spectrum[k - 1], 'spectrum descending');
  });

  test('lone surrogates are accepted and spans stay aligned', () => {
    const text = 'a \uD800 b';
    assert.deepEqual(
      core.tokenize(text).map((t) => [t.start, t.end]),
      [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
    );
  });

  test('embed returns [seqLen, 100]; similar words have similar vectors', () => {
    const x = core.embed('cat dog king queen');
    assert.deepEqual(x.shape, [4, 100]);
    const row = (i) => x.data.subarray(i * 100, (i + 1) * 100);
    const cosine = (a, b) => {
      let ab = 0,
        aa = 0,
        bb = 0;
      for (let i = 0; i < a.length; i++) {
        ab += a[i] * b[i];
        aa += a[i] * a[i];
        bb += b[i] * b[i];
      }
      return ab / Math.sqrt(aa * bb);
    };
    assert.ok(Math.abs(cosine(row(0), row(1)) - 0.88) < 0.02);
    assert.ok(Math.abs(cosine(row(2), row(3)) - 0.75) < 0.02);
  });
});
