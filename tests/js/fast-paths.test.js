// attention() and multiHeadAttention() with their default options run the packed kernels for the
// output and compute the rest of the result when first read (web/src/core/fast-paths.js). Checked here:
// both halves agree with float64 references at shapes that cross the kernels' tile and block edges,
// the lazy half refuses inputs changed since the call, the unusual cases take the reference path, and
// nothing leaks.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});
const near = ref.assertNear;

describe('attention(): the output from the kernels, the rest on first read', () => {
  test('against float64 at shapes across the 8-column panels and 36-row query blocks, masks and scale', () => {
    for (const [n, m, d, dv] of [
      [1, 1, 1, 1],
      [7, 9, 3, 5],
      [37, 37, 16, 16],
      [40, 75, 33, 17],
      [100, 64, 64, 8],
    ]) {
      const queries = ref.randomMatrix(n, d, n, 1.5),
        keys = ref.randomMatrix(m, d, m + 1, 1.5),
        values = ref.randomMatrix(m, dv, 7);
      for (const options of [
        {},
        { causal: true },
        { validLength: Math.ceil(m / 2) },
        { causal: true, validLength: 1, temperature: 0.4 },
      ]) {
        const what = `${n}×${m}×${d}×${dv} ${JSON.stringify(options)}`;
        const r = core.attention({ queries, keys, values, ...options });
        const expected = ref.attention(queries.data, keys.data, values.data, n, m, d, dv, options);
        near(r.output.data, expected.output, 1e-5, `output ${what}`);
        near(r.weights.data, expected.weights, 1e-6, `weights ${what}`);
        assert.deepEqual(
          Object.keys(r).sort(),
          ['dotProducts', 'output', 'scores', 'weights'],
          'every documented field, enumerable',
        );
      }
    }
    // scale: false drops √d_k, which is τ = 1/√d_k for the reference
    const queries = ref.randomMatrix(4, 8, 1),
      keys = ref.randomMatrix(4, 8, 2),
      values = ref.randomMatrix(4, 2, 3);
    const unscaled = core.attention({ queries, keys, values, scale: false });
    near(
      unscaled.output.data,
      ref.attention(queries.data, keys.data, values.data, 4, 4, 8, 2, { temperature: 1 / Math.sqrt(8) }).output,
      1e-5,
      'scale: false',
    );
  });

  test('the lazy fields read the arrays passed: unchanged they give the trace, changed the read throws', () => {
    const queries = ref.randomMatrix(6, 4, 1),
      keys = ref.randomMatrix(6, 4, 2),
      values = ref.randomMatrix(6, 3, 3);
    const expected = ref.attention(queries.data, keys.data, values.data, 6, 6, 4, 3);
    const read = core.attention({ queries, keys, values });
    const unread = core.attention({ queries, keys, values });
    near(read.weights.data, expected.weights, 1e-6, 'weights read before any change');
    const weights = read.weights;
    keys.data[5] += 1e-7; // any bit of any input
    assert.equal(read.weights, weights, 'a trace read once stays');
    assert.throws(() => unread.scores, {
      name: 'RangeError',
      message:
        "attention: the inputs changed after the call; read the result's fields before changing the arrays passed",
    });
    keys.data[5] -= 1e-7;
    near(unread.weights.data, expected.weights, 1e-6, 'changed back: the same bits again');
  });

  test('the cases the kernels leave to the reference: τ near 0 (argmax), empty shapes, a normalizer', () => {
    const queries = ref.randomMatrix(3, 4, 1),
      keys = ref.randomMatrix(5, 4, 2),
      values = ref.randomMatrix(5, 2, 3);
    const sharp = core.attention({ queries, keys, values, temperature: 1e-30 });
    const expected = ref.attention(queries.data, keys.data, values.data, 3, 5, 4, 2);
    for (let i = 0; i < 3; i++) {
      const row = expected.weights.slice(i * 5, i * 5 + 5);
      const best = row.indexOf(Math.max(...row));
      near(
        sharp.output.data.subarray(i * 2, i * 2 + 2),
        values.data.subarray(best * 2, best * 2 + 2),
        1e-6,
        `row ${i} is value ${best}`,
      );
    }
    const empty = core.attention({ queries: { data: new Float32Array(0), shape: [0, 4] }, keys, values });
    assert.deepEqual(empty.output.shape, [0, 2]);
    const sparse = core.attention({ queries, keys, values, normalizer: 'sparsemax' });
    assert.ok(
      sparse.weights.data.some((w) => w === 0),
      'sparsemax: exact zeros',
    );
  });
});

