// The members the two trainers share (core.createTrainer, core.createLanguageTrainer): their parameters, replacing
// them, and the loss and gradients of a batch, each over the module's function of the same name for that trainer
// (trainerParameters / languageTrainerParameters, …). Checks here, sizes and values again in the core.
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/**
 * @param {object} wasm  the module @param {number} id  the trainer's id in the module
 * @param {'trainer' | 'languageTrainer'} kind  the prefix of the module's functions, and of error messages ("trainer.parameters")
 * @param {{ parameterData: (parameters: object, where: string) => object, maxBatchSize: number, seqLen: number }} shape
 *   parameterData: checks a parameters argument and gives what the module takes; the batch's largest [rows, cols]
 * @returns {{ parameters: () => object, setParameters: (parameters: object) => void,
 *   lossAndGradients: (batch: object) => { loss: number, gradients: object } }}
 */
export function sharedTrainerMembers(wasm, id, kind, { parameterData, maxBatchSize, seqLen }) {
  const call = (name, ...args) =>
    unwrap(wasm[`${kind}${name[0].toUpperCase()}${name.slice(1)}`](id, ...args), `${kind}.${name}`);
  return {
    parameters: () => call('parameters'),
    setParameters(parameters) {
      call('setParameters', parameterData(parameters, `${kind}.setParameters`));
    },
    lossAndGradients: (batch) =>
      call('lossAndGradients', check.batch(batch, `${kind}.lossAndGradients`, maxBatchSize, seqLen)),
  };
}
