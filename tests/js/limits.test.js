// core.limits (every limit and name list, exported once from the C++ core) and the enum name tables:
// an unknown name for every enum throws a RangeError naming the argument and listing the allowed names,
// both through the public API (checked in JS against core.limits) and straight at the bindings (checked
// in C++ against the same table). That each limit is what the functions enforce: limits-enforced.test.js.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { startModule, unwrap } from '../../web/src/core/wasm-module.js';

let core, wasm, limits;
before(async () => {
  core = await createAttentionCore();
  limits = core.limits;
  ({ wasm } = await startModule({ kernels: 'simd128' }));
  const loaded = wasm.loadEmbeddings(readFileSync(new URL('../../web/assets/embeddings.bin', import.meta.url)));
  assert.ok(!loaded.error);
});

const matrix = (rows, cols, fill = 0) => ({ data: new Float32Array(rows * cols).fill(fill), shape: [rows, cols] });

/** A matcher: RangeError whose message names `argument` and lists every name of `names` quoted. */
function listing(argument, names) {
  return (error) => {
    assert.ok(error instanceof RangeError, `expected a RangeError, got ${error}`);
    assert.match(error.message, new RegExp(argument.replace(/[[\]]/g, '\\$&')));
    for (const name of names) assert.ok(error.message.includes(`'${name}'`), `${error.message} lists '${name}'`);
    return true;
  };
}

