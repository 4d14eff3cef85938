// The members every trainer has (core.createTrainer, core.createLanguageTrainer): the core has one trainer
// (cpp/include/attn/train/trainer.hpp) behind one set of module functions (trainerStep, trainerParameters, …,
// cpp/bindings/train_bindings.cpp), whichever batch source it trains on. Checks here, sizes and values again in
// the core. Parameters travel in one format: { [name]: { data: Float32Array, shape } } under the core's names
// ('embedding', 'layers.0.attention.w_q', …, 'unembedding'), as model files store them.
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/** Every tensor of a parameters record as { name: Float32Array }; types and values checked here, sizes by the core. */
export function parameterData(parameters, where) {
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
    throw new TypeError(`${where}: parameters must be { [name]: { data, shape } } as parameters() returns`);
  }
  return Object.fromEntries(
    Object.entries(parameters).map(([name, t]) => {
      if (!(t?.data instanceof Float32Array)) throw new TypeError(`${where}: ${name}.data must be a Float32Array`);
      const bad = t.data.findIndex((x) => !Number.isFinite(x));
      if (bad >= 0) {
        throw new RangeError(`${where}: ${name} holds a value that is not finite (data[${bad}] = ${t.data[bad]})`);
      }
      return [name, t.data];
    }),
  );
}

/**
 * @param {object} wasm  the module @param {number} id  the trainer's id in the module
 * @param {'trainer' | 'languageTrainer'} where  the prefix of error messages ("trainer.parameters")
 * @param {{ limits: object, seqLen: number }} shape  limits: core.trainerLimits; seqLen: the longest batch row
 * @returns {{ step: (n?: number) => { step: number, loss: number }, parameters: () => object,
 *   setParameters: (parameters: object) => void,
 *   lossAndGradients: (batch: object) => { loss: number, gradients: object } }}
 */
export function sharedTrainerMembers(wasm, id, where, { limits, seqLen }) {
  const call = (name, member, ...args) => unwrap(wasm[name](id, ...args), `${where}.${member}`);
  return {
    step(n = 1) {
      return call('trainerStep', 'step', check.integerIn(n, `${where}.step`, 'n', 1, limits.maxStepsPerCall));
    },
    parameters: () => call('trainerParameters', 'parameters'),
    setParameters(parameters) {
      call('trainerSetParameters', 'setParameters', parameterData(parameters, `${where}.setParameters`));
    },
    lossAndGradients: (batch) =>
      call(
        'trainerLossAndGradients',
        'lossAndGradients',
        check.batch(batch, `${where}.lossAndGradients`, limits.maxBatchSize, seqLen),
      ),
  };
}
