// Chapter "Inside one head": the selected head's computation as a stepper, one step large at a time
// with its formula, and its neighbours named (Vaswani et al. 2017 §3.1–3.3): word vectors → X + P →
// queries, keys, values → scores → mask → weights → output → the encoder block; with a trained model, its own values
// and then its output layer. The update's Run follows the selected head through its layer (models/designed.js,
// models/trained.js), so the stepper costs no call of its own.
import { tour } from './tour.js';
import { whenReady } from '../../models/run-figures.js';
import { defaultsOf } from '../../settings/schema.js';
import { headSteps } from './head-steps.js';

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
  /** Its figures (see explorer/figures.js); the pipeline ends with the encoder block, traced only for it. */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    // Every model's selected head, step by step (the designed heads' trace computes its encoder block only for it).
    pipeline: {
      needs: 'block',
      draw: whenReady((run, { step, colorMap }, { last }) => headSteps(run, { step, colorMap }, last), {
        has: (run) => Boolean(run.block),
      }),
    },
  },
  /**
   * @param {import('../chapters.js').ChapterParts} parts
   * @returns {import('../chapters.js').BuiltChapter}
   */
  build({ slots }) {
    const steps = document.createElement('section');
    steps.className = 'pipeline-section';
    steps.append(slots.pipeline);
    return {
      content: [steps],
      views: { pipeline: [steps] },
      figureControls: [],
    };
  },
};
