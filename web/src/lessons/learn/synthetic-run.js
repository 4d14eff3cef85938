// The Learn chapter's attention-only tasks (core.createTrainer: previous-token, reverse, sort, induction) on
// the training thread, in the lesson interface train-loop.js runs: making the trainer, the message that
// announces it, the probe (token ids) and the snapshots (snapshot.js).
import { defaultProbe } from './probe.js';
import { takeSnapshot } from './snapshot.js';

export const syntheticRun = {
  /** Steps per core call at full speed, between clock reads (a step takes well under a millisecond). */
  chunk: 5,
  /** @param {{ createTrainer: Function }} api @param {object} options  TrainerOptions */
  async create(api, options) {
    return { trainer: api.createTrainer(options) };
  },
  /** The model message: the options in effect, the default probe and one sample of the task (after the probe: the sample stream's order). */
  announce: ({ trainer }, probe) => ({
    options: trainer.options,
    defaultProbe: Array.from(probe),
    example: Array.from(trainer.sample(1).tokens),
  }),
  /** The task's default probe, drawn first from the fresh sample stream. */
  defaultProbe: ({ trainer }) => defaultProbe(trainer),
  /** The probe's ids, checked by the trainer (a RangeError naming a bad id or the length). */
  probe({ trainer }, tokens) {
    const next = Int32Array.from(tokens);
    trainer.attention(next);
    return next;
  },
  snapshot: ({ trainer }, probe, run) => takeSnapshot(trainer, probe, run),
  transfer: (snapshot) => [snapshot.weights.data.buffer, snapshot.predictions.buffer],
};
