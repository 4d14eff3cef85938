// Each limit of core.limits and core.trainerLimits is the one the functions enforce: at it a call passes, one past it
// throws a RangeError, through the public API (checked in JS) and straight at the bindings (checked in C++).
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
      maxOutputWords: 32768,
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
