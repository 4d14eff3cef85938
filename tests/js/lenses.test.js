// The lenses through the public JS API, against float64 references written here: additive
// (Bahdanau) scores, cross-attention, the normalizers' objective on the simplex, score costs.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

const SOURCE = 'the cat sat on the mat';
const TARGET = 'die katze zzyzxq auf der matte';

/** Columns [from, from + width) of a row-major [rows, cols] matrix, as float64. */
function columns({ data, shape: [rows, cols] }, from, width) {
  const out = new Float64Array(rows * width);
  for (let i = 0; i < rows; i++) for (let c = 0; c < width; c++) out[i * width + c] = data[i * cols + from + c];
  return out;
}

/** vᵀ tanh(W_q q_i + W_k k_j) for every pair, straight from the definition (Bahdanau et al. 2014, A.1.2). */
function additiveScores(q, k, n, m, d, { wQ, wK, v }) {
  const hidden = v.data.length;
  const a = ref.matmul(q, wQ.data, n, d, hidden),
    b = ref.matmul(k, wK.data, m, d, hidden);
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      for (let h = 0; h < hidden; h++) out[i * m + j] += v.data[h] * Math.tanh(a[i * hidden + h] + b[j * hidden + h]);
    }
  }
  return out;
}

function softmaxRows(scores, n, m) {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    const row = Array.from(scores.subarray(i * m, (i + 1) * m));
    const max = Math.max(...row);
    const e = row.map((s) => (s === -Infinity ? 0 : Math.exp(s - max)));
    const sum = e.reduce((x, y) => x + y, 0);
    e.forEach((x, j) => {
      out[i * m + j] = x / sum;
    });
  }
  return out;
}

describe('score functions', () => {
  test('additive: dotProducts are vᵀ tanh(W_q q + W_k k), weights their softmax ÷ τ', () => {
    const trace = core.explain(SOURCE, {
      numHeads: 2,
      projection: 'random',
      seed: 4,
      scoreFunction: 'additive',
      additiveHidden: 8,
      temperature: 0.7,
      causal: true,
    });
    assert.equal(trace.options.scoreFunction, 'additive');
    assert.equal(trace.options.additiveHidden, 8);
    const n = 6;
    for (const head of trace.heads) {
      assert.deepEqual(head.additiveScorer.wQ.shape, [50, 8]);
      const expected = additiveScores(head.queries.data, head.keys.data, n, n, 50, head.additiveScorer);
      ref.assertNear(head.dotProducts.data, expected, 1e-5, 'additive scores');
      const masked = expected.map((s, c) => (c % n > Math.floor(c / n) ? -Infinity : s / 0.7));
      ref.assertNear(head.weights.data, softmaxRows(masked, n, n), 1e-6, 'weights');
    }
  });

  const pick = ({ scoreFunction, scale, additiveHidden }) => ({ scoreFunction, scale, additiveHidden });
  test("'dot' is scale: false; designed heads keep dot products; bad names and sizes are refused", () => {
    const dot = core.explain(SOURCE, { scoreFunction: 'dot' });
    assert.equal(dot.options.scale, false);
    assert.deepEqual(dot.weights.data, core.explain(SOURCE, { scale: false }).weights.data);
    assert.equal(core.explain(SOURCE, { scale: false }).options.scoreFunction, 'dot');
    // The core decides what the score function implies, and every call reports it the same way.
    assert.deepEqual(pick(core.explain(SOURCE).options), {
      scoreFunction: 'scaledDot',
      scale: true,
      additiveHidden: 0,
    });
    assert.deepEqual(pick(core.compareContexts(SOURCE, 'a bank', { scale: false }).second.options), {
      scoreFunction: 'dot',
      scale: false,
      additiveHidden: 0,
    });
    assert.deepEqual(
      pick(core.explainCross(SOURCE, 'eine Bank', { scoreFunction: 'additive', additiveHidden: 8 }).options),
      { scoreFunction: 'additive', scale: false, additiveHidden: 8 },
    );
    const designed = core.explain(SOURCE, { numHeads: 2, heads: ['previous'], scoreFunction: 'additive' });
    assert.equal(designed.heads[0].additiveScorer, null);
    assert.notEqual(designed.heads[1].additiveScorer, null);
    assert.throws(() => core.explain(SOURCE, { scoreFunction: 'cosine' }), /scoreFunction must be one of/);
    assert.throws(() => core.explain(SOURCE, { scoreFunction: 'additive', additiveHidden: 0 }), RangeError);
  });

  test('scoreCost counts operations', () => {
    assert.deepEqual(core.scoreCost({ scoreFunction: 'dot', queries: 8, keys: 8, dK: 25 }), {
      multiplyAdds: 1600,
      additions: 0,
      divisions: 0,
      tanh: 0,
      total: 1600,
    });
    assert.equal(core.scoreCost({ scoreFunction: 'scaledDot', queries: 8, keys: 8, dK: 25 }).total, 1664);
    const additive = core.scoreCost({ scoreFunction: 'additive', queries: 8, keys: 8, dK: 25, hidden: 16 });
    assert.deepEqual(additive, { multiplyAdds: 7424, additions: 1024, divisions: 0, tanh: 1024, total: 9472 });
    assert.throws(() => core.scoreCost({ scoreFunction: 'dot', queries: -1, keys: 8, dK: 25 }), RangeError);
  });
});

