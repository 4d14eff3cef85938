// The stepper's output-layer steps (web/src/lessons/inside-head/output-steps.js) from a real run of a model trained
// here: four steps for a model whose output layer reads x_L (the shipped ones), five with BERT's output head, whose
// extra step shows the t the output layer read (run().outputInput), and whose logits step says z = t U + b.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { SMALL } from './small-trainer-options.js';
import { outputAt } from '../../web/src/models/output-layer.js';
import { outputSteps } from '../../web/src/lessons/inside-head/output-steps.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

/** The output steps of `model` on a sentence with one blank, at the blank. */
function stepsOf(model) {
  const run = model.run('the light of the [MASK] was bright', { positions: 'masks' });
  const position = run.tokens.findIndex((token) => token.mask);
  const output = outputAt(model, run, position);
  // The encoder's blank: what a Run of a model that fills blanks (models/registry.js) can do.
  const can = { generate: false, fillBlanks: true, outputLayer: true, designedControls: false };
  return { output, run, position, steps: outputSteps({ config: model.config, tokens: run.tokens, output, can }) };
}

test('without the output head: four steps, and the logits read x_L', () => {
  const trainer = core.createLanguageTrainer({ ...SMALL, objective: 'masked', tiedOutput: false });
  trainer.step(3);
  const { output, run, position, steps } = stepsOf(trainer.model());
  assert.equal(output.t, null);
  assert.equal(steps.length, 4);
  assert.match(steps[1].tex, /^z = x_L\\,U \+ b/);
  // Without a head the output layer's input is x_L itself
  assert.deepEqual(Array.from(run.outputInput[position]), Array.from(output.x.data));
});

test("with BERT's output head: a fifth step shows t, and the logits read t", () => {
  const trainer = core.createLanguageTrainer({ ...SMALL, objective: 'masked', tiedOutput: false, outputHead: true });
  trainer.step(3);
  const { output, steps } = stepsOf(trainer.model());
  assert.equal(steps.length, 5);
  assert.match(steps[1].title, /output head/);
  assert.equal(steps[1].tensor, output.t);
  assert.equal(output.t.data.length, 100);
  // t is a LayerNorm's output: with γ and β near their start (1, 0) its mean is near 0 and its variance near 1
  const mean = output.t.data.reduce((a, b) => a + b, 0) / 100;
  assert.ok(Math.abs(mean) < 0.1, `mean of t ${mean}`);
  assert.notDeepEqual(Array.from(output.t.data), Array.from(output.x.data));
  assert.match(steps[2].tex, /^z = t\\,U \+ b/);
  assert.match(steps[2].describe(0, 0, 1.5), /= t · U\[:, \d+\] \+ b\[\d+\] = 1\.5000$/);
});
