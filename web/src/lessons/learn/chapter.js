// Chapter "Learn": train a small attention-only transformer (Elhage et al. 2021) in the core, in a Web
// Worker, and watch its heads form — a previous-token head, then the induction heads of a two-layer
// model appearing with the loss's sudden drop (Olsson et al. 2022). Its figures draw from the
// training snapshots (learn-lesson.js), not from the sentence's trace.
import { tour } from './tour.js';
import { LearnLesson } from './learn-lesson.js';

export const learnChapter = {
  id: 'learn',
  title: 'Learn',
  takeaway: 'Attention patterns are learned: train a small transformer on a task and watch its heads turn from noise into ' +
    'the patterns that solve it — a head that looks one token back, then, in two layers, induction heads that copy what followed ' +
    'an earlier occurrence.',
  views: ['learn'],
  /** The chapter reads only its own training, not the sentence: the sentence box and its settings step aside. */
  usesSentence: false,
  /** Its slice of the state: the task, the model's size (null: the task's default), the seed, the pace and the probe. */
  state: () => ({
    trainTask: 'induction',  // a name of core.trainerLimits.tasks
    trainLayers: null,
    trainHeads: null,
    trainDModel: null,
    trainLearningRate: null,
    trainSeed: 0,            // the same seed gives the same model, batches and curves
    trainSpeed: 100,         // steps per second (0: as fast as the worker runs); tasks.js SPEEDS
    trainLog: false,         // the loss on a logarithmic axis
    trainProbe: '',          // the probe as typed (probe.js); '' the task's default
  }),
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {},
  /**
   * @param {{ core: object, edit: (change: object) => void }} parts
   * @returns {{ content: HTMLElement[], views: Record<string, HTMLElement[]>, figureControls: HTMLElement[], lessons: LearnLesson[] }}
   */
  build(parts) {
    const learn = new LearnLesson(parts);
    const content = learn.content();
    return { content, views: { learn: content }, figureControls: [], lessons: [learn] };
  },
};