describe('core.limits', () => {
  test('the exported names and values', () => {
    assert.deepEqual([...limits.positionalEncodings], ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5']);
    assert.deepEqual([...limits.headKinds], ['projected', 'semantic', 'offset', 'first', 'uniform']);
    assert.deepEqual({ ...limits.headKindAliases }, { previous: -1, next: 1 });
    assert.deepEqual([...limits.projections], ['identity', 'random']);
    assert.deepEqual([...limits.scoreFunctions], ['scaledDot', 'dot', 'additive']);
    assert.deepEqual([...limits.normalizers], ['softmax', 'sparsemax', 'entmax15', 'hardmax']);
    assert.deepEqual([...limits.alibiSlopes], ['paper', 'reference']);
    assert.deepEqual([...limits.lookupSimilarities], ['letters', 'wordVectors']);
    const numbers = Object.fromEntries(Object.entries(limits).filter(([, v]) => typeof v === 'number'));
    assert.deepEqual(numbers, {
      maxTokens: 256,
      maxSeqLen: 65536,
      maxDModel: 4096,
      maxHeads: 4096,
      maxSeed: 2 ** 32 - 1,
      maxCells: 2 ** 24,
      maxAdditiveHidden: 1024,
      maxHeadOffset: 4096,
      maxInputScale: 100,
      minExplorerTemperature: 0.05,
      maxExplorerTemperature: 5,
      maxLabPositions: 2048,
      maxLabDModel: 1024,
      maxLabErrorPositions: 4096,
      maxSimplexCoordinates: 2 ** 20,
      maxLookupRows: 32,
      maxLookupText: 64,
      minLookupTemperature: 1e-4,
      maxLookupTemperature: 1e4,
      maxCostTokens: 1e8,
      maxCostWidth: 1e5,
      maxCostKernel: 1e4,
      maxCostPoints: 4096,
    });
    assert.equal(core.maxTokens, limits.maxTokens);
    assert.equal(core.maxLookupRows, limits.maxLookupRows);
  });

  test('is frozen, lists included', () => {
    assert.ok(
      Object.isFrozen(limits) && Object.isFrozen(limits.normalizers) && Object.isFrozen(limits.headKindAliases),
    );
    assert.throws(() => {
      'use strict';
      limits.normalizers.push('x');
    }, TypeError);
  });
});

describe('an unknown name throws a RangeError listing the allowed names, for every enum', () => {
  const scores = matrix(2, 2);
  const cases = () => [
    ['normalize method', () => core.normalize(scores, { method: 'bogus' }), 'method', limits.normalizers],
    [
      'attention normalizer',
      () => core.attention({ queries: matrix(2, 2), keys: matrix(2, 2), values: matrix(2, 2), normalizer: 'bogus' }),
      'normalizer',
      limits.normalizers,
    ],
    [
      'simplexObjective method',
      () => core.simplexObjective({ data: new Float32Array([1, 0]), shape: [1, 2] }, [0, 0], { method: 'bogus' }),
      'method',
      limits.normalizers,
    ],
    [
      'softLookup normalizer',
      () => core.softLookup('a', { keys: ['a'], values: ['b'], normalizer: 'bogus' }),
      'normalizer',
      limits.normalizers,
    ],
    [
      'softLookup similarity',
      () => core.softLookup('a', { keys: ['a'], values: ['b'], similarity: 'bogus' }),
      'similarity',
      limits.lookupSimilarities,
    ],
    [
      'scoreCost scoreFunction',
      () => core.scoreCost({ scoreFunction: 'bogus', queries: 1, keys: 1, dK: 1 }),
      'scoreFunction',
      limits.scoreFunctions,
    ],
    [
      'explain scoreFunction',
      () => core.explain('a cat', { scoreFunction: 'bogus' }),
      'scoreFunction',
      limits.scoreFunctions,
    ],
    ['explain normalizer', () => core.explain('a cat', { normalizer: 'bogus' }), 'normalizer', limits.normalizers],
    ['explain projection', () => core.explain('a cat', { projection: 'bogus' }), 'projection', limits.projections],
    [
      'explain positionalEncoding',
      () => core.explain('a cat', { positionalEncoding: 'bogus' }),
      'positionalEncoding',
      limits.positionalEncodings,
    ],
    ['explain alibiSlopes', () => core.explain('a cat', { alibiSlopes: 'bogus' }), 'alibiSlopes', limits.alibiSlopes],
    [
      'explain heads[0].kind',
      () => core.explain('a cat', { heads: ['bogus'] }),
      'heads[0].kind',
      [...limits.headKinds, ...Object.keys(limits.headKindAliases)],
    ],
    [
      'multiHeadAttention positionalEncoding',
      () =>
        core.multiHeadAttention({
          input: matrix(2, 2),
          numHeads: 1,
          wQ: matrix(2, 2),
          wK: matrix(2, 2),
          wV: matrix(2, 2),
          wO: matrix(2, 2),
          positionalEncoding: 'bogus',
        }),
      'positionalEncoding',
      limits.positionalEncodings,
    ],
    [
      'multiHeadAttention alibiSlopes',
      () =>
        core.multiHeadAttention({
          input: matrix(2, 2),
          numHeads: 1,
          wQ: matrix(2, 2),
          wK: matrix(2, 2),
          wV: matrix(2, 2),
          wO: matrix(2, 2),
          positionalEncoding: 'alibi',
          alibiSlopes: 'bogus',
        }),
      'alibiSlopes',
      limits.alibiSlopes,
    ],
    ['createTrainer task', () => core.createTrainer({ task: 'bogus' }), 'task', core.trainerLimits.tasks],
    [
      'createTrainer positionalEncoding',
      () => core.createTrainer({ positionalEncoding: 'bogus' }),
      'positionalEncoding',
      core.trainerLimits.positionalEncodings,
    ],
  ];
  test('through the public API', () => {
    for (const [what, call, argument, names] of cases()) assert.throws(call, listing(argument, names), what);
  });

  test('straight at the bindings: the C++ tables refuse unknown names too (no silent default)', () => {
    const explained = core.explain('a cat', { heads: ['projected'] }).options;
    const raw = [
      ['normalize', () => wasm.normalize({ scores, method: 'bogus', temperature: 1 }), 'method', limits.normalizers],
      [
        'attention',
        () =>
          wasm.attention({
            queries: scores,
            keys: scores,
            values: scores,
            causal: false,
            temperature: 1,
            scale: true,
            normalizer: 'bogus',
          }),
        'normalizer',
        limits.normalizers,
      ],
      [
        'simplexObjective',
        () =>
          wasm.simplexObjective({
            points: { data: new Float32Array([1, 0]), shape: [1, 2] },
            scores: [0, 0],
            method: 'bogus',
            temperature: 1,
          }),
        'method',
        limits.normalizers,
      ],
      [
        'scoreCost',
        () => wasm.scoreCost({ scoreFunction: 'bogus', queries: 1, keys: 1, dK: 1, hidden: 1 }),
        'scoreFunction',
        limits.scoreFunctions,
      ],
      [
        'softLookup similarity',
        () =>
          wasm.softLookup({
            query: 'a',
            keys: ['a'],
            values: ['b'],
            temperature: 1,
            similarity: 'bogus',
            normalizer: 'softmax',
          }),
        'similarity',
        limits.lookupSimilarities,
      ],
      [
        'softLookup normalizer',
        () =>
          wasm.softLookup({
            query: 'a',
            keys: ['a'],
            values: ['b'],
            temperature: 1,
            similarity: 'letters',
            normalizer: 'bogus',
          }),
        'normalizer',
        limits.normalizers,
      ],
      [
        'multiHeadAttention',
        () =>
          wasm.multiHeadAttention({
            input: scores,
            numHeads: 1,
            wQ: scores,
            wK: scores,
            wV: scores,
            wO: scores,
            causal: false,
            temperature: 1,
            scale: true,
            seed: 0,
            base: 10000,
            alibiSlopes: 'paper',
            positionalEncoding: 'bogus',
          }),
        'positionalEncoding',
        limits.positionalEncodings,
      ],
      [
        'explain projection',
        () => wasm.explain('a cat', { ...explained, projection: 'bogus' }),
        'projection',
        limits.projections,
      ],
      [
        'explain positionalEncoding',
        () => wasm.explain('a cat', { ...explained, positionalEncoding: 'bogus' }),
        'positionalEncoding',
        limits.positionalEncodings,
      ],
      [
        'explain alibiSlopes',
        () => wasm.explain('a cat', { ...explained, alibiSlopes: 'bogus' }),
        'alibiSlopes',
        limits.alibiSlopes,
      ],
      [
        'explain normalizer',
        () => wasm.explain('a cat', { ...explained, normalizer: 'bogus' }),
        'normalizer',
        limits.normalizers,
      ],
      [
        'explain scoreFunction',
        () => wasm.explain('a cat', { ...explained, scoreFunction: 'bogus' }),
        'scoreFunction',
        limits.scoreFunctions,
      ],
      [
        'explain heads[0].kind',
        () => wasm.explain('a cat', { ...explained, heads: [{ kind: 'bogus', offset: 0 }] }),
        'heads[0].kind',
        [...limits.headKinds, ...Object.keys(limits.headKindAliases)],
      ],
    ];
    for (const [what, call, argument, names] of raw)
      assert.throws(() => unwrap(call()), listing(argument, names), what);
    // The aliases are read by the core's table too.
    const previous = unwrap(wasm.explain('a cat sat', { ...explained, heads: [{ kind: 'previous', offset: 0 }] }));
    assert.equal(previous.heads[0].kind, 'offset');
    assert.equal(previous.heads[0].offset, -1);
  });
});
