// core.createTrainer(): trains an attention-only transformer in the core (cpp/include/attn/train/task_trainer.hpp,
// Elhage et al. 2021) on a synthetic task, with a hand-written backward pass and AdamW, and reads out
// its attention heads as they form. The task names, the positional options and every limit come from
// the core (trainerLimits); the defaults of each task too (trainerDefaults). The members it shares with
// core.createLanguageTrainer() are in trainer-members.js: the core has one trainer for both.
import * as check from './checks.js';
import { sharedTrainerMembers } from './trainer-members.js';
import { unwrap } from './wasm-module.js';

const OPTIONS = [
  'task',
  'numLayers',
  'numHeads',
  'dModel',
  'seqLen',
  'vocabSize',
  'batchSize',
  'learningRate',
  'weightDecay',
  'positionalEncoding',
  'seed',
];

/** The trainer API over the module `wasm` (see index.d.ts for the documentation of each method); attentionLimits: core.limits. */
export function trainerApi(wasm, attentionLimits) {
  const limits = Object.freeze(wasm.trainerLimits());
  const trainers = new FinalizationRegistry((id) => wasm.releaseTrainer(id));

  function resolveOptions(options) {
    const where = 'createTrainer';
    check.knownOptions(options, where, OPTIONS);
    const task = check.oneOf(options.task ?? 'induction', where, 'task', limits.tasks);
    const o = { ...unwrap(wasm.trainerDefaults(task), where), ...options, task };
    check.integerIn(o.numLayers, where, 'numLayers', 1, limits.maxLayers);
    check.integerIn(o.numHeads, where, 'numHeads', 1, limits.maxHeads);
    check.integerIn(o.dModel, where, 'dModel', 1, limits.maxDModel);
    check.integerIn(o.seqLen, where, 'seqLen', 1, limits.maxSeqLen);
    check.integerIn(o.vocabSize, where, 'vocabSize', 1, limits.maxVocabSize);
    check.integerIn(o.batchSize, where, 'batchSize', 1, limits.maxBatchSize);
    check.finiteIn(o.learningRate, where, 'learningRate', { above: 0, max: 1 });
    check.finiteIn(o.weightDecay, where, 'weightDecay', { min: 0, max: 1 });
    check.oneOf(o.positionalEncoding, where, 'positionalEncoding', limits.positionalEncodings);
    check.integerIn(o.seed, where, 'seed', 0, attentionLimits.maxSeed);
    return Object.freeze(o);
  }

  function createTrainer(options = {}) {
    const resolved = resolveOptions(options);
    const id = unwrap(wasm.createTrainer(resolved), 'createTrainer');
    const trainer = {
      /** The options in effect: the ones given, and the task's defaults for the rest. */
      options: resolved,
      ...sharedTrainerMembers(wasm, id, 'trainer', { limits, seqLen: resolved.seqLen }),
      evaluate() {
        const { step, loss, top1 } = unwrap(wasm.trainerEvaluate(id, 0), 'trainer.evaluate');
        return { step, loss, accuracy: top1, headScores: unwrap(wasm.trainerHeadScores(id), 'trainer.evaluate') };
      },
      sample(batchSize = 1) {
        check.integerIn(batchSize, 'trainer.sample', 'batchSize', 1, limits.maxBatchSize);
        return unwrap(wasm.trainerSample(id, batchSize), 'trainer.sample');
      },
      attention(tokens) {
        const ids =
          tokens === undefined ? trainer.sample(1).tokens : check.tokenArray(tokens, 'trainer.attention', 'tokens');
        return { tokens: ids, weights: unwrap(wasm.trainerAttention(id, ids), 'trainer.attention') };
      },
      predict(tokens) {
        const ids = check.tokenArray(tokens, 'trainer.predict', 'tokens');
        return { tokens: ids, ...unwrap(wasm.trainerPredict(id, ids), 'trainer.predict') };
      },
      ablate(target, on = true) {
        const where = 'trainer.ablate';
        if (target === null || typeof target !== 'object')
          throw new TypeError(`${where}: the first argument must be { layer, head }`);
        check.integerIn(target.layer, where, 'layer', 0, resolved.numLayers - 1);
        check.integerIn(target.head, where, 'head', 0, resolved.numHeads - 1);
        unwrap(wasm.trainerAblate(id, target.layer, target.head, check.boolean(on, where, 'on')), where);
      },
    };
    trainers.register(trainer, id);
    return trainer;
  }

  return { createTrainer, trainerLimits: limits };
}
