// The positional-encoding lab through the public JS API: positionalEncodingLab(), explain's
// positionChecks and scales, and multiHeadAttention's positionalEncoding, against float64 references.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

const near = ref.assertNear;

const identity = (d) => ({
  data: Float32Array.from({ length: d * d }, (_, i) => (i % (d + 1) === 0 ? 1 : 0)),
  shape: [d, d],
});

describe('positionalEncodingLab', () => {
  test('P, wavelengths and bits equal their formulas', () => {
    const lab = core.positionalEncodingLab({ positions: 60, dModel: 32, base: 10000, position: 3, delta: 5 });
    assert.deepEqual(lab.encoding.shape, [60, 32]);
    near(lab.encoding.data, ref.sinusoidal(60, 32), 1e-6, 'P');
    for (let c = 0; c < 32; c++) {
      const expected = 2 * Math.PI * 10000 ** ((c - (c % 2)) / 32);
      assert.ok(Math.abs(lab.wavelengths[c] - expected) < 1e-9 * expected, `wavelength of column ${c}`);
    }
    assert.deepEqual(lab.bits.shape, [60, 6]);
    for (let i = 0; i < 60; i++) {
      for (let b = 0; b < 6; b++) assert.equal(lab.bits.data[i * 6 + b], (i >> b) & 1);
    }
  });

  test('P Pᵀ equals the float64 product and depends only on the offset', () => {
    const n = 40,
      d = 64;
    const lab = core.positionalEncodingLab({ positions: n, dModel: d });
    const p = ref.sinusoidal(n, d);
    const transposed = Float64Array.from({ length: d * n }, (_, idx) => p[(idx % n) * d + Math.floor(idx / n)]);
    near(lab.similarity.data, ref.matmul(p, transposed, n, d, n), 1e-4, 'P Pᵀ');
    for (let i = 1; i < n; i++)
      near([lab.similarity.data[i * n + i - 1]], [lab.similarity.data[n]], 1e-4, `offset 1 at row ${i}`);
    for (let i = 0; i < n; i++) assert.ok(Math.abs(lab.cosineSimilarity.data[i * n + i] - 1) < 1e-6);
  });

  test("the rotation check: < 1e-5 with the core's angles, growing with float32 angles", () => {
    const lab = core.positionalEncodingLab({ positions: 1024, dModel: 512, position: 1000, delta: 7 });
    const { float64Angles, float32Angles } = lab.rotation;
    assert.equal(float64Angles.angles.shape[0], 256);
    assert.ok(Math.abs(float64Angles.angles.data[0] - 7) < 1e-6);
    assert.ok(float64Angles.maxError < 1e-5, `float64 angles: ${float64Angles.maxError}`);
    near(float64Angles.rotated.data, float64Angles.target.data, 1e-5, 'R(δ) p_i vs p_{i+δ}');
    near(float64Angles.target.data, ref.sinusoidal(1008, 512).subarray(1007 * 512, 1008 * 512), 1e-6, 'p_{i+δ}');
    assert.ok(float32Angles.maxError > 1e-5, `float32 angles at position 1000: ${float32Angles.maxError}`);
    const errors = lab.rotationErrorByPosition;
    assert.deepEqual(errors.float64Angles.shape, [1024]);
    assert.ok(Math.max(...errors.float64Angles.data) < 1e-5);
    assert.ok(Math.max(...errors.float32Angles.data.subarray(0, 16)) < 1e-5);
    assert.ok(Math.max(...errors.float32Angles.data) > 1e-5);
  });

  test('bad arguments name themselves', () => {
    assert.throws(() => core.positionalEncodingLab({ positions: 10, dModel: 7 }), {
      name: 'RangeError',
      message: /dModel must be even/,
    });
    assert.throws(() => core.positionalEncodingLab({ positions: 0 }), { name: 'RangeError', message: /positions/ });
    assert.throws(() => core.positionalEncodingLab({ positions: 10, position: 8, delta: 2 }), {
      name: 'RangeError',
      message: /delta/,
    });
    assert.throws(() => core.positionalEncodingLab({ positions: 10, base: 1 }), {
      name: 'RangeError',
      message: /base/,
    });
    assert.throws(() => core.positionalEncodingLab({ positions: 10, bases: 2 }), {
      name: 'RangeError',
      message: /unknown option 'bases'/,
    });
    assert.throws(() => core.positionalEncodingLab({ positions: '10' }), { name: 'TypeError', message: /positions/ });
  });
});

