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

test("the logits' step says where the undrawn <unk> stands: its value and its rank, the largest when it is", () => {
  const trainer = core.createLanguageTrainer({ ...SMALL, objective: 'masked', tiedOutput: false });
  trainer.step(3);
  const { output, steps } = stepsOf(trainer.model());
  const logits = output.logits;
  const V = logits.length;
  const above = logits.filter((z) => z > logits[V - 1]).length;
  const note = steps[1].shapeNote;
  assert.doesNotMatch(note, /<unk> last/, 'not "last", which reads as the smallest');
  assert.ok(note.includes(`is not drawn: ${logits[V - 1].toFixed(2)}, `), note);
  assert.ok(note.includes(above === 0 ? 'the largest of all' : `rank ${above + 1} of ${V}`), note);
  // <unk> the largest of all logits, as on the shipped decoder after many sentences
  const raised = {
    ...output,
    logits: Float32Array.from(logits, (z, o) => (o === V - 1 ? Math.max(...logits) + 1 : z)),
  };
  const can = { generate: false, fillBlanks: true, outputLayer: true, designedControls: false };
  const tokens = Array.from({ length: output.position + 1 }, () => ({ text: '[MASK]' }));
  const [, logitsStep] = outputSteps({ config: trainer.model().config, tokens, output: raised, can });
  assert.match(
    logitsStep.shapeNote,
    /<unk> \(every word outside the vocabulary, z's last entry\) is not drawn: [-\d.]+, the largest of all/,
  );
});
