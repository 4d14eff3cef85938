// Heads knocked out (languageModel run()'s `ablate`) and "why this word?" (attribute()) through the JS API, against a
// float64 recomputation from model.parameters() (lm-reference.js) and against the same runs done one by one.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { referenceBlocks } from './lm-reference.js';
import { sinusoidal } from './reference.js';

let core, causal, masked;
before(async () => {
  core = await createAttentionCore();
  [causal, masked] = await Promise.all([core.languageModel('causal'), core.languageModel('masked')]);
});

const SENTENCE = 'The river bank was muddy after the storm';
const BLANK = 'The river bank was [MASK] after the storm';

/** ln softmax(x_L[t] U + b)[o] for every output o, in float64 (U: the `unembedding` parameter; the models are untied). */
function logSoftmaxAt(model, x, t) {
  const p = model.parameters();
  const { dModel: d, outputSize: V } = model.config;
  const u = p.unembedding.data,
    b = p.output_bias.data;
  const logits = new Float64Array(V);
  for (let o = 0; o < V; o++) {
    let sum = b[o];
    for (let j = 0; j < d; j++) sum += x[t * d + j] * u[j * V + o];
    logits[o] = sum;
  }
  const max = Math.max(...logits);
  const log = Math.log(logits.reduce((total, z) => total + Math.exp(z - max), 0));
  return logits.map((z) => z - max - log);
}

/**
 * The logits of `words` at row t of x_L: x_L[t] · U[:, o] + b[o], U the `unembedding` parameter, or for a tied output
 * (the masked model) each word's own input row (as run() reads it: its frozen vector, or the learned <unk> row).
 */
function logitsOf(model, x, t, words) {
  const p = model.parameters();
  const { dModel: d, outputSize: V } = model.config;
  return words.map((word) => {
    const o = model.vocabulary.indexOf(word);
    const column = p.unembedding
      ? Array.from({ length: d }, (_, j) => p.unembedding.data[j * V + o])
      : word === '<unk>'
        ? p.embedding.data
        : model.run(word).embeddings.data;
    let sum = p.output_bias.data[o];
    for (let j = 0; j < d; j++) sum += x[t * d + j] * column[j];
    return sum;
  });
}

/** x₀ = each token's input row + P, from a run's embeddings (the rows the model read), with rows replaced where asked. */
function input(run, dModel, replace = new Map()) {
  const T = run.tokens.length;
  const P = sinusoidal(T, dModel);
  const x = new Float64Array(T * dModel);
  for (let t = 0; t < T; t++) {
    const row = replace.get(t) ?? run.embeddings.data.subarray(t * dModel, (t + 1) * dModel);
    for (let j = 0; j < dModel; j++) x[t * dModel + j] = row[j] + P[t * dModel + j];
  }
  return x;
}

const key = (heads) => new Set(heads.map(({ layer, head }) => `${layer},${head}`));
const maxDiff = (a, b) => a.reduce((worst, value, i) => Math.max(worst, Math.abs(value - b[i])), 0);

