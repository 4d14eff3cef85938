// multiHeadLayer(): the fast path (fixed weights, input and output through wasm memory) against a
// float64 reference, across the kernels' edges: query blocks, register tiles of 6, 4 and 3 rows,
// panels of 8 columns, masks.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { relaxedSimd } from 'wasm-feature-detect';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

function setup(n, d, heads, seed) {
  const weights = [1, 2, 3, 4].map((s) => ref.randomMatrix(d, d, seed + s, 0.4));
  const [wQ, wK, wV, wO] = weights;
  return {
    layer: core.multiHeadLayer({ numHeads: heads, wQ, wK, wV, wO }),
    weights: weights.map((w) => w.data),
    input: ref.randomMatrix(n, d, seed),
  };
}

describe('multiHeadLayer', () => {
  // tests/js/relaxed-simd.test.js runs this file again with relaxed SIMD switched on in Node 20
  test('runs the relaxed-SIMD build where the engine supports it, else the SIMD128 one', async () => {
    assert.equal(core.kernels, (await relaxedSimd()) ? 'relaxed-simd' : 'simd128');
  });

  // 70 rows cross a query block (36); 8 and 7 rows are tiles of 4 + 4 and 4 + 3; d_k = 10 and 70 keys
  // leave partial panels of 8
  for (const [n, d, heads, options] of [
    [6, 8, 2, {}],
    [6, 8, 2, { causal: true }],
    [70, 40, 4, {}],
    [70, 40, 4, { causal: true, temperature: 0.5 }],
    [70, 40, 4, { validLength: 33, scale: false, temperature: 4 }],
    [9, 16, 1, { causal: true, validLength: 5 }],
    [8, 16, 2, { causal: true }],
    [7, 24, 3, {}],
  ]) {
    test(`${n}×${d}×${heads} ${JSON.stringify(options)} equals the float64 reference to 1e-5`, () => {
      const { layer, weights, input } = setup(n, d, heads, n + d);
      const r = layer.forward(input, { ...options, returnWeights: true });
      assert.deepEqual(r.output.shape, [n, d]);
      assert.deepEqual(r.weights.shape, [heads, n, n]);
      const { scale = true, temperature = 1 } = options;
      // scale: false is attention with τ' = τ / √d_k
      const expected = ref.multiHead(input.data, weights, n, d, heads, {
        ...options,
        temperature: scale ? temperature : temperature / Math.sqrt(d / heads),
      });
      ref.assertNear(r.output.data, expected.output, 1e-5, 'output');
      for (let h = 0; h < heads; h++)
        ref.assertNear(
          r.weights.data.subarray(h * n * n, (h + 1) * n * n),
          expected.weights[h],
          1e-5,
          `weights of head ${h}`,
        );
      assert.equal(layer.forward(input, options).weights, undefined);
    });
  }

  test('agrees with multiHeadAttention(), and again after the wasm memory grows', () => {
    const { layer, weights, input } = setup(12, 16, 2, 5);
    const [wQ, wK, wV, wO] = weights.map((data) => ({ data, shape: [16, 16] }));
    const first = layer.forward(input).output.data;
    ref.assertNear(
      first,
      core.multiHeadAttention({ input, numHeads: 2, wQ, wK, wV, wO }).output.data,
      1e-6,
      'multiHeadAttention',
    );
    const big = setup(1024, 64, 1, 9);
    assert.equal(big.layer.forward(big.input, { returnWeights: true }).weights.data.length, 1024 * 1024);
    assert.deepEqual(layer.forward(input).output.data, first);
  });

  test('bad input is a RangeError naming it, and the next call works', () => {
    const { layer, input } = setup(3, 8, 2, 1);
    const good = layer.forward(input).output.data;
    const bad = { data: input.data.slice(), shape: [3, 8] };
    bad.data[10] = NaN;
    assert.throws(() => layer.forward(bad), {
      name: 'RangeError',
      message: /input\[1, 2\] is NaN; numbers must be finite/,
    });
    bad.data[10] = -Infinity;
    assert.throws(() => layer.forward(bad), { name: 'RangeError', message: /input\[1, 2\] is infinite/ });
    assert.throws(() => layer.forward({ data: new Float32Array(12), shape: [3, 4] }), {
      name: 'RangeError',
      message: /dModel = 8 columns/,
    });
    assert.throws(() => layer.forward(input, { validLength: 4 }), { name: 'RangeError', message: /valid_length/ });
    assert.throws(() => layer.forward(input, { temperature: 0 }), { name: 'RangeError', message: /temperature/ });
    assert.throws(() => layer.forward(input, { mask: true }), { name: 'RangeError', message: /unknown option 'mask'/ });
    assert.deepEqual(layer.forward(input).output.data, good);
  });

  test('an empty sequence gives an empty output, also as the first call of a fresh module', async () => {
    const fresh = await createAttentionCore();
    const identity = { data: Float32Array.from({ length: 64 }, (_, i) => (i % 9 === 0 ? 1 : 0)), shape: [8, 8] };
    const layer = fresh.multiHeadLayer({ numHeads: 2, wQ: identity, wK: identity, wV: identity, wO: identity });
    const r = layer.forward({ data: new Float32Array(0), shape: [0, 8] }, { returnWeights: true });
    assert.deepEqual([r.output.data.length, r.weights.data.length], [0, 0]);
  });

  test('no memory grows over 500 calls', () => {
    const { layer, input } = setup(20, 16, 4, 3);
    layer.forward(input, { returnWeights: true });
    const before = core.heapInUse();
    for (let i = 0; i < 500; i++) layer.forward(input, { causal: i % 2 === 0, returnWeights: i % 3 === 0 });
    assert.equal(core.heapInUse() - before, 0);
  });
});
