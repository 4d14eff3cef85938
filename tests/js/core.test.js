// The built module through its public JS API (package export "./core"), in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { relaxedSimd } from 'wasm-feature-detect';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

const near = ref.assertNear;

describe('loading', () => {
  test('the shipped asset: 25,000 GloVe words and 477 derived ones, 100 dimensions', () => {
    assert.equal(core.vocabSize, 25477);
    assert.equal(core.dModel, 100);
    assert.equal(core.maxTokens, 256);
  });

  test('a corrupted, truncated or foreign asset is rejected naming the file and the reason', async () => {
    const good = readFileSync(new URL('../../web/assets/embeddings.bin', import.meta.url));
    const corrupted = new Uint8Array(good);
    corrupted[1000] ^= 1;
    await assert.rejects(createAttentionCore({ embeddings: corrupted }), /checksum/);
    await assert.rejects(createAttentionCore({ embeddings: good.subarray(0, 5000) }), /truncated/);
    await assert.rejects(
      createAttentionCore({ embeddings: new TextEncoder().encode('<!doctype html> not found') }),
      /magic/,
    );
    await assert.rejects(createAttentionCore({ embeddingsUrl: new URL('file:///nonexistent/embeddings.bin') }), {
      message: 'embeddings asset /nonexistent/embeddings.bin: no such file (ENOENT)',
    });
  });

  test('in Node, embeddingsUrl may be a plain file path (absolute or relative to the working directory)', async () => {
    const asset = fileURLToPath(new URL('../../web/assets/embeddings.bin', import.meta.url));
    assert.equal((await createAttentionCore({ embeddingsUrl: asset })).vocabSize, 25477);
    assert.equal((await createAttentionCore({ embeddingsUrl: relative(process.cwd(), asset) })).vocabSize, 25477);
    await assert.rejects(createAttentionCore({ embeddingsUrl: '/nonexistent/words.bin' }), {
      message: 'embeddings asset /nonexistent/words.bin: no such file (ENOENT)',
    });
    await assert.rejects(createAttentionCore({ embeddingsUrl: tmpdir() }), {
      message: `embeddings asset ${tmpdir()}: is a directory, not a file (EISDIR)`,
    });
  });

  test('the .wasm can be hosted elsewhere (wasmUrl); a missing one is named', async () => {
    const elsewhere = await createAttentionCore({
      wasmUrl: new URL('../../build/wasm/attn_core.wasm', import.meta.url),
    });
    assert.equal(elsewhere.dModel, 100);
    await assert.rejects(
      createAttentionCore({ wasmUrl: new URL('file:///nonexistent/attn_core.wasm') }),
      /WebAssembly module attn_core.wasm could not be loaded from file:\/\/\/nonexistent\/attn_core.wasm: .*no such file \(ENOENT\)$/,
    );
    assert.equal(elsewhere.kernels, 'simd128', 'a wasmUrl alone: only attn_core.wasm is hosted');
  });

  test('kernels picks the build: simd128 anywhere, relaxed-simd only where the engine runs it', async () => {
    assert.equal((await createAttentionCore({ kernels: 'simd128' })).kernels, 'simd128');
    const relaxed = createAttentionCore({ kernels: 'relaxed-simd' });
    if (await relaxedSimd()) assert.equal((await relaxed).kernels, 'relaxed-simd');
    else await assert.rejects(relaxed, /kernels "relaxed-simd": this engine does not run relaxed SIMD/);
    await assert.rejects(createAttentionCore({ kernels: 'avx' }), RangeError);
    await assert.rejects(
      createAttentionCore({
        kernels: 'simd128',
        relaxedWasmUrl: 'file:///nonexistent/x.wasm',
        wasmUrl: 'file:///nonexistent/attn_core.wasm',
      }),
      /attn_core.wasm could not be loaded/,
    );
  });
});

describe('sinusoidalEncoding', () => {
  test('matches the formula computed in float64', () => {
    for (const [n, d, base] of [
      [50, 100, 10000],
      [7, 9, 100],
      [1, 1, 10000],
    ]) {
      const p = core.sinusoidalEncoding(n, d, { base });
      assert.deepEqual(p.shape, [n, d]);
      near(p.data, ref.sinusoidal(n, d, base), 1e-6, `P[${n}, ${d}] base ${base}`);
    }
  });

  test('invalid sizes are RangeErrors and wrong types TypeErrors, naming the argument', () => {
    assert.throws(() => core.sinusoidalEncoding(-1, 4), { name: 'RangeError', message: /seqLen/ });
    assert.throws(() => core.sinusoidalEncoding(4, 2.5), { name: 'RangeError', message: /dModel/ });
    assert.throws(() => core.sinusoidalEncoding(4, 0), { name: 'RangeError', message: /dModel/ });
    assert.throws(() => core.sinusoidalEncoding('4', 4), { name: 'TypeError', message: /seqLen/ });
    assert.throws(() => core.sinusoidalEncoding(4, 4, { base: 1 }), { name: 'RangeError', message: /base/ });
    assert.throws(() => core.sinusoidalEncoding(4, 4, { bse: 100 }), {
      name: 'RangeError',
      message: /unknown option 'bse'/,
    });
  });
});