describe('languageModel run(): ablate', () => {
  test('the hidden states and the predictions equal a float64 recomputation with those heads zeroed', () => {
    const ablate = [
      { layer: 0, head: 1 },
      { layer: 1, head: 3 },
    ];
    for (const [model, text, position] of [
      [causal, SENTENCE, 7],
      [masked, BLANK, 4],
    ]) {
      const { config } = model;
      const plain = model.run(text, { k: 10, positions: [position] });
      const r = model.run(text, { k: 10, positions: [position], ablate });
      const T = r.tokens.length;
      const hidden = referenceBlocks(
        model.parameters(),
        config,
        input(r, config.dModel),
        T,
        config.objective === 'causal',
        key(ablate),
      );
      hidden.forEach((x, l) => {
        const worst = maxDiff(r.hidden[l].data, x);
        console.log(`${config.kind}, L1 H2 and L2 H4 off: x_${l + 1} max |core − float64| ${worst.toExponential(2)}`);
        assert.ok(worst < 1e-4, `${config.kind} layer ${l + 1}: ${worst}`);
      });
      // ln p(w_i) − ln p(w_1) = logit_i − logit_1 (the softmax's normalizer cancels): the top 10 against the reference.
      const top = r.top[position];
      const logits = logitsOf(
        model,
        hidden.at(-1),
        position,
        top.map((w) => w.word),
      );
      let worst = 0;
      top.forEach(({ p }, i) => {
        const expected = logits[i] - logits[0];
        worst = Math.max(worst, Math.abs(Math.log(p) - Math.log(top[0].p) - expected));
      });
      console.log(
        `${config.kind}: top-10 ln p differences at ${position}: max |core − float64| ${worst.toExponential(2)}`,
      );
      assert.ok(worst < 1e-4, `${config.kind}: within 1e-4 nats (float32 logits)`);
      assert.notDeepEqual(
        r.top[position].map((w) => w.p),
        plain.top[position].map((w) => w.p),
        'knocking the heads out changed the predictions',
      );
      // Layer 1's weights come before any knocked-out output; layer 2's read the changed x_1.
      assert.deepEqual(r.attention[0], plain.attention[0]);
      assert.notDeepEqual(r.attention[1], plain.attention[1]);
    }
  });

  test('no head, or an empty list, is the plain run', () => {
    assert.deepEqual(causal.run(SENTENCE, { ablate: [] }).top, causal.run(SENTENCE).top);
  });

  test('a head that does not exist, a malformed entry or a head listed twice is an error naming it', () => {
    const bad = [
      [{ layer: 4, head: 0 }, RangeError, /ablate\[0\]\.layer must be an integer from 0 to 3, got 4/],
      [{ layer: 0, head: 4 }, RangeError, /ablate\[0\]\.head must be an integer from 0 to 3, got 4/],
      [{ layer: 0, head: -1 }, RangeError, /ablate\[0\]\.head/],
      [{ layer: 0, head: 1.5 }, RangeError, /ablate\[0\]\.head/],
      [{ layer: '0', head: 1 }, TypeError, /ablate\[0\]\.layer must be a number/],
      [{ layer: 0 }, TypeError, /ablate\[0\]\.head must be a number/],
      [{ layer: 0, head: 1, weight: 2 }, RangeError, /unknown option 'weight'/],
      [null, TypeError, /ablate\[0\] must be \{ layer, head \}, got null/],
    ];
    for (const [entry, ErrorClass, message] of bad) {
      assert.throws(() => causal.run(SENTENCE, { ablate: [entry] }), { name: ErrorClass.name, message });
    }
    assert.throws(
      () =>
        causal.run(SENTENCE, {
          ablate: [
            { layer: 1, head: 2 },
            { layer: 1, head: 2 },
          ],
        }),
      { name: 'RangeError', message: /ablate\[1\]: layer 1, head 2 is listed twice/ },
    );
    assert.throws(() => causal.run(SENTENCE, { ablate: '0,1' }), {
      name: 'TypeError',
      message: /ablate must be an array/,
    });
  });
});

