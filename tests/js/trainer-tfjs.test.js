// The hand-written backward pass against an independent one: TF.js's automatic differentiation of the
// same model (scripts/bench/tfjs-trainer.js), from the same parameters on the same batch.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { createAttentionCore } from 'attention-explorer/core';
import { useTfjsWasmForTraining } from '../../scripts/bench/tfjs-gradients.js';
import { tfjsModel } from '../../scripts/bench/tfjs-trainer.js';

let core;
before(async () => {
  await useTfjsWasmForTraining(tf);
  core = await createAttentionCore();
});

/** Every value of a parameters record, in its names' order (the core's parameter order, in both). */
function flat(p) {
  return Object.values(p).flatMap((t) => [...t.data]);
}

for (const positionalEncoding of ['sinusoidal', 'learned']) {
  test(`gradients equal TF.js's automatic differentiation (${positionalEncoding} positions, induction, 2 layers × 2 heads)`, () => {
    const trainer = core.createTrainer({ task: 'induction', positionalEncoding, seed: 4 });
    trainer.step(30);
    const model = tfjsModel(tf, trainer.options, trainer.parameters());
    const batch = trainer.sample(8);
    const ours = trainer.lossAndGradients(batch),
      theirs = model.lossAndGradients(batch);
    assert.deepEqual(Object.keys(theirs.gradients), Object.keys(ours.gradients));
    const a = flat(ours.gradients),
      b = flat(theirs.gradients);
    let worst = 0,
      largest = 0;
    a.forEach((g, i) => {
      worst = Math.max(worst, Math.abs(g - b[i]));
      largest = Math.max(largest, Math.abs(b[i]));
    });
    console.log(
      `${positionalEncoding}: loss ${ours.loss} vs TF.js ${theirs.loss}; ${a.length} gradients, largest difference ${worst.toExponential(2)} (largest gradient ${largest.toExponential(2)})`,
    );
    assert.ok(Math.abs(ours.loss - theirs.loss) < 1e-5);
    assert.ok(worst < 1e-5 * Math.max(1, largest));
    model.dispose();
  });
}