describe('attention', () => {
  const [n, m, d, dv] = [5, 6, 4, 3];
  const queries = ref.randomMatrix(n, d, 1, 2),
    keys = ref.randomMatrix(m, d, 2, 2),
    values = ref.randomMatrix(m, dv, 3);

  test('weights and output equal the float64 reference, with masks and temperature', () => {
    for (const options of [
      {},
      { causal: true },
      { validLength: 4 },
      { temperature: 0.3 },
      { causal: true, validLength: 2, temperature: 4 },
    ]) {
      const r = core.attention({ queries, keys, values, ...options });
      const expected = ref.attention(queries.data, keys.data, values.data, n, m, d, dv, options);
      assert.deepEqual(r.weights.shape, [n, m]);
      assert.deepEqual(r.output.shape, [n, dv]);
      near(r.weights.data, expected.weights, 1e-6, `weights ${JSON.stringify(options)}`);
      near(r.output.data, expected.output, 1e-5, `output ${JSON.stringify(options)}`);
    }
  });

  test('scores are divided by √d_k and τ; masked scores are −∞ and their weights exactly 0', () => {
    const r = core.attention({ queries, keys, values, causal: true, temperature: 2 });
    let dot = 0;
    for (let t = 0; t < d; t++) dot += queries.data[t] * keys.data[t];
    assert.ok(Math.abs(r.scores.data[0] - dot / 2 / 2) < 1e-6);
    assert.equal(r.scores.data[1], -Infinity);
    assert.equal(r.weights.data[1], 0);
  });

  test('bad tensors and options throw typed errors naming the argument', () => {
    assert.throws(() => core.attention({ queries: [1, 2], keys, values }), { name: 'TypeError', message: /queries/ });
    assert.throws(() => core.attention({ queries: { data: new Float32Array(3), shape: [2, 2] }, keys, values }), {
      name: 'RangeError',
      message: /queries\.data has 3/,
    });
    assert.throws(() => core.attention({ queries, keys: ref.randomMatrix(m, d + 1, 4), values }), {
      name: 'RangeError',
      message: /keys/,
    });
    assert.throws(() => core.attention({ queries, keys, values: ref.randomMatrix(m + 1, dv, 5) }), {
      name: 'RangeError',
      message: /values/,
    });
    const nan = { data: new Float32Array([NaN, 1, 2, 3]), shape: [1, 4] };
    assert.throws(() => core.attention({ queries: nan, keys, values }), { name: 'RangeError', message: /finite/ });
    assert.throws(() => core.attention({ queries, keys, values, temperature: 0 }), {
      name: 'RangeError',
      message: /temperature/,
    });
    assert.throws(() => core.attention({ queries, keys, values, validLength: 7 }), {
      name: 'RangeError',
      message: /valid_length/,
    });
    assert.throws(() => core.attention({ queries, keys, values, causal: 'yes' }), {
      name: 'TypeError',
      message: /causal/,
    });
  });
});

describe('multiHeadAttention', () => {
  const [seqLen, dModel, numHeads] = [6, 8, 2];
  const input = ref.randomMatrix(seqLen, dModel, 10);
  const [wQ, wK, wV, wO] = [11, 12, 13, 14].map((s) => ref.randomMatrix(dModel, dModel, s, 0.5));

  test('equals projecting, slicing heads, attending, concatenating and projecting in float64', () => {
    const r = core.multiHeadAttention({ input, numHeads, wQ, wK, wV, wO, causal: true });
    assert.deepEqual(r.weights.shape, [numHeads, seqLen, seqLen]);
    assert.deepEqual(r.output.shape, [seqLen, dModel]);
    const expected = ref.multiHead(
      input.data,
      [wQ, wK, wV, wO].map((w) => w.data),
      seqLen,
      dModel,
      numHeads,
      { causal: true },
    );
    for (let h = 0; h < numHeads; h++) {
      near(
        r.weights.data.subarray(h * seqLen * seqLen, (h + 1) * seqLen * seqLen),
        expected.weights[h],
        1e-5,
        `weights of head ${h}`,
      );
    }
    near(r.output.data, expected.output, 1e-5, 'output');
  });

  test('numHeads must divide dModel; weights must be [dModel, dModel]', () => {
    assert.throws(() => core.multiHeadAttention({ input, numHeads: 3, wQ, wK, wV, wO }), {
      name: 'RangeError',
      message: /n_heads must be a divisor/,
    });
    assert.throws(() => core.multiHeadAttention({ input, numHeads: 2, wQ: ref.randomMatrix(8, 4, 1), wK, wV, wO }), {
      name: 'RangeError',
      message: /W_Q/,
    });
    assert.throws(() => core.multiHeadAttention({ input, numHeads: 0, wQ, wK, wV, wO }), {
      name: 'RangeError',
      message: /numHeads/,
    });
  });
});

