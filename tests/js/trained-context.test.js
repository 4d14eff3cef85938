// Context moves meaning, trained (web/src/lessons/lenses/trained-context.js) and what it reads from the core: core.pca
// against a power iteration written here, run()'s input rows against core.embed and core.sinusoidalEncoding, the
// word the figure follows, and its cosines against a recomputation from run().
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { contextData, contextInputs, cosine, sharedWord } from '../../web/src/lessons/lenses/trained-context.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';

let core, masked;
before(async () => {
  core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits); // the model registry's names
  masked = await core.languageModel('masked');
});

const dot = (a, b) => a.reduce((sum, x, j) => sum + x * b[j], 0);

/** The top eigenvector and eigenvalue of the rows' covariance (÷ n), by power iteration in double. */
function topComponent(rows) {
  const n = rows.length,
    d = rows[0].length;
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((s, r) => s + r[j], 0) / n);
  const centred = rows.map((r) => r.map((x, j) => x - mean[j]));
  let v = Array.from({ length: d }, (_, j) => 1 + j / d);
  for (let it = 0; it < 2000; ++it) {
    const w = new Array(d).fill(0);
    for (const r of centred) {
      const c = dot(r, v);
      r.forEach((x, j) => {
        w[j] += (x * c) / n;
      });
    }
    const norm = Math.hypot(...w);
    v = w.map((x) => x / norm);
  }
  const variance = centred.reduce((s, r) => s + dot(r, v) ** 2, 0) / n;
  return { mean, v, variance, centred };
}

test('core.pca: the first component, its variance and the coordinates equal a power iteration; bad input is refused', () => {
  const n = 9,
    d = 12;
  const rows = Array.from({ length: n }, (_, i) =>
    Array.from({ length: d }, (_, j) => Math.sin(1.3 * i + 0.7 * j * j) + (j === 3 ? 2 * i : 0)),
  );
  const { components, variance, coordinates } = core.pca(
    { data: Float32Array.from(rows.flat()), shape: [n, d] },
    { k: 2 },
  );
  const expected = topComponent(rows);
  const first = Array.from(components.data.subarray(0, d));
  assert.ok(Math.abs(Math.abs(dot(first, expected.v)) - 1) < 1e-5, 'the same direction');
  assert.ok(
    Math.abs(variance.data[0] - expected.variance) < 1e-4 * expected.variance,
    `${variance.data[0]} vs ${expected.variance}`,
  );
  assert.ok(variance.data[1] <= variance.data[0]);
  expected.centred.forEach((r, i) => assert.ok(Math.abs(coordinates.data[2 * i] - dot(r, first)) < 1e-4, `row ${i}`));
  assert.throws(() => core.pca({ data: new Float32Array([1, NaN]), shape: [1, 2] }), RangeError);
  assert.throws(() => core.pca({ data: new Float32Array(4), shape: [2, 2] }, { k: 3 }), RangeError);
  assert.throws(() => core.pca({ data: new Float32Array(4), shape: [2, 2] }, { q: 1 }), RangeError);
});

test('run(): embeddings are the GloVe rows (one <unk> row for every unknown word), input = embeddings + sinusoidal P', () => {
  const text = 'the bank by the zzqx bank qqzv';
  const r = masked.run(text, { k: 1, positions: [-1] });
  const T = r.tokens.length,
    d = 100;
  const glove = core.embed(text),
    p = core.sinusoidalEncoding(T, d);
  for (let t = 0; t < T; ++t) {
    for (let j = 0; j < d; ++j) {
      const e = r.embeddings.data[t * d + j];
      if (!r.tokens[t].oov) assert.equal(e, glove.data[t * d + j], `token ${t}, ${j}`);
      assert.ok(Math.abs(r.input.data[t * d + j] - (e + p.data[t * d + j])) < 1e-6, `x₀ at ${t}, ${j}`);
    }
  }
  assert.deepEqual(
    [4, 6].map((t) => r.tokens[t].oov),
    [true, true],
  );
  assert.deepEqual(
    r.embeddings.data.subarray(4 * d, 5 * d),
    r.embeddings.data.subarray(6 * d, 7 * d),
    'the one <unk> row',
  );
  assert.deepEqual(
    r.embeddings.data.subarray(1 * d, 2 * d),
    r.embeddings.data.subarray(5 * d, 6 * d),
    '"bank" twice: one row',
  );
});

test('the followed word: the rarest shared one ("bank", not "the"), an unknown word last, none when nothing is shared', () => {
  const tokens = (text, oov = []) =>
    text.split(' ').map((word) => ({ text: word, oov: oov.includes(word), mask: false }));
  const vocabulary = ['the', 'at', 'was', 'money', 'bank'];
  assert.deepEqual(
    sharedWord([tokens('the river bank was muddy'), tokens('she deposited money at the bank')], vocabulary),
    { word: 'bank', positions: [2, 5] },
  );
  assert.deepEqual(
    sharedWord([tokens('The Shore was wet'), tokens('the shore')], vocabulary),
    { word: 'shore', positions: [1, 1] },
    'past the vocabulary: rarer',
  );
  assert.deepEqual(sharedWord([tokens('the zzqx', ['zzqx']), tokens('zzqx the', ['zzqx'])], vocabulary), {
    word: 'the',
    positions: [0, 1],
  });
  assert.equal(sharedWord([tokens('a river'), tokens('some money')], vocabulary), null);
  assert.equal(cosine([1, 0], [0, 0]), 0);
  assert.ok(Math.abs(cosine([1, 2, 2], [2, 4, 4]) - 1) < 1e-15);
});

test('contextData: one stage per step of the encoder, each cosine recomputed from run(); closed without a comparison', () => {
  const models = { get: () => ({ model: masked }) };
  const state = {
    model: 'masked',
    compare: true,
    sentence: 'the river bank was muddy',
    compareSentence: 'she deposited money at the bank',
  };
  const inputs = contextInputs(state, models);
  assert.deepEqual(inputs, { kind: 'masked', sentences: [state.sentence, state.compareSentence], status: 'ready' });
  const data = contextData(core, models, inputs);
  assert.equal(data.word, 'bank');
  const layers = masked.config.numLayers;
  assert.deepEqual(
    data.stages.map((s) => s.id),
    ['word', 'input', ...Array(layers).fill('layer')],
  );
  const runs = inputs.sentences.map((s) => masked.run(s, { k: 1 }));
  const row = (m, i) => Array.from(m.data.subarray(i * 100, (i + 1) * 100));
  const picks = [(r) => r.embeddings, (r) => r.input, ...Array.from({ length: layers }, (_, l) => (r) => r.hidden[l])];
  const expected = picks.map((pick) => {
    const [a, b] = [row(pick(runs[0]), 2), row(pick(runs[1]), 5)];
    return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  });
  data.stages.forEach((s, k) =>
    assert.ok(Math.abs(s.cosine - expected[k]) < 1e-9, `stage ${k}: ${s.cosine} vs ${expected[k]}`),
  );
  assert.equal(data.stages[0].cosine, 1);
  assert.deepEqual(data.stages[0].points[0], data.stages[0].points[1]);
  assert.deepEqual(contextData(core, models, contextInputs({ ...state, compare: false }, models)), { closed: true });
  assert.equal(contextInputs({ ...state, model: 'designed' }, models), null);
  assert.ok(contextData(core, models, { ...inputs, sentences: ['a river', 'some money'] }).noShared);
});
