// Chapter "Learn": train a small attention-only transformer (Elhage et al. 2021) in the core, in a Web
// Worker, and watch its heads form — a previous-token head, then the induction heads of a two-layer
// model appearing with the loss's sudden drop (Olsson et al. 2022); or train a language model on real
// English and watch its held-out loss pass the unigram and bigram baselines (language-lesson.js). Its
// figures draw from the training snapshots (learn-lesson.js, language-lesson.js), not from the sentence's trace.
import { tour } from './tour.js';
import { historyStrip } from './history-strip.js';
import { LearnLesson } from './learn-lesson.js';
import { probeView } from './probe-view.js';
import { trainedHeads } from './trained-heads.js';
import { trainingCurves } from './training-curves.js';
import { LanguageLesson } from './language-lesson.js';
import { languageCurves, languageHeads, languageNext } from './language-figures.js';
import { LANGUAGE_TASK } from './language-run.js';
import { learnTasks } from './tasks.js';
import { element } from '../../views/layout.js';
import { coreLimits, trainerLimits } from '../../settings/limits.js';
import { defaultsOf } from '../../settings/schema.js';

/** A size of the model: a whole number, or null for the task's default (core.createTrainer). */
const TASK_DEFAULT = { type: 'integer', default: null, nullable: true };

/** Its figures draw the training's data, which the chapter publishes on its own (not a sentence: drawn while it is empty). */
const FROM_TRAINING = { needs: 'learn', published: true, withoutSentence: true };
/** The language task's figures draw its own snapshots (language-lesson.js publishes them as learnLanguage). */
const FROM_LANGUAGE = { needs: 'learnLanguage', published: true, withoutSentence: true };

export const learnChapter = {
  id: 'learn',
  title: 'Learn',
  takeaway:
    'Attention patterns are learned: train a small transformer on a task and watch its heads turn from noise into ' +
    'the patterns that solve it — a head that looks one token back, then, in two layers, induction heads that copy what followed ' +
    'an earlier occurrence.',
  views: ['learn'],
  /** The chapter reads only its own training, not the sentence: the sentence box and its settings step aside. */
  usesSentence: false,
  /**
   * Its slice of the state, entries of the state schema (settings/schema.js): the task, the model's size (null: the
   * task's default), the seed, the pace and the probe.
   */
  settings: [
    // A name of tasks.js learnTasks(): core.trainerLimits.tasks, or 'language'.
    {
      name: 'trainTask',
      type: 'name',
      default: 'induction',
      names: () => learnTasks(trainerLimits().tasks),
      attribute: 'task',
    },
    { name: 'trainLayers', ...TASK_DEFAULT, range: () => [1, trainerLimits().maxLayers] },
    { name: 'trainHeads', ...TASK_DEFAULT, range: () => [1, trainerLimits().maxHeads] },
    { name: 'trainDModel', ...TASK_DEFAULT, range: () => [1, trainerLimits().maxDModel] },
    {
      name: 'trainLearningRate',
      type: 'number',
      default: null,
      nullable: true,
      range: () => [0, Infinity],
      aboveMin: true,
    },
    // The same seed gives the same model, batches and curves.
    { name: 'trainSeed', type: 'integer', default: 0, range: () => [0, coreLimits().maxSeed] },
    // Steps per second (0: as fast as the worker runs); tasks.js SPEEDS.
    { name: 'trainSpeed', type: 'integer', default: 100, range: () => [0, Infinity] },
    // The loss on a logarithmic axis.
    { name: 'trainLog', type: 'boolean', default: false },
    // The probe as typed (probe.js); '' the task's default.
    { name: 'trainProbe', type: 'text', default: '' },
  ],
  /** Its slice's defaults (a fresh object). */
  state() {
    return defaultsOf(this.settings);
  },
  /** Its steps of the guided tour (tour.js). */
  tour,
  /**
   * Its figures (explorer/figures.js), drawn from the training snapshots the chapter publishes (learn-lesson.js
   * figureData), not from the sentence's trace.
   */
  figures: {
    learnCurves: {
      ...FROM_TRAINING,
      draw: ({ learn }, _, { trainLog }) => trainingCurves(learn.history, { log: trainLog }),
    },
    learnHeads: {
      ...FROM_TRAINING,
      draw: ({ learn }, _, { colorMap }, { canvas }) =>
        trainedHeads(learn.shown, {
          ...learn.names,
          colorMap,
          canvas,
          caption:
            learn.at === null
              ? undefined
              : `Every head's attention on the probe at step ${learn.shown.step} (scrubbed back in history)`,
        }),
    },
    learnHistory: {
      ...FROM_TRAINING,
      draw: ({ learn }, _, { colorMap }, { canvas }) => historyStrip(learn.history, { at: learn.at, colorMap, canvas }),
    },
    learnProbe: { ...FROM_TRAINING, draw: ({ learn }) => probeView(learn.shown, learn.names) },
    learnLanguageCurves: {
      ...FROM_LANGUAGE,
      draw: ({ learnLanguage: d }, _, { trainLog }) =>
        languageCurves(d.history, d.latest.baselines, {
          log: trainLog,
          outputWords: d.model.outputWords,
          tiedOutput: d.model.options.tiedOutput,
        }),
    },
    learnLanguageHeads: {
      ...FROM_LANGUAGE,
      draw: ({ learnLanguage: d }, _, { colorMap }, { canvas }) =>
        languageHeads(d.latest, { ...d.model.options, labelThreshold: d.model.labelThreshold, colorMap, canvas }),
    },
    learnLanguageNext: {
      ...FROM_LANGUAGE,
      draw: ({ learnLanguage: d }) =>
        languageNext(d.latest, {
          outputWords: d.model.outputWords,
          tiedOutput: d.model.options.tiedOutput,
          shipped: d.shipped,
        }),
    },
  },
  /** @param {import('../chapters.js').ChapterParts} parts @returns {import('../chapters.js').BuiltChapter} */
  build(parts) {
    const learn = new LearnLesson(parts);
    const language = new LanguageLesson(parts);
    const { slots } = parts;
    const figures = element('div', 'language-figures');
    figures.append(slots.learnLanguageCurves, slots.learnLanguageHeads, slots.learnLanguageNext);
    const content = [...learn.content(), ...language.content([figures])];
    return {
      content,
      views: { learn: content },
      figureControls: [],
      sync(state, context) {
        learn.sync(state, context);
        language.sync(state, {
          ...context,
          active: state.trainTask === LANGUAGE_TASK,
          open: context.open === 'learn',
        });
      },
    };
  },
};