describe('explain: positionChecks and scales', () => {
  const options = { numHeads: 4, projection: 'random', seed: 3, positionChecks: true, shuffleSeed: 1 };

  test('score terms sum to the scores; the same word twice; the shuffled sentence', () => {
    const t = core.explain('the dog chased the cat', options);
    const checks = t.positionChecks;
    assert.equal(checks.scoreTerms.length, 4);
    const n = 5;
    for (let h = 0; h < 4; h++) {
      const terms = checks.scoreTerms[h];
      const sum = terms.contentContent.data.map(
        (v, i) => v + terms.contentPosition.data[i] + terms.positionContent.data[i] + terms.positionPosition.data[i],
      );
      near(sum, t.scores.data.subarray(h * n * n, (h + 1) * n * n), 1e-4, `head ${h}: Σ terms vs scores`);
    }
    assert.deepEqual(
      checks.repeated.map(({ key, first, second }) => [key, first, second]),
      [['the', 0, 3]],
    );
    assert.ok(checks.repeated[0].maxDifference.queries > 0.05);
    assert.equal(checks.shuffle.order.length, 5);
    assert.deepEqual([...checks.shuffle.order].sort(), [0, 1, 2, 3, 4]);
    assert.ok(checks.shuffle.maxWeightDifference > 1e-3);
    assert.deepEqual(checks.embeddingNorms.shape, [5]);
    for (const norm of checks.positionalNorms.data) assert.ok(Math.abs(norm - Math.sqrt(50)) < 1e-5);
  });

  test('without position information: identical q, k, v and an exact un-shuffle', () => {
    const t = core.explain('the dog chased the cat', { ...options, positionalEncoding: 'none' });
    assert.deepEqual(t.positionChecks.repeated[0].maxDifference, { queries: 0, keys: 0, values: 0 });
    assert.ok(t.positionChecks.shuffle.maxWeightDifference < 1e-6);
    assert.ok(t.positionChecks.shuffle.maxOutputDifference < 1e-5);
    assert.deepEqual(t.positionChecks.scoreTerms, []);
    assert.equal(core.explain('a b').positionChecks, null);
  });

  test('the scales multiply X and P before they are added', () => {
    const plain = core.explain('king queen');
    const scaled = core.explain('king queen', { embeddingScale: 10, positionalScale: 0.5 });
    near(
      scaled.input.data,
      plain.embeddings.data.map((x, i) => 10 * x + 0.5 * plain.positional.data[i]),
      1e-5,
      'input',
    );
    assert.throws(() => core.explain('a', { positionalScale: -1 }), {
      name: 'RangeError',
      message: /positionalScale must be a finite number at least 0/,
    });
    assert.throws(() => core.explain('a', { embeddingScale: 0 }), { name: 'RangeError', message: /embeddingScale/ });
    assert.throws(() => core.explain('a', { positionChecks: 'yes' }), { name: 'TypeError', message: /positionChecks/ });
  });
});