describe('languageModel attribute()', () => {
  /** ln p(word) at position from a plain run with these heads off (the word must be in the top 100). */
  function logPByRun(model, text, position, word, ablate) {
    const top = model.run(text, { k: 100, positions: [position], ablate }).top.at(position);
    const found = top.find((w) => w.word === word);
    assert.ok(found, `${word} in the top 100`);
    return Math.log(found.p);
  }

  test('each head: ln p with it also off minus ln p, as the runs give it one by one', () => {
    for (const [model, text, position] of [
      [causal, SENTENCE, 7],
      [masked, BLANK, 4],
    ]) {
      const ablate = [{ layer: 1, head: 0 }];
      const word = model.run(text, { k: 1, positions: [position], ablate }).top[position][0].word;
      const a = model.attribute(text, { position, word, ablate });
      assert.equal(a.position, position);
      assert.equal(a.word, word);
      const base = logPByRun(model, text, position, word, ablate);
      assert.ok(Math.abs(a.logProb - base) < 1e-5, `${a.logProb} vs ${base}`);
      const { numLayers, numHeads } = model.config;
      assert.equal(a.heads.length, numLayers * numHeads);
      for (let i = 0; i < numLayers * numHeads; i++) {
        const head = { layer: Math.floor(i / numHeads), head: i % numHeads };
        if (head.layer === 1 && head.head === 0) {
          assert.equal(a.heads[i], 0, 'a head already off changes nothing');
          continue;
        }
        const off = logPByRun(model, text, position, word, [...ablate, head]);
        assert.ok(
          Math.abs(a.heads[i] - (off - base)) < 1e-5,
          `${model.config.kind} head ${i}: ${a.heads[i]} vs ${off - base}`,
        );
      }
      assert.ok(
        a.heads.some((delta) => Math.abs(delta) > 1e-3),
        'some head matters',
      );
    }
  });

  test('each token replaced by [MASK]: the runs of the text with that word written [MASK] (encoder), the float64 reference (decoder)', () => {
    const word = masked.run(BLANK, { k: 1, positions: 'masks' }).top[4][0].word;
    const a = masked.attribute(BLANK, { position: 4, word });
    const base = logPByRun(masked, BLANK, 4, word, []);
    const words = BLANK.split(' ');
    for (let t = 0; t < words.length; t++) {
      if (t === 4) {
        assert.equal(a.occlusion[t], 0, 'the blank itself');
        continue;
      }
      const text = words.map((w, i) => (i === t ? '[MASK]' : w)).join(' ');
      const expected = logPByRun(masked, text, 4, word, []) - base;
      assert.ok(Math.abs(a.occlusion[t] - expected) < 1e-5, `token ${t}: ${a.occlusion[t]} vs ${expected}`);
    }
    // The decoder never saw [MASK] in a text (run() refuses it): its input row is the same mean vector the encoder reads.
    const maskRow = masked.run('[MASK]').embeddings.data;
    const c = causal.attribute(SENTENCE, { position: 3, word: 'wet' });
    const r = causal.run(SENTENCE, { k: 1 });
    const T = r.tokens.length;
    const o = causal.vocabulary.indexOf('wet');
    const logPWith = (replace) =>
      logSoftmaxAt(
        causal,
        referenceBlocks(causal.parameters(), causal.config, input(r, 100, replace), T, true, new Set()).at(-1),
        3,
      )[o];
    const plain = logPWith(new Map());
    assert.ok(Math.abs(c.logProb - plain) < 1e-4, `${c.logProb} vs ${plain}`);
    for (let t = 0; t < T; t++) {
      if (t > 3) {
        assert.equal(c.occlusion[t], 0, 'the decoder cannot see words after the position');
        continue;
      }
      const expected = logPWith(new Map([[t, maskRow]])) - plain;
      assert.ok(Math.abs(c.occlusion[t] - expected) < 1e-4, `decoder token ${t}: ${c.occlusion[t]} vs ${expected}`);
    }
  });

  test('bad arguments are errors naming them; the heap does not grow', () => {
    assert.throws(() => causal.attribute(SENTENCE, { position: 8, word: 'the' }), {
      name: 'RangeError',
      message: /position must be in \[-8, 8\) for 8 tokens, got 8/,
    });
    assert.throws(() => causal.attribute(SENTENCE, { position: 0, word: 'zzqxv' }), {
      name: 'RangeError',
      message: /word 'zzqxv' is not in the model's output vocabulary/,
    });
    assert.throws(() => causal.attribute(SENTENCE, { position: 0, word: 7 }), { name: 'TypeError' });
    assert.throws(() => causal.attribute(SENTENCE, { position: 0.5, word: 'the' }), { name: 'RangeError' });
    assert.throws(() => causal.attribute(SENTENCE, { position: 0, word: 'the', ablate: [{ layer: 5, head: 0 }] }), {
      name: 'RangeError',
      message: /ablate\[0\]\.layer/,
    });
    assert.throws(() => causal.attribute('the [MASK]', { position: 0, word: 'the' }), { name: 'RangeError' });
    assert.throws(() => causal.attribute(SENTENCE, { position: 0, word: 'the', k: 3 }), {
      message: /unknown option 'k'/,
    });
    causal.attribute(SENTENCE, { position: -1, word: 'the' });
    const heap = core.heapInUse();
    const start = performance.now();
    for (let i = 0; i < 50; ++i) {
      causal.attribute(SENTENCE, { position: -1, word: 'the', ablate: [{ layer: 0, head: 0 }] });
      assert.throws(() => causal.attribute(SENTENCE, { position: 99, word: 'the' }));
    }
    console.log(
      `attribute() on ${SENTENCE.split(' ').length} tokens: ${((performance.now() - start) / 50).toFixed(1)} ms a call`,
    );
    assert.ok(core.heapInUse() <= heap + 4096, `heap ${heap} → ${core.heapInUse()}`);
  });
});

test('sample() draws with the heads in ablate knocked out, as run() shows them', async () => {
  const core = await createAttentionCore();
  const model = await core.languageModel('causal');
  const text = 'the old man carried a leather bag . inside the leather';
  const ablate = [{ layer: 2, head: 0 }]; // an induction head (config.heads): without it “bag” is not copied
  const argmax = (options) => model.run(text, { positions: [-1], k: 1, ...options }).top.at(-1)[0].word;
  assert.notEqual(argmax({ ablate }), argmax({}), 'the knockout changes the likeliest word of this text');
  assert.equal(model.sample(text, { topK: 1, ablate }).word, argmax({ ablate }));
  assert.equal(model.sample(text, { topK: 1 }).word, argmax({}));
  assert.throws(() => model.sample(text, { ablate: [{ layer: 9, head: 0 }] }), RangeError);
});
