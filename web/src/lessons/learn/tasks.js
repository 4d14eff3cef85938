// What the Learn chapter says about each of its tasks (the names are the core's, core.trainerLimits.tasks,
// and real English, language-run.js; cpp/include/attn/train/tasks.hpp defines them), and the head scores it
// watches (Olsson et al. 2022, §2).

import { LANGUAGE_TASK } from './language-run.js';

const DESCRIPTIONS = {
  [LANGUAGE_TASK]:
    'Real English: a 2-layer decoder learns to predict the next word from scratch, on a sample of the corpus the ' +
    'shipped model read or on your own text. Watch its held-out loss fall past the unigram and bigram lines, and its heads and ' +
    'next-word guesses on your sentence change.',
  'previous-token': 'Predict the token before this one. One head that looks one step back solves it.',
  reverse: 'Read values up to the separator |, then write them in reverse order.',
  sort: 'Read distinct values up to the separator |, then write them in ascending order.',
  induction:
    'A segment repeats later in the sequence: once it starts again, predict what came next the first time ' +
    '(…A B … A → B). Two layers solve it together: a previous-token head and an induction head.',
};

/**
 * The tasks a learner picks from: the core's attention-only tasks, then real English (language-run.js).
 * @param {readonly string[]} trainerTasks  core.trainerLimits.tasks
 */
export function learnTasks(trainerTasks) {
  return [...trainerTasks, LANGUAGE_TASK];
}

/**
 * The one-line description of a task.
 * @param {string} task  a name of core.trainerLimits.tasks
 * @throws {Error} for a task the page has no description of (so a task added in C++ cannot reach the page unexplained)
 */
export function taskDescription(task) {
  if (!Object.hasOwn(DESCRIPTIONS, task))
    throw new Error(`The page has no description of the training task "${task}".`);
  return DESCRIPTIONS[task];
}

/**
 * The head scores drawn per head, with the score at which a head counts as formed (the curves' markers:
 * head-formations.js). 0.4: well above chance on the probe (1/i for a uniform row at
 * position i, under 0.15 past its first few rows), and what docs/js-api.md's time-to-heads table uses.
 */
export const HEAD_SCORES = [
  { key: 'previousToken', label: 'previous token', short: 'prev', threshold: 0.4, head: 'previous-token head' },
  { key: 'prefixMatching', label: 'prefix matching', short: 'induct', threshold: 0.4, head: 'induction head' },
];

/** Training speeds a learner can pick, steps per second (0: as fast as the worker runs). */
export const SPEEDS = [
  [25, 'slow (25 steps/s)'],
  [100, 'normal (100 steps/s)'],
  [400, 'fast (400 steps/s)'],
  [0, 'full speed'],
];

/** Choices of the model's size (the core accepts more: core.trainerLimits). null: the task's default. */
export const SIZES = {
  trainLayers: [1, 2, 3],
  trainHeads: [1, 2, 4],
  trainDModel: [16, 32, 64],
  trainLearningRate: [0.003, 0.01, 0.03],
};