describe('cross-attention', () => {
  test('shapes, the causal target, flagged unknown words, step 2 recomputed from its inputs', () => {
    const r = core.explainCross(SOURCE, TARGET, { numHeads: 4 });
    const s = 6,
      t = 6,
      dK = 25;
    assert.deepEqual(r.cross.weights.shape, [4, t, s]);
    assert.deepEqual(r.memory.shape, [s, 100]);
    assert.deepEqual(r.target.weights.shape, [4, t, t]);
    assert.ok(r.target.tokens[2].oov);
    for (let h = 0; h < 4; h++) {
      for (let i = 0; i < t; i++)
        for (let j = i + 1; j < t; j++) assert.equal(r.target.weights.data[(h * t + i) * t + j], 0);
      // Identity projections: head h reads columns 25h … 25h + 24 of Y and of the memory.
      const { weights } = ref.attention(
        columns(r.queriesInput, h * dK, dK),
        columns(r.memory, h * dK, dK),
        columns(r.memory, h * dK, dK),
        t,
        s,
        dK,
        dK,
      );
      ref.assertNear(r.cross.weights.data.subarray(h * t * s, (h + 1) * t * s), weights, 1e-5, `cross head ${h}`);
    }
    assert.ok(r.source.weights.data[5] > 0, 'the source is bidirectional');
  });

  test('empty sentences give no step 2; padding masks source keys', () => {
    assert.equal(core.explainCross(SOURCE, '').cross, null);
    assert.equal(core.explainCross('', TARGET).cross, null);
    const padded = core.explainCross(SOURCE, TARGET, { validLength: 2 });
    const w = padded.cross.weights.data;
    for (let i = 0; i < 6; i++) for (let j = 2; j < 6; j++) assert.equal(w[i * 6 + j], 0);
    assert.throws(() => core.explainCross(SOURCE, 42), TypeError);
  });

  test('repeated calls do not grow the wasm heap', () => {
    core.explainCross(SOURCE, TARGET, { numHeads: 2, scoreFunction: 'additive' });
    const before = core.heapInUse();
    for (let k = 0; k < 300; k++)
      core.explainCross(`${SOURCE} ${k}`, TARGET, { numHeads: 2, scoreFunction: 'additive' });
    assert.ok(core.heapInUse() - before < 64 * 1024, `heap grew by ${core.heapInUse() - before} bytes`);
  });
});

describe('the normalizers as regularized choices on the simplex', () => {
  const omega = {
    softmax: (p) => p.reduce((sum, x) => sum + (x > 0 ? x * Math.log(x) : 0), 0),
    sparsemax: (p) => 0.5 * (p.reduce((sum, x) => sum + x * x, 0) - 1),
    entmax15: (p) => (p.reduce((sum, x) => sum + x ** 1.5, 0) - 1) / 0.75,
    hardmax: () => 0,
  };
  const points = (() => {
    const rows = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1 / 3, 1 / 3, 1 / 3],
    ];
    const random = ref.randomMatrix(400, 3, 7);
    for (let i = 0; i < 400; i++) {
      const e = Array.from(random.data.subarray(i * 3, i * 3 + 3), (x) => Math.exp(2 * x));
      const sum = e.reduce((a, b) => a + b, 0);
      rows.push(e.map((x) => x / sum));
    }
    return { data: Float32Array.from(rows.flat()), shape: [rows.length, 3] };
  })();
  const scores = [1, 0.5, -0.5];

  for (const method of Object.keys(omega)) {
    test(`${method}: f(p) = ⟨p, s⟩/τ − Ω(p), maximized by normalize()`, () => {
      const f = core.simplexObjective(points, scores, { method, temperature: 0.8 });
      assert.deepEqual(f.shape, [points.shape[0]]);
      const expected = [];
      for (let i = 0; i < points.shape[0]; i++) {
        const p = Array.from(points.data.subarray(i * 3, i * 3 + 3));
        expected.push(p.reduce((sum, x, j) => sum + x * scores[j], 0) / 0.8 - omega[method](p));
      }
      ref.assertNear(f.data, expected, 1e-5, `${method} objective`);
      const best = core.normalize({ data: Float32Array.from(scores), shape: [1, 3] }, { method, temperature: 0.8 });
      const atBest = core.simplexObjective(best, scores, { method, temperature: 0.8 }).data[0];
      assert.ok(Math.max(...f.data) <= atBest + 1e-5, `${method}: a grid point beats the normalizer`);
    });
  }

  test('points off the simplex and bad scores are refused', () => {
    const off = { data: Float32Array.of(0.5, 0.6, 0), shape: [1, 3] };
    assert.throws(() => core.simplexObjective(off, scores), /not on the simplex|sums to/);
    assert.throws(() => core.simplexObjective(points, [1, 2]), RangeError);
    assert.throws(() => core.simplexObjective(points, [1, NaN, 2]), /finite numbers/);
    assert.throws(() => core.simplexObjective(points, scores, { method: 'argmax' }), /method must be one of/);
  });
});