describe('multiHeadAttention(): the output from the packed layer, the trace on first read', () => {
  test('output, weights and every head against float64, causal and padded', () => {
    for (const [n, d, heads] of [
      [5, 8, 2],
      [37, 24, 3],
      [50, 64, 8],
    ]) {
      const input = ref.randomMatrix(n, d, n);
      const w = [1, 2, 3, 4].map((s) => ref.randomMatrix(d, d, s + d, 0.4));
      for (const options of [{}, { causal: true }, { validLength: 3, temperature: 2 }]) {
        const what = `${n}×${d}×${heads} ${JSON.stringify(options)}`;
        const r = core.multiHeadAttention({
          input,
          numHeads: heads,
          wQ: w[0],
          wK: w[1],
          wV: w[2],
          wO: w[3],
          ...options,
        });
        const expected = ref.multiHead(
          input.data,
          w.map((m) => m.data),
          n,
          d,
          heads,
          options,
        );
        near(r.output.data, expected.output, 1e-5, `output ${what}`);
        for (let h = 0; h < heads; h++) near(r.heads[h].weights.data, expected.weights[h], 1e-6, `head ${h} ${what}`);
        assert.deepEqual(Object.keys(r).sort(), ['concat', 'heads', 'output', 'scores', 'weights']);
      }
    }
  });

  test('the trace uses the weights as they were at the call (kept in wasm); a changed input is refused', () => {
    const input = ref.randomMatrix(6, 8, 1);
    const w = [1, 2, 3, 4].map((s) => ref.randomMatrix(8, 8, s, 0.5));
    const expected = ref.multiHead(
      input.data,
      w.map((m) => m.data),
      6,
      8,
      2,
    );
    const r = core.multiHeadAttention({ input, numHeads: 2, wQ: w[0], wK: w[1], wV: w[2], wO: w[3] });
    const other = core.multiHeadAttention({ input, numHeads: 2, wQ: w[0], wK: w[1], wV: w[2], wO: w[3] });
    w[0].data.fill(3);
    near(r.weights.data.subarray(0, 36), expected.weights[0], 1e-6, 'head 0 after the caller changed wQ');
    input.data[0] = 7;
    assert.throws(() => other.heads, {
      name: 'RangeError',
      message: /multiHeadAttention: the input changed after the call/,
    });
  });

  test('results of calls with other weights in between keep their own weights (packed once per change)', () => {
    const input = ref.randomMatrix(7, 8, 5);
    const sets = [1, 2].map((k) => [1, 2, 3, 4].map((s) => ref.randomMatrix(8, 8, 10 * k + s, 0.5)));
    const results = [0, 1, 0, 1, 1].map((k) => ({
      k,
      r: core.multiHeadAttention({
        input,
        numHeads: 4,
        wQ: sets[k][0],
        wK: sets[k][1],
        wV: sets[k][2],
        wO: sets[k][3],
        causal: true,
      }),
    }));
    for (const [index, { k, r }] of results.entries()) {
      const expected = ref.multiHead(
        input.data,
        sets[k].map((m) => m.data),
        7,
        8,
        4,
        { causal: true },
      );
      near(r.output.data, expected.output, 1e-5, `output of call ${index}`);
      near(r.heads[3].weights.data, expected.weights[3], 1e-6, `head 3 of call ${index}, read after the later calls`);
    }
  });

  test('the wasm heap does not grow over 500 calls of each, read or not', () => {
    const queries = ref.randomMatrix(20, 8, 1),
      input = ref.randomMatrix(20, 16, 2);
    const w = ref.randomMatrix(16, 16, 3, 0.3);
    const round = (k) => {
      const a = core.attention({ queries, keys: queries, values: queries, causal: k % 2 === 0 });
      const b = core.multiHeadAttention({ input, numHeads: 4, wQ: w, wK: w, wV: w, wO: w });
      if (k % 3 === 0) return a.weights.data[0] + b.heads[1].weights.data[0];
      return 0;
    };
    for (let k = 0; k < 20; k++) round(k);
    const start = core.heapInUse();
    for (let k = 0; k < 500; k++) round(k);
    assert.equal(core.heapInUse(), start);
  });
});
