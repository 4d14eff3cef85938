// The "Inside one head" chapter's data for a trained model (a lens: explorer/lens-data.js): the model run on the
// learner's sentence with every step of the selected head's block (core.languageModel run()'s activations), no
// output layer (the stepper ends at the block's output).
import { readyModel } from '../attention/trained-data.js';
import { trainedHeadAt } from '../attention/trained-heads.js';

/**
 * @param {{ get: (kind: string) => object }} models  trained-models.js trainedModels(core)
 * @param {object | null} inputs  trained-data.js trainedInputs()
 * @returns {{ kind: string, config: object, tokens: object[], activations: object, selected: number } | object}  the
 *   selected head's block, its index (layer-major) as followed; or readyModel()'s stand-in
 * @throws RangeError from run() (text too long, [MASK] typed for the causal model): the chapter's message says it
 */
export function trainedBlockData(models, inputs) {
  const { model, instead } = readyModel(models, inputs);
  if (!model) return instead;
  const { layer, head } = trainedHeadAt(model.config, inputs.selected);
  const run = model.run(inputs.text, { k: 1, positions: [], activations: { layer, head } });
  return {
    kind: inputs.kind,
    config: model.config,
    tokens: run.tokens,
    activations: run.activations,
    selected: layer * model.config.numHeads + head,
  };
}
