// core.layerCosts through the public JS API: the operation counts by their formulas (d2l.ai §11.6.2,
// Vaswani et al. 2017 Table 1), the convolution's path length by simulating stacked receptive fields,
// the crossings, the curves, and the errors.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';

let core;
before(async () => {
  core = await createAttentionCore();
});

/** Layers of kernel k until one output's receptive field holds all n positions (grown one layer at a time). */
function convolutionLayers(n, k) {
  let layers = 0,
    field = 1;
  while (field < n) {
    field += k - 1;
    layers++;
  }
  return layers;
}

describe('layerCosts', () => {
  test('an 8-token sentence with d_model = 100 and k = 3: the worked numbers', () => {
    const c = core.layerCosts({ n: 8, dModel: 100, kernelSize: 3 });
    assert.deepEqual(c.convolution, { operations: 240000, sequentialOperations: 1, maxPathLength: 4 });
    assert.deepEqual(c.recurrent, { operations: 80000, sequentialOperations: 8, maxPathLength: 7 });
    assert.deepEqual(c.selfAttention, { operations: 6400, sequentialOperations: 1, maxPathLength: 1 });
    assert.deepEqual(c.crossings, { selfAttentionRecurrent: 100, selfAttentionConvolution: 300 });
    assert.equal(
      core.layerCosts({ n: 8 }).recurrent.operations,
      8 * core.dModel ** 2,
      'dModel defaults to core.dModel',
    );
  });

  test('formulas and simulated receptive fields over a grid of n, d, k', () => {
    for (const n of [1, 2, 3, 5, 8, 17, 100, 1000]) {
      for (const d of [1, 16, 100]) {
        for (const k of [2, 3, 5, 64]) {
          const c = core.layerCosts({ n, dModel: d, kernelSize: k });
          assert.equal(c.convolution.operations, k * n * d * d);
          assert.equal(c.recurrent.operations, n * d * d);
          assert.equal(c.selfAttention.operations, n * n * d);
          assert.equal(c.recurrent.sequentialOperations, n);
          assert.equal(c.convolution.maxPathLength, convolutionLayers(n, k), `n ${n}, k ${k}`);
          assert.equal(c.recurrent.maxPathLength, n - 1);
          assert.equal(c.selfAttention.maxPathLength, n > 1 ? 1 : 0);
        }
      }
    }
  });

  test('the curves: operations at each n, crossing at n = d and n = k·d', () => {
    const curveN = Array.from({ length: 41 }, (_, i) => Math.round(10 ** (i / 10)));
    const { curves, crossings } = core.layerCosts({ n: 8, dModel: 100, kernelSize: 5, curveN });
    assert.deepEqual(Array.from(curves.n), curveN);
    assert.deepEqual(
      Array.from(curves.convolution),
      curveN.map((n) => 5 * n * 1e4),
    );
    assert.deepEqual(
      Array.from(curves.recurrent),
      curveN.map((n) => n * 1e4),
    );
    assert.deepEqual(
      Array.from(curves.selfAttention),
      curveN.map((n) => n * n * 100),
    );
    assert.deepEqual(crossings, { selfAttentionRecurrent: 100, selfAttentionConvolution: 500 });
    const at = (n) => core.layerCosts({ n, dModel: 100, kernelSize: 5 });
    assert.equal(at(100).selfAttention.operations, at(100).recurrent.operations);
    assert.ok(at(99).selfAttention.operations < at(99).recurrent.operations);
    assert.equal(at(500).selfAttention.operations, at(500).convolution.operations);
    assert.ok(at(501).selfAttention.operations > at(501).convolution.operations);
  });

  const cases = [
    [{ n: 0 }, RangeError, /layerCosts: n must be an integer from 1 to 100000000, got 0/],
    [{ n: 2.5 }, RangeError, /n must be an integer/],
    [{ n: 8, kernelSize: 1 }, RangeError, /kernelSize must be an integer from 2 to 10000, got 1/],
    [{ n: 8, dModel: 0 }, RangeError, /dModel must be an integer from 1 to 100000/],
    [{ n: 8, curveN: [1, 0] }, RangeError, /curveN\[1\] must be an integer/],
    [{ n: 8, curveN: new Array(4097).fill(1) }, RangeError, /at most 4096/],
    [{ n: 8, kernel: 3 }, RangeError, /unknown option 'kernel'/],
    [{ n: '8' }, TypeError, /n must be a number/],
    [{ n: 8, curveN: 10 }, TypeError, /curveN must be an array/],
  ];
  for (const [args, ErrorClass, message] of cases) {
    test(`${ErrorClass.name} ${message}`, () => {
      assert.throws(
        () => core.layerCosts(args),
        (error) => error instanceof ErrorClass && message.test(error.message),
      );
    });
  }

  test('the wasm heap does not grow over 1,000 calls', () => {
    const curveN = Array.from({ length: 100 }, (_, i) => i + 1);
    core.layerCosts({ n: 8, curveN });
    const before = core.heapInUse();
    for (let i = 0; i < 1000; i++) core.layerCosts({ n: 1 + i, kernelSize: 2 + (i % 7), curveN });
    assert.equal(core.heapInUse() - before, 0, 'bytes still allocated after 1,000 calls');
  });
});
