// Chapter "Inside one head": the selected head's computation as a stepper, one step large at a time
// with its formula, and its neighbours named (Vaswani et al. 2017 §3.1–3.3): word vectors → X + P →
// queries, keys, values → scores → mask → weights → output → the encoder block. With a trained model chosen
// (state.model), the selected trained head's block with the model's own values instead.
import { tour } from './tour.js';
import { DESIGNED } from '../../settings/limits.js';
import { defaultsOf } from '../../settings/schema.js';
import { element } from '../../views/layout.js';
import { trainedInputs } from '../attention/trained-data.js';
import { trainedModels } from '../attention/trained-models.js';
import { whenTrained } from '../attention/trained-placeholder.js';
import { pipeline } from './pipeline.js';
import { trainedBlockData } from './trained-block.js';
import { trainedPipeline } from './trained-steps.js';

export const insideHeadChapter = {
  id: 'inside-head',
  title: 'Inside one head',
  takeaway:
    'One head, one step at a time: word vectors become queries, keys and values; queries meet keys as scores; ' +
    'softmax turns scores into weights; the weights mix the values.',
  views: ['pipeline'],
  /** Its slice of the state: entries of the state schema (settings/schema.js). */
  settings: [
    // The step shown, 1-based.
    { name: 'step', type: 'integer', default: 1, range: () => [1, Infinity] },
  ],
  /** Its slice's defaults (a fresh object). */
  state() {
    return defaultsOf(this.settings);
  },
  /** A trained model's block for the selected trained head (state.trainedHead), while its stepper is on screen. */
  lenses: {
    trainedBlock: {
      inputs: (state, trace, core) => trainedInputs(state, trace, trainedModels(core)),
      compute: (core, inputs) => trainedBlockData(trainedModels(core), inputs),
      kept: 'The steps show the last sentence the model could read.',
    },
  },
  /** Its figures (see explorer/figures.js); the pipeline ends with the encoder block, traced only for it. */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    pipeline: {
      needs: 'block',
      draw: ({ trace }, _, { head, step, colorMap }) => pipeline(trace, { head, step, colorMap }),
    },
    trainedPipeline: {
      needs: 'trainedBlock',
      draw: whenTrained((data, { step, colorMap }) => trainedPipeline(data, { step, colorMap }), {
        key: 'trainedBlock',
        has: (data) => Boolean(data.activations),
      }),
    },
  },
  /**
   * @param {import('../chapters.js').ChapterParts} parts
   * @returns {import('../chapters.js').BuiltChapter}
   */
  build({ core, slots, refresh }) {
    const models = trainedModels(core);
    models.onSettled(refresh);
    const message = element('p', 'status error');
    message.setAttribute('role', 'alert');
    const steps = element('section', 'pipeline-section');
    steps.append(message, slots.pipeline, slots.trainedPipeline);
    return {
      content: [steps],
      views: { pipeline: [steps] },
      figureControls: [],
      sync: (state) => {
        const designed = state.model === DESIGNED;
        if (!designed) models.load(state.model);
        slots.pipeline.hidden = !designed;
        slots.trainedPipeline.hidden = designed;
        message.hidden = designed;
      },
      messages: { trainedBlock: message },
    };
  },
};
