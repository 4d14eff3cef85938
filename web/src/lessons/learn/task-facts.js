// Numbers the Learn chapter's text quotes about a task, computed from the task as the core defines it
// (never written in): the loss of a uniform guess over the vocabulary, ln V nats (the cross-entropy of
// a uniform distribution over V tokens), and the held-out loss of the seed's untrained model, which
// sits above ln V because its initial logits are not uniform.
import { trainerOptions } from './learn-lesson.js';

const known = new Map(); // trainer options (JSON) → facts: the same options give the same numbers

/**
 * @param {object} core  from createAttentionCore
 * @param {object} state  the explorer's state (its Learn slice: trainTask, trainSeed, sizes)
 * @returns {{ task: string, seed: number, vocabSize: number, guessLoss: number, initialLoss: number }}
 *   losses in nats on the trainer's held-out sequences (trainer.evaluate)
 */
export function taskFacts(core, state) {
  const options = trainerOptions(state);
  const key = JSON.stringify(options);
  if (!known.has(key)) {
    const trainer = core.createTrainer(options);
    const { vocabSize, task, seed } = trainer.options;
    known.set(key, { task, seed, vocabSize, guessLoss: Math.log(vocabSize), initialLoss: trainer.evaluate().loss });
  }
  return known.get(key);
}
