// core.normalize through the public JS API, against float64 references written here, independently
// of the C++ code: softmax by its formula, sparsemax by the sort/threshold formula (Martins & Astudillo
// 2016), entmax15 by bisection on τ (Peters et al. 2019), hardmax with ties shared.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

const near = ref.assertNear;
const METHODS = ['softmax', 'sparsemax', 'entmax15', 'hardmax'];

/** Applies `rowFn` (finite values of one row, −Infinity dropped → weights) to every row; masked cells 0. */
function byRow(scores, temperature, rowFn) {
  const [rows, cols] = scores.shape;
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const row = Array.from(scores.data.subarray(i * cols, (i + 1) * cols), (s) => s / temperature);
    const live = row.map((z, j) => j).filter((j) => row[j] !== -Infinity);
    if (live.length === 0) continue;
    const p = rowFn(live.map((j) => row[j]));
    live.forEach((j, k) => {
      out[i * cols + j] = p[k];
    });
  }
  return out;
}

const reference = {
  softmax(z) {
    const max = Math.max(...z);
    const e = z.map((x) => Math.exp(x - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  },
  // Sort descending; k = the largest k with 1 + k·z_(k) > Σ_{j≤k} z_(j); τ = (Σ_{j≤k} z_(j) − 1) / k.
  sparsemax(z) {
    const sorted = [...z].sort((a, b) => b - a);
    let sum = 0,
      tau = 0;
    sorted.forEach((x, index) => {
      sum += x;
      if (1 + (index + 1) * x > sum) tau = (sum - 1) / (index + 1);
    });
    return z.map((x) => Math.max(x - tau, 0));
  },
  // Σ_j max(z_j/2 − τ, 0)² is decreasing in τ: ≥ 1 at τ = max/2 − 1, 0 at τ = max/2. Bisect to the end.
  entmax15(z) {
    const u = z.map((x) => x / 2);
    const top = Math.max(...u);
    const mass = (tau) => u.reduce((a, x) => a + Math.max(x - tau, 0) ** 2, 0);
    let low = top - 1,
      high = top;
    for (let step = 0; step < 200; step++) {
      const mid = (low + high) / 2;
      if (mass(mid) >= 1) low = mid;
      else high = mid;
    }
    return u.map((x) => Math.max(x - low, 0) ** 2);
  },
  hardmax(z) {
    const max = Math.max(...z);
    const ties = z.filter((x) => x === max).length;
    return z.map((x) => (x === max ? 1 / ties : 0));
  },
};

/** A random [rows, cols] matrix in [−3, 3) with every 7th cell masked and row 1 fully masked. */
function maskedScores(rows, cols, seed) {
  const s = ref.randomMatrix(rows, cols, seed, 3);
  for (let k = 3; k < s.data.length; k += 7) s.data[k] = -Infinity;
  s.data.fill(-Infinity, cols, 2 * cols);
  return s;
}

describe('normalize', () => {
  test('every method equals its float64 reference to 1e-6, with masks and temperatures', () => {
    const scores = maskedScores(9, 13, 5);
    for (const method of METHODS) {
      for (const temperature of [1, 0.4, 3]) {
        const p = core.normalize(scores, { method, temperature });
        assert.ok(p.data instanceof Float32Array);
        assert.deepEqual(p.shape, [9, 13]);
        near(p.data, byRow(scores, temperature, reference[method]), 1e-6, `${method}, temperature ${temperature}`);
      }
    }
    near(core.normalize(scores).data, byRow(scores, 1, reference.softmax), 1e-6, 'default method: softmax');
  });

  test('sparsemax of [1, 0.5, −1] is [0.75, 0.25, 0] (τ = 0.25) and entmax15 of [2, 1.6, 0] is [0.64, 0.36, 0] (τ = 0.2)', () => {
    const s = { data: new Float32Array([1, 0.5, -1, 2, 1.6, 0]), shape: [2, 3] };
    near(core.normalize(s, { method: 'sparsemax' }).data.subarray(0, 3), [0.75, 0.25, 0], 1e-7, 'sparsemax');
    near(core.normalize(s, { method: 'entmax15' }).data.subarray(3), [0.64, 0.36, 0], 1e-6, 'entmax15');
  });

  test('rows sum to 1 and are non-negative, masked cells are exactly 0, fully masked rows all 0', () => {
    const scores = maskedScores(12, 10, 9);
    for (const method of METHODS) {
      const { data } = core.normalize(scores, { method });
      for (let i = 0; i < 12; i++) {
        let sum = 0;
        for (let j = 0; j < 10; j++) {
          const w = data[i * 10 + j];
          assert.ok(w >= 0, `${method} [${i}, ${j}] = ${w}`);
          if (scores.data[i * 10 + j] === -Infinity) assert.equal(w, 0, `${method}: masked [${i}, ${j}]`);
          sum += w;
        }
        assert.ok(Math.abs(sum - (i === 1 ? 0 : 1)) <= 1e-6, `${method}: row ${i} sums to ${sum}`);
      }
    }
  });

  test('sparsemax and entmax15 are sparse, hardmax splits ties equally', () => {
    const s = { data: new Float32Array([0, 3, 1.9, -4, 1, 3, 3, -Infinity]), shape: [2, 4] };
    assert.deepEqual(Array.from(core.normalize(s, { method: 'sparsemax' }).data.subarray(0, 4)), [0, 1, 0, 0]);
    assert.deepEqual(Array.from(core.normalize(s, { method: 'hardmax' }).data), [0, 1, 0, 0, 0, 0.5, 0.5, 0]);
    assert.equal(core.normalize(s, { method: 'entmax15' }).data[3], 0);
  });

  test('arguments are checked with errors naming them', () => {
    const s = { data: new Float32Array([1, 2, 3, 4]), shape: [2, 2] };
    assert.throws(() => core.normalize({ data: [1, 2], shape: [1, 2] }), {
      name: 'TypeError',
      message: /normalize: scores must be/,
    });
    assert.throws(() => core.normalize({ data: new Float32Array(3), shape: [2, 2] }), {
      name: 'RangeError',
      message: /scores.data has 3 numbers/,
    });
    assert.throws(() => core.normalize({ data: new Float32Array([1, NaN]), shape: [1, 2] }), {
      name: 'RangeError',
      message: /scores.data\[1\] is NaN; numbers must be finite or -Infinity \(masked\)/,
    });
    assert.throws(() => core.normalize({ data: new Float32Array([Infinity, 1]), shape: [1, 2] }), {
      name: 'RangeError',
      message: /scores.data\[0\] is Infinity/,
    });
    assert.throws(() => core.normalize(s, { method: 'entmax' }), {
      name: 'RangeError',
      message: /method must be one of 'softmax', 'sparsemax', 'entmax15', 'hardmax', got entmax/,
    });
    for (const temperature of [0, -1, NaN, Infinity]) {
      assert.throws(() => core.normalize(s, { temperature }), {
        name: 'RangeError',
        message: /normalize: temperature must be a finite number above 0/,
      });
    }
    assert.throws(() => core.normalize(s, { temperature: '2' }), { name: 'TypeError', message: /temperature/ });
    // Positive in JS but 0 in float32: the core refuses it and the message crosses back as a RangeError.
    assert.throws(() => core.normalize(s, { temperature: 1e-50 }), {
      name: 'RangeError',
      message: /normalize: temperature must be a finite number > 0, got 0/,
    });
    assert.throws(() => core.normalize(s, { alpha: 1.5 }), { name: 'RangeError', message: /unknown option 'alpha'/ });
  });

  test('the wasm heap does not grow over 1,000 calls, failed ones included', () => {
    const scores = maskedScores(8, 8, 3);
    for (const method of METHODS) core.normalize(scores, { method }); // warm up
    const before = core.heapInUse();
    for (let i = 0; i < 1000; i++) {
      core.normalize(scores, { method: METHODS[i % 4], temperature: 0.5 + (i % 3) });
      assert.throws(() => core.normalize(scores, { temperature: 1e-50 }));
    }
    assert.equal(core.heapInUse() - before, 0, 'bytes still allocated after 1,000 calls');
  });
});

describe('explain and attention with another normalizer', () => {
  for (const normalizer of ['sparsemax', 'entmax15', 'hardmax']) {
    test(`${normalizer}: every head's weights are the reference ${normalizer} of its scores, with exact zeros`, () => {
      const trace = core.explain('the river bank was muddy after the storm', {
        numHeads: 4,
        projection: 'random',
        seed: 3,
        causal: true,
        temperature: 0.5,
        normalizer,
      });
      assert.equal(trace.options.normalizer, normalizer);
      let zeros = 0;
      for (const head of trace.heads) {
        near(head.weights.data, byRow(head.scores, 1, reference[normalizer]), 1e-6, `${normalizer} weights`);
        const n = head.weights.shape[0];
        for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) if (head.weights.data[i * n + j] === 0) zeros++;
      }
      assert.ok(zeros > 0, 'some visible keys get exactly 0');
    });
  }

  test('attention({ normalizer }) and a bad name', () => {
    const m = (data, rows, cols) => ({ data: Float32Array.from(data), shape: [rows, cols] });
    const r = core.attention({
      queries: m([2, 0], 1, 2),
      keys: m([2, 0, 0, 2, 1, 1], 3, 2),
      values: m([1, 2, 3], 3, 1),
      normalizer: 'sparsemax',
      scale: false,
    });
    near(r.weights.data, reference.sparsemax([4, 0, 2]), 1e-6, 'sparsemax([4, 0, 2]) = [1, 0, 0]');
    assert.throws(
      () => core.explain('a b', { normalizer: 'argmax' }),
      /normalizer must be one of 'softmax', 'sparsemax', 'entmax15', 'hardmax'/,
    );
  });
});