describe('layerNorm', () => {
  test('equals the formula per row in float64', () => {
    const x = ref.randomMatrix(4, 7, 21, 5);
    const y = core.layerNorm(x);
    const expected = new Float64Array(28);
    for (let i = 0; i < 4; i++) {
      const row = Array.from(x.data.subarray(i * 7, i * 7 + 7));
      const mean = row.reduce((a, b) => a + b, 0) / 7;
      const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / 7;
      row.forEach((v, t) => {
        expected[i * 7 + t] = (v - mean) / Math.sqrt(variance + 1e-5);
      });
    }
    near(y.data, expected, 1e-5, 'LayerNorm');
    assert.throws(() => core.layerNorm(x, { epsilon: 0 }), { name: 'RangeError', message: /epsilon/ });
  });
});

describe('explain', () => {
  test('traces every step of the typed sentence with consistent shapes', () => {
    const t = core.explain('The river bank was muddy after the storm', { numHeads: 4, projection: 'random', seed: 7 });
    assert.equal(t.tokens.length, 8);
    assert.deepEqual(t.embeddings.shape, [8, 100]);
    assert.deepEqual(t.positional.shape, [8, 100]);
    assert.equal(t.heads.length, 4);
    assert.deepEqual(t.heads[3].queries.shape, [8, 25]);
    assert.deepEqual(t.heads[3].entropy.shape, [8]);
    assert.deepEqual(t.block.hidden.shape, [8, 400]);
    assert.deepEqual(t.projection.coordinates.shape, [16, 2]);
    assert.deepEqual(t.weights.shape, [4, 8, 8]);
    assert.deepEqual(t.output.shape, [8, 100]);
    near(t.positional.data, ref.sinusoidal(8, 100), 1e-6, 'P');
    near(
      t.input.data,
      t.embeddings.data.map((x, i) => x + t.positional.data[i]),
      1e-6,
      'X + P',
    );
    for (let r = 0; r < 4 * 8; r++) {
      const sum = t.weights.data.subarray(r * 8, r * 8 + 8).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${r} sums to ${sum}`);
    }
  });

  test('designed heads: previous token, first token, semantic', () => {
    const t = core.explain('the river bank was muddy after the storm', {
      numHeads: 4,
      heads: ['previous', 'first', 'semantic', 'uniform'],
    });
    const n = t.tokens.length;
    const argmax = (w, i) => {
      const row = Array.from(w.data.subarray(i * n, (i + 1) * n));
      return row.indexOf(Math.max(...row));
    };
    for (let i = 1; i < n; i++) assert.equal(argmax(t.heads[0].weights, i), i - 1, `previous-token row ${i}`);
    for (let i = 0; i < n; i++) assert.equal(argmax(t.heads[1].weights, i), 0, `first-token row ${i}`);
    assert.equal(t.heads[0].kind, 'offset');
    assert.equal(t.heads[0].offset, -1);
    assert.deepEqual(t.heads[2].queries.shape, [n, 100]);
    for (let i = 0; i < n; i++) assert.equal(t.heads[2].weights.data[i * n + i], 0);
    for (const w of t.heads[3].weights.data) assert.ok(Math.abs(w - 1 / n) < 1e-6);
    for (const h of t.heads[3].entropy.data) assert.ok(Math.abs(h - Math.log2(n)) < 1e-4);
  });

  test('[MASK] positions, padding and the dropped √d_k scaling', () => {
    const t = core.explain('the river bank was muddy', { maskedPositions: [2], validLength: 3, scale: false });
    assert.equal(t.tokens[2].masked, true);
    const again = core.explain('a b muddy', { maskedPositions: [2] });
    assert.deepEqual(t.embeddings.data.subarray(200, 300), again.embeddings.data.subarray(200, 300));
    for (let i = 0; i < 5; i++) for (let j = 3; j < 5; j++) assert.equal(t.weights.data[i * 5 + j], 0);
    const x = t.input.data;
    let dot = 0;
    for (let c = 0; c < 100; c++) dot += x[c] * x[c];
    assert.ok(Math.abs(t.scores.data[0] - dot) < 1e-3 * dot, 'unscaled score = q·k');
  });

  test('compareContexts: "bank" starts at the same point in both sentences', () => {
    const c = core.compareContexts('the river bank was muddy', 'she deposited money at the bank', {
      positionalEncoding: false,
    });
    const xy = (row) => Array.from(c.projection.coordinates.data.subarray(row * 2, row * 2 + 2));
    const a = xy(2),
      b = xy(10 + 5);
    assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) < 1e-4);
    assert.equal(c.first.tokens.length, 5);
    assert.equal(c.second.tokens.length, 6);
  });

  test('positional encodings: none is blind to word order, the five others are not', () => {
    const permuted = (kind) => {
      const options = { numHeads: 4, projection: 'random', seed: 2, positionalEncoding: kind };
      const a = core.explain('dog bites man today', options),
        b = core.explain('man bites dog today', options);
      const perm = [2, 1, 0, 3];
      let diff = 0;
      for (let h = 0; h < 4; h++)
        for (let i = 0; i < 4; i++)
          for (let j = 0; j < 4; j++) {
            diff = Math.max(
              diff,
              Math.abs(b.weights.data[(h * 4 + perm[i]) * 4 + perm[j]] - a.weights.data[(h * 4 + i) * 4 + j]),
            );
          }
      return diff;
    };
    assert.ok(permuted('none') < 1e-6);
    assert.ok(permuted(false) < 1e-6);
    for (const kind of ['sinusoidal', 'learned', 'rope', 'alibi', 't5']) assert.ok(permuted(kind) > 1e-3, kind);
    assert.equal(core.explain('a b', { positionalEncoding: true }).options.positionalEncoding, 'sinusoidal');
    assert.throws(() => core.explain('a', { positionalEncoding: 'absolute' }), {
      name: 'RangeError',
      message: /positionalEncoding/,
    });
  });

  test('the same seed gives the same trace; another seed another', () => {
    const a = core.explain('a b c', { projection: 'random', seed: 3 });
    const b = core.explain('a b c', { projection: 'random', seed: 3 });
    const c = core.explain('a b c', { projection: 'random', seed: 4 });
    assert.deepEqual(a.output.data, b.output.data);
    assert.notDeepEqual(a.output.data, c.output.data);
  });

  test('causal: upper triangle exactly 0; empty text: zero tokens; long text: cut at 256', () => {
    const t = core.explain('one two three four', { causal: true });
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) assert.equal(t.weights.data[i * 4 + j], 0);
    assert.equal(core.explain('   ').tokens.length, 0);
    const long = core.explain('word '.repeat(300));
    assert.equal(long.tokens.length, 256);
    assert.equal(long.totalTokens, 300);
    assert.equal(long.truncated, true);
  });

  test('bad options are typed errors naming the option', () => {
    assert.throws(() => core.explain('a', { numHeads: 3 }), {
      name: 'RangeError',
      message: /numHeads must divide d_model = 100/,
    });
    assert.throws(() => core.explain('a', { projection: 'learned' }), { name: 'RangeError', message: /projection/ });
    assert.throws(() => core.explain('a', { numHead: 2 }), { name: 'RangeError', message: /unknown option 'numHead'/ });
    assert.throws(() => core.explain('a', { heads: ['sideways'] }), {
      name: 'RangeError',
      message: /heads\[0\]\.kind/,
    });
    assert.throws(() => core.explain('a', { heads: [{ kind: 'offset', offset: 1.5 }] }), {
      name: 'RangeError',
      message: /offset/,
    });
    assert.throws(() => core.explain(42), { name: 'TypeError', message: /text/ });
    assert.throws(() => core.explain('a', { temperature: NaN }), { name: 'RangeError', message: /temperature/ });
  });
});

test('the wasm heap does not grow over 1,000 calls, errors included', () => {
  const options = { numHeads: 2, projection: 'random', seed: 1 };
  core.explain('warm up the allocator', options);
  const before = core.heapInUse();
  for (let i = 0; i < 1000; i++) {
    core.explain(`The river bank was muddy after storm number ${i}`, options);
    assert.throws(() => core.explain('a', { numHeads: 3 }));
    core.attention({
      queries: ref.randomMatrix(3, 2, i),
      keys: ref.randomMatrix(3, 2, i + 1),
      values: ref.randomMatrix(3, 2, i + 2),
    });
  }
  assert.equal(core.heapInUse() - before, 0, 'bytes still allocated after 1,000 calls');
});