describe('multiHeadAttention: positionalEncoding', () => {
  test('every kind agrees with explain on the same word vectors', () => {
    const text = 'the cat sat on the mat';
    const input = core.embed(text);
    const w = identity(100);
    for (const kind of ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5']) {
      const t = core.explain(text, { numHeads: 4, positionalEncoding: kind, seed: 7 });
      const r = core.multiHeadAttention({
        input,
        numHeads: 4,
        wQ: w,
        wK: w,
        wV: w,
        wO: w,
        positionalEncoding: kind,
        seed: 7,
      });
      near(r.weights.data, t.weights.data, 1e-6, `${kind}: weights`);
    }
  });

  test("alibiSlopes: 'paper' (default) 2^(−8h/n), 'reference' the authors' get_slopes(); unknown names are named", () => {
    // One token pair at distance 1 per head, no content (zero input): head h's scores are [0, −m_h] on row 0
    // after the scale, so softmax gives w[0, 1] = 1 / (1 + e^{m_h}).
    const n = 2,
      d = 10,
      heads = 5;
    const input = { data: new Float32Array(n * d), shape: [n, d] };
    const w = identity(d);
    const slopesOf = (r) => Array.from({ length: heads }, (_, h) => -r.scores.data[h * n * n + 1]);
    const paper = slopesOf(
      core.multiHeadAttention({ input, numHeads: heads, wQ: w, wK: w, wV: w, wO: w, positionalEncoding: 'alibi' }),
    );
    near(
      paper,
      [1, 2, 3, 4, 5].map((h) => 2 ** ((-8 * h) / heads)),
      1e-6,
      'paper',
    );
    const reference = slopesOf(
      core.multiHeadAttention({
        input,
        numHeads: heads,
        wQ: w,
        wK: w,
        wV: w,
        wO: w,
        positionalEncoding: 'alibi',
        alibiSlopes: 'reference',
      }),
    );
    near(reference, [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2], 1e-7, 'reference');
    const traced = core.explain('the cat sat on the mat', {
      numHeads: 5,
      positionalEncoding: 'alibi',
      alibiSlopes: 'reference',
      encoderBlock: false,
      project2d: false,
    });
    const api = core.multiHeadAttention({
      input: core.embed('the cat sat on the mat'),
      numHeads: 5,
      wQ: identity(100),
      wK: identity(100),
      wV: identity(100),
      wO: identity(100),
      positionalEncoding: 'alibi',
      alibiSlopes: 'reference',
    });
    near(api.weights.data, traced.weights.data, 1e-6, 'explain and multiHeadAttention agree');
    assert.throws(
      () =>
        core.multiHeadAttention({
          input,
          numHeads: heads,
          wQ: w,
          wK: w,
          wV: w,
          wO: w,
          positionalEncoding: 'alibi',
          alibiSlopes: 'bloom',
        }),
      { name: 'RangeError', message: "alibiSlopes must be one of 'paper', 'reference', got 'bloom'" },
    );
    assert.throws(() => core.explain('a b', { alibiSlopes: 2 }), {
      name: 'TypeError',
      message: /alibiSlopes must be a string/,
    });
  });

  test('sinusoidal equals adding P to the input; default none leaves it', () => {
    const input = ref.randomMatrix(5, 8, 3);
    const w = identity(8);
    const p = core.sinusoidalEncoding(5, 8);
    const added = { data: input.data.map((x, i) => x + p.data[i]), shape: [5, 8] };
    const a = core.multiHeadAttention({
      input,
      numHeads: 2,
      wQ: w,
      wK: w,
      wV: w,
      wO: w,
      positionalEncoding: 'sinusoidal',
    });
    const b = core.multiHeadAttention({ input: added, numHeads: 2, wQ: w, wK: w, wV: w, wO: w });
    near(a.output.data, b.output.data, 1e-6, 'output');
    assert.throws(
      () => core.multiHeadAttention({ input, numHeads: 2, wQ: w, wK: w, wV: w, wO: w, positionalEncoding: 'relative' }),
      { name: 'RangeError', message: /positionalEncoding/ },
    );
  });
});

test('the wasm heap does not grow over 200 lab and checked explain calls', () => {
  core.positionalEncodingLab({ positions: 64, dModel: 64 });
  core.explain('warm up', { positionChecks: true });
  const before = core.heapInUse();
  for (let i = 0; i < 200; i++) {
    core.positionalEncodingLab({ positions: 64 + (i % 5), dModel: 64, delta: 3 });
    core.explain(`the word ${i} and the word`, { numHeads: 2, positionChecks: true, shuffleSeed: i });
    assert.throws(() => core.positionalEncodingLab({ positions: 10, dModel: 3 }));
  }
  assert.equal(core.heapInUse() - before, 0);
});
