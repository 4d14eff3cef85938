// Chapter "Inside one head": the selected head's computation as a stepper, one step large at a time
// with its formula, and its neighbours named (Vaswani et al. 2017 §3.1–3.3): word vectors → X + P →
// queries, keys, values → scores → mask → weights → output → the encoder block.
import { tour } from './tour.js';
import { element } from '../../views/layout.js';
import { pipeline } from './pipeline.js';

export const insideHeadChapter = {
  id: 'inside-head',
  title: 'Inside one head',
  takeaway: 'One head, one step at a time: word vectors become queries, keys and values; queries meet keys as scores; ' +
    'softmax turns scores into weights; the weights mix the values.',
  views: ['pipeline'],
  /** Its slice of the state. */
  state: () => ({
    step: 1,                 // the step shown, 1-based
  }),
  /** Its figures (see explorer/figures.js); the pipeline ends with the encoder block, traced only for it. */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    pipeline: { needs: 'block', draw: ({ trace }, _, { head, step, colorMap }) => pipeline(trace, { head, step, colorMap }) },
  },
  /**
   * @param {{ slots: Record<string, HTMLElement> }} parts
   * @returns {{ content: HTMLElement[], views: Record<string, HTMLElement[]>, figureControls: HTMLElement[] }}
   */
  build({ slots }) {
    const steps = element('section', 'pipeline-section');
    steps.append(slots.pipeline);
    return { content: [steps], views: { pipeline: [steps] }, figureControls: [] };
  },
};
