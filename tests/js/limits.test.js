// core.limits (every limit and name list, exported once from the C++ core) and the enum name tables:
// an unknown name for every enum throws a RangeError naming the argument and listing the allowed names,
// both through the public API (checked in JS against core.limits) and straight at the bindings (checked
// in C++ against the same table); and each limit is what the functions enforce (one past it throws).
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

describe('each limit is the one the functions enforce: at it passes, one past it throws', () => {
  test('explain: maxTokens, additiveHidden, input scales, head offset, seed', () => {
    assert.doesNotThrow(() => core.explain('a', { maxTokens: limits.maxTokens }));
    assert.throws(() => core.explain('a', { maxTokens: limits.maxTokens + 1 }), RangeError);
    assert.doesNotThrow(() =>
      core.explain('a', { scoreFunction: 'additive', additiveHidden: limits.maxAdditiveHidden }),
    );
    assert.throws(
      () => core.explain('a', { scoreFunction: 'additive', additiveHidden: limits.maxAdditiveHidden + 1 }),
      RangeError,
    );
    assert.doesNotThrow(() =>
      core.explain('a', { embeddingScale: limits.maxInputScale, positionalScale: limits.maxInputScale }),
    );
    assert.throws(() => core.explain('a', { embeddingScale: limits.maxInputScale * 1.01 }), RangeError);
    assert.throws(() => core.explain('a', { positionalScale: limits.maxInputScale * 1.01 }), RangeError);
    assert.doesNotThrow(() => core.explain('a', { heads: [{ kind: 'offset', offset: -limits.maxHeadOffset }] }));
    assert.throws(
      () => core.explain('a', { heads: [{ kind: 'offset', offset: limits.maxHeadOffset + 1 }] }),
      RangeError,
    );
    assert.doesNotThrow(() => core.explain('a', { projection: 'random', seed: limits.maxSeed }));
    assert.throws(() => core.explain('a', { seed: limits.maxSeed + 1 }), RangeError);
  });

  test('explain in the core: the bindings refuse the same limits without the JS checks', () => {
    const explained = core.explain('a cat').options;
    assert.throws(() => unwrap(wasm.explain('a', { ...explained, maxTokens: limits.maxTokens + 1 })), RangeError);
    assert.throws(
      () =>
        unwrap(
          wasm.explain('a', { ...explained, scoreFunction: 'additive', additiveHidden: limits.maxAdditiveHidden + 1 }),
        ),
      RangeError,
    );
    assert.throws(
      () => unwrap(wasm.explain('a', { ...explained, embeddingScale: limits.maxInputScale * 1.01 })),
      RangeError,
    );
  });

  test('sinusoidalEncoding and multiHeadAttention: maxSeqLen, maxDModel, maxHeads', () => {
    assert.throws(() => core.sinusoidalEncoding(limits.maxSeqLen + 1, 2), RangeError);
    assert.throws(() => core.sinusoidalEncoding(1, limits.maxDModel + 1), RangeError);
    assert.throws(() => unwrap(wasm.sinusoidalEncoding(limits.maxSeqLen + 1, 2, 10000)), /65536/);
    assert.throws(() => unwrap(wasm.sinusoidalEncoding(1, limits.maxDModel + 1, 10000)), /4096/);
    assert.doesNotThrow(() => core.sinusoidalEncoding(1, limits.maxDModel));
    const w = matrix(2, 2);
    assert.throws(
      () => core.multiHeadAttention({ input: w, numHeads: limits.maxHeads + 1, wQ: w, wK: w, wV: w, wO: w }),
      RangeError,
    );
    assert.throws(
      () => core.attention({ queries: w, keys: w, values: w, validLength: limits.maxSeqLen + 1 }),
      RangeError,
    );
  });

  test('positionalEncodingLab: positions, dModel, errorPositions, in JS and in the core', () => {
    assert.doesNotThrow(() => core.positionalEncodingLab({ positions: limits.maxLabPositions, dModel: 2 }));
    assert.throws(() => core.positionalEncodingLab({ positions: limits.maxLabPositions + 1, dModel: 2 }), RangeError);
    assert.throws(() => core.positionalEncodingLab({ positions: 4, dModel: limits.maxLabDModel + 2 }), RangeError);
    assert.throws(
      () => core.positionalEncodingLab({ positions: 4, errorPositions: limits.maxLabErrorPositions + 1 }),
      RangeError,
    );
    const args = { positions: 4, dModel: 8, position: 0, delta: 1, base: 10000, errorPositions: 8 };
    assert.doesNotThrow(() =>
      unwrap(wasm.positionalEncodingLab({ ...args, errorPositions: limits.maxLabErrorPositions })),
    );
    assert.throws(
      () => unwrap(wasm.positionalEncodingLab({ ...args, positions: limits.maxLabPositions + 1 })),
      /positions/,
    );
    assert.throws(() => unwrap(wasm.positionalEncodingLab({ ...args, dModel: limits.maxLabDModel + 2 })), /dModel/);
    assert.throws(
      () => unwrap(wasm.positionalEncodingLab({ ...args, errorPositions: limits.maxLabErrorPositions + 1 })),
      /errorPositions/,
    );
  });

  test('the trainers: every limit is exported once (core.trainerLimits), enforced by JS and by the core', () => {
    const t = core.trainerLimits;
    assert.ok(Object.isFrozen(t));
    const numbers = Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v === 'number'));
    assert.deepEqual(numbers, {
      maxLayers: 4,
      maxHeads: 16,
      maxDModel: 512,
      maxSeqLen: 256,
      maxVocabSize: 4096,
      maxFeedForward: 2048,
      maxBatchSize: 1024,
      maxStepsPerCall: 100000,
      maxScheduleSteps: 1e9,
      maxEvalTokens: 1e9,
      evalSequences: 256,
      probeSequences: 64,
      minOutputWords: 1,
      maxOutputWords: 16384,
    });
    // The language models' limits hold what only the models have; the trainer's are not repeated there.
    for (const name of ['maxLayers', 'maxFeedForward', 'maxSeqLen', 'maxBatchSize']) {
      assert.ok(!(name in core.languageModelLimits), name);
    }
    const trainer = core.createTrainer({ task: 'previous-token', batchSize: t.maxBatchSize });
    const range = (pattern) => ({ name: 'RangeError', message: pattern });
    assert.throws(() => core.createTrainer({ batchSize: t.maxBatchSize + 1 }), range(/batchSize/));
    assert.throws(() => core.createTrainer({ numHeads: t.maxHeads * 2, dModel: 64 }), range(/numHeads/));
    assert.throws(() => trainer.step(t.maxStepsPerCall + 1), range(/100000/));
    assert.throws(() => trainer.sample(t.maxBatchSize + 1), range(/batchSize/));
    // The same limits in the core, past the JS checks
    const options = { ...trainer.options, task: 'previous-token' };
    const create = (changed) => () => unwrap(wasm.createTrainer({ ...options, ...changed }));
    assert.throws(create({ batchSize: t.maxBatchSize + 1 }), /batchSize must be an integer in \[1, 1024\]/);
    assert.throws(create({ numHeads: t.maxHeads * 2, dModel: 64 }), /numHeads must be an integer in \[1, 16\]/);
    assert.throws(create({ numLayers: t.maxLayers + 1 }), /numLayers must be an integer in \[1, 4\]/);
    const id = unwrap(wasm.createTrainer({ ...options, batchSize: 1 }));
    const call =
      (name, ...args) =>
      () =>
        unwrap(wasm[name](id, ...args));
    assert.throws(call('trainerStep', t.maxStepsPerCall + 1), /steps must be an integer in \[1, 100000\]/);
    assert.throws(call('trainerSample', t.maxBatchSize + 1), /batchSize must be an integer in \[1, 1024\]/);
    assert.throws(call('trainerEvaluate', t.maxEvalTokens + 1), /maxTokens must be an integer in \[0, 1000000000\]/);
    wasm.releaseTrainer(id);
  });

  test('softLookup, scoreCost, simplexObjective, layerCosts', () => {
    const table = { keys: ['a'], values: ['b'] };
    assert.doesNotThrow(() => core.softLookup('a', { ...table, temperature: limits.minLookupTemperature }));
    assert.doesNotThrow(() => core.softLookup('a', { ...table, temperature: limits.maxLookupTemperature }));
    assert.throws(() => core.softLookup('a', { ...table, temperature: limits.minLookupTemperature / 2 }), RangeError);
    assert.throws(() => core.softLookup('a', { ...table, temperature: limits.maxLookupTemperature * 2 }), RangeError);
    const rows = Array.from({ length: limits.maxLookupRows + 1 }, (_, i) => `k${i}`);
    assert.throws(() => core.softLookup('a', { keys: rows, values: rows }), RangeError);
    assert.doesNotThrow(() => core.softLookup('a', { keys: rows.slice(1), values: rows.slice(1) }));
    assert.throws(() => core.softLookup('a'.repeat(limits.maxLookupText + 1), table), RangeError);
    assert.doesNotThrow(() =>
      core.scoreCost({ scoreFunction: 'additive', queries: 1, keys: 1, dK: 1, hidden: limits.maxAdditiveHidden }),
    );
    assert.throws(
      () =>
        core.scoreCost({ scoreFunction: 'additive', queries: 1, keys: 1, dK: 1, hidden: limits.maxAdditiveHidden + 1 }),
      RangeError,
    );
    const points = (n) => ({ data: new Float32Array(n * 2).map((_, i) => (i % 2 ? 0 : 1)), shape: [n, 2] });
    assert.doesNotThrow(() => core.simplexObjective(points(limits.maxSimplexCoordinates / 2), [0, 1]));
    assert.throws(() => core.simplexObjective(points(limits.maxSimplexCoordinates / 2 + 1), [0, 1]), RangeError);
    assert.throws(
      () =>
        unwrap(
          wasm.simplexObjective({
            points: points(limits.maxSimplexCoordinates / 2 + 1),
            scores: [0, 1],
            method: 'softmax',
            temperature: 1,
          }),
        ),
      RangeError,
    );
    assert.throws(() => core.layerCosts({ n: limits.maxCostTokens + 1 }), RangeError);
    assert.throws(() => core.layerCosts({ n: 1, curveN: new Array(limits.maxCostPoints + 1).fill(1) }), RangeError);
    assert.throws(
      () => unwrap(wasm.layerCosts({ n: limits.maxCostTokens + 1, dModel: 1, kernelSize: 2, curveN: [] })),
      RangeError,
    );
    assert.throws(
      () => unwrap(wasm.layerCosts({ n: 1, dModel: limits.maxCostWidth + 1, kernelSize: 2, curveN: [] })),
      RangeError,
    );
    assert.throws(
      () => unwrap(wasm.layerCosts({ n: 1, dModel: 1, kernelSize: limits.maxCostKernel + 1, curveN: [] })),
      RangeError,
    );
  });
});
