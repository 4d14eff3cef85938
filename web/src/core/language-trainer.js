// core.createLanguageTrainer(): trains a small transformer language model in the core on the text it
// is given (cpp/include/attn/train/language_trainer.hpp): the same code and recipe as the shipped models
// (npm run train:lm), on one thread. It is the core's one trainer (trainer-members.js) on a corpus.
import * as check from './checks.js';
import { sharedTrainerMembers } from './trainer-members.js';
import { unwrap } from './wasm-module.js';

const OPTIONS = [
  'objective',
  'numLayers',
  'numHeads',
  'dFF',
  'seqLen',
  'batchSize',
  'outputWords',
  'outputVocabulary',
  'tiedOutput',
  'outputInit',
  'outputHead',
  'layerNorm',
  'maskRate',
  'repeatShare',
  'repeatSteps',
  'repeatShareAfter',
  'learningRate',
  'weightDecay',
  'warmupSteps',
  'totalSteps',
  'seed',
  'text',
  'heldOutText',
];
const HELD_OUT_EVERY = 20; // without heldOutText, every 20th line is held out (5 %)

/**
 * The language-trainer API over the module `wasm` (index.d.ts documents each member); limits: core.trainerLimits;
 * modelLimits: core.languageModelLimits (the objectives and the recipe's defaults); makeModel: language-model.js's,
 * which wraps a model the core holds (a trainer's model()).
 */
export function languageTrainerApi(wasm, limits, modelLimits, maxSeed, makeModel) {
  const released = new FinalizationRegistry((id) => wasm.releaseTrainer(id));

  function resolveOptions(options) {
    const where = 'createLanguageTrainer';
    check.knownOptions(options, where, OPTIONS);
    const o = { ...modelLimits.trainerDefaults, ...options };
    check.oneOf(o.objective, where, 'objective', modelLimits.objectives);
    check.integerIn(o.numLayers, where, 'numLayers', 1, limits.maxLayers);
    check.integerIn(o.numHeads, where, 'numHeads', 1, limits.maxHeads);
    check.integerIn(o.dFF, where, 'dFF', 0, limits.maxFeedForward);
    check.integerIn(o.seqLen, where, 'seqLen', 2, limits.maxSeqLen);
    check.integerIn(o.batchSize, where, 'batchSize', 1, limits.maxBatchSize);
    check.integerIn(o.outputWords, where, 'outputWords', limits.minOutputWords, limits.maxOutputWords);
    check.oneOf(o.outputVocabulary, where, 'outputVocabulary', modelLimits.outputVocabularies);
    check.boolean(o.tiedOutput, where, 'tiedOutput');
    check.oneOf(o.outputInit, where, 'outputInit', modelLimits.outputInits);
    check.boolean(o.outputHead, where, 'outputHead');
    check.boolean(o.layerNorm, where, 'layerNorm');
    check.finiteIn(o.maskRate, where, 'maskRate', { above: 0, max: 1 });
    check.finiteIn(o.repeatShare, where, 'repeatShare', { min: 0, max: 1 });
    check.integerIn(o.repeatSteps, where, 'repeatSteps', 0, limits.maxScheduleSteps);
    check.finiteIn(o.repeatShareAfter, where, 'repeatShareAfter', { min: 0, max: 1 });
    check.finiteIn(o.learningRate, where, 'learningRate', { above: 0, max: 1 });
    check.finiteIn(o.weightDecay, where, 'weightDecay', { min: 0, max: 1 });
    check.integerIn(o.warmupSteps, where, 'warmupSteps', 0, limits.maxScheduleSteps);
    check.integerIn(o.totalSteps, where, 'totalSteps', 0, limits.maxScheduleSteps);
    check.integerIn(o.seed, where, 'seed', 0, maxSeed);
    check.text(o.text ?? '', where);
    if (o.heldOutText !== undefined) check.text(o.heldOutText, where);
    return o;
  }

  function createLanguageTrainer(options = {}) {
    const { text = '', heldOutText, ...rest } = resolveOptions(options);
    let train = text,
      heldOut = heldOutText;
    if (heldOut === undefined) {
      const lines = text.split('\n');
      if (lines.length < HELD_OUT_EVERY) {
        throw new RangeError(
          `createLanguageTrainer: without heldOutText, every ${HELD_OUT_EVERY}th line of text is held out, and this text ` +
            `has ${lines.length} line${lines.length === 1 ? '' : 's'}: pass heldOutText, or text of ${HELD_OUT_EVERY} lines or more`,
        );
      }
      train = lines.filter((_, i) => i % HELD_OUT_EVERY !== HELD_OUT_EVERY - 1).join('\n');
      heldOut = lines.filter((_, i) => i % HELD_OUT_EVERY === HELD_OUT_EVERY - 1).join('\n');
    }
    const info = unwrap(wasm.languageTrainerCreate(rest, train, heldOut), 'createLanguageTrainer');
    const { id } = info;
    const vocabulary = Object.freeze([...info.words, '<unk>']);
    let steps = 0,
      baselines = null;
    const shared = sharedTrainerMembers(wasm, id, 'languageTrainer', { limits, seqLen: rest.seqLen });
    const trainer = {
      /** The options in effect (the defaults for the ones not given), without the texts. */
      options: Object.freeze(rest),
      vocabulary,
      trainTokens: info.trainTokens,
      heldOutTokens: info.heldOutTokens,
      ...shared,
      step(n = 1) {
        const result = shared.step(n);
        steps = result.step;
        return result;
      },
      evaluate({ maxTokens = 0 } = {}) {
        const where = 'languageTrainer.evaluate';
        const tokens = check.integerIn(maxTokens, where, 'maxTokens', 0, limits.maxEvalTokens);
        return unwrap(wasm.trainerEvaluate(id, tokens), where);
      },
      sample() {
        return unwrap(wasm.trainerPeekBatch(id), 'languageTrainer.sample');
      },
      baselines() {
        baselines ??= Object.freeze(unwrap(wasm.trainerBaselines(id), 'languageTrainer.baselines'));
        return baselines;
      },
      model() {
        const modelId = unwrap(wasm.languageTrainerModel(id), 'languageTrainer.model');
        return makeModel(
          {
            kind: rest.objective,
            words: info.words,
            dModel: info.dModel,
            measured: { trainTokens: info.trainTokens },
            recipe: { ...rest, corpus: 'the text given to createLanguageTrainer', steps },
          },
          modelId,
        );
      },
    };
    released.register(trainer, id);
    return trainer;
  }

  return { createLanguageTrainer };
}
