// core.createTrainer(): the attention-only transformer trained in the core (web/src/core/trainer.js,
// cpp/include/attn/train/). Checked through the JS API: options and errors, gradients against central
// differences, determinism, every task learning what it should (in steps, not seconds: speed is for
// npm run bench), the head scores, attention, predictions, parameters and ablation.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';

let core;
before(async () => {
  core = await createAttentionCore();
});

/** Steps in chunks of `every` until done(evaluation) or `max` steps; the evaluation that ended it. */
function trainUntil(trainer, done, { every = 25, max }) {
  let e;
  for (let s = 0; s < max; s += every) {
    trainer.step(every);
    e = trainer.evaluate();
    if (done(e)) break;
  }
  return e;
}
const max = (tensor) => Math.max(...tensor.data);

describe('createTrainer: options', () => {
  test('the task names and limits come from the core; each task fills in its defaults', () => {
    assert.deepEqual(core.trainerLimits.tasks, ['previous-token', 'reverse', 'sort', 'induction']);
    assert.deepEqual(core.trainerLimits.positionalEncodings, ['sinusoidal', 'learned', 'none']);
    const t = core.createTrainer({ task: 'sort', seed: 3 });
    assert.deepEqual(t.options, {
      task: 'sort',
      numLayers: 2,
      numHeads: 2,
      dModel: 32,
      seqLen: 16,
      vocabSize: 17,
      batchSize: 16,
      learningRate: t.options.learningRate,
      weightDecay: t.options.weightDecay,
      positionalEncoding: 'sinusoidal',
      seed: 3,
    });
    assert.ok(Math.abs(t.options.learningRate - 0.01) < 1e-9 && Math.abs(t.options.weightDecay - 0.01) < 1e-9);
    assert.equal(core.createTrainer().options.task, 'induction');
  });

  test('bad options are named RangeErrors and TypeErrors', () => {
    assert.throws(
      () => core.createTrainer({ task: 'copy' }),
      /task must be one of 'previous-token', 'reverse', 'sort', 'induction', got copy/,
    );
    assert.throws(() => core.createTrainer({ numLayer: 2 }), {
      name: 'RangeError',
      message: /unknown option 'numLayer'/,
    });
    assert.throws(() => core.createTrainer({ numLayers: 5 }), {
      name: 'RangeError',
      message: /numLayers must be an integer from 1 to 4/,
    });
    assert.throws(() => core.createTrainer({ numHeads: 3 }), {
      name: 'RangeError',
      message: /^createTrainer: numHeads must divide dModel = 32, got 3$/,
    });
    assert.throws(() => core.createTrainer({ task: 'sort', vocabSize: 5 }), {
      name: 'RangeError',
      message: /vocabSize must be at least 9 for task 'sort'/,
    });
    assert.throws(() => core.createTrainer({ learningRate: 0 }), { name: 'RangeError', message: /learningRate/ });
    assert.throws(() => core.createTrainer({ positionalEncoding: 'rope' }), {
      name: 'RangeError',
      message: /'sinusoidal', 'learned', 'none'/,
    });
    assert.throws(() => core.createTrainer({ seed: '1' }), { name: 'TypeError' });
    assert.throws(
      () => core.createTrainer({ seqLen: 256, dModel: 512, numLayers: 4, batchSize: 1024, vocabSize: 100 }),
      { name: 'RangeError', message: /the activations of a batch .* above the limit/ },
    );
    const t = core.createTrainer({ task: 'previous-token' });
    assert.throws(() => t.step(0), { name: 'RangeError' });
    assert.throws(() => t.step(1e9), { name: 'RangeError', message: /n must be an integer from 1 to 100000/ });
    assert.throws(() => t.predict([0, 16]), {
      name: 'RangeError',
      message: /tokens\[1\] = 16 is outside \[0, vocabSize = 16\)/,
    });
    assert.throws(() => t.predict(new Array(17).fill(0)), { name: 'RangeError', message: /1 to seqLen = 16 tokens/ });
    assert.throws(() => t.attention(['a']), { name: 'TypeError' });
    assert.throws(() => t.ablate({ layer: 1, head: 0 }), {
      name: 'RangeError',
      message: /layer must be an integer from 0 to 0/,
    });
  });
});

describe('lossAndGradients: the hand-written backward pass through the API', () => {
  test('agrees with central differences of the loss for entries of every parameter tensor', () => {
    const t = core.createTrainer({
      task: 'induction',
      numLayers: 2,
      numHeads: 2,
      dModel: 8,
      seqLen: 8,
      vocabSize: 6,
      batchSize: 4,
      positionalEncoding: 'learned',
      seed: 5,
    });
    t.step(20); // away from the initialization, so every path carries gradient
    const batch = t.sample(4);
    const { loss, gradients } = t.lossAndGradients(batch);
    const base = t.parameters();
    // Every tensor under its core name: embedding, positional, layers.<l>.attention.w_q … w_o, unembedding
    assert.deepEqual(Object.keys(gradients), Object.keys(base));
    assert.equal(Object.keys(base).length, 3 + 2 * 4);
    const tensors = Object.keys(base).map((name) => [name, base[name], gradients[name]]);
    const h = 1e-2; // float32 losses: a step large enough for differences above rounding, small for O(h²)
    let worst = 0,
      checked = 0;
    for (const [name, tensor, grad] of tensors) {
      assert.deepEqual(grad.shape, tensor.shape, name);
      // the entries with the largest gradients, and a spread of others
      const order = [...grad.data.keys()].sort((a, b) => Math.abs(grad.data[b]) - Math.abs(grad.data[a]));
      for (const i of [...order.slice(0, 3), ...order.filter((_, k) => k % 17 === 5).slice(0, 3)]) {
        const saved = tensor.data[i];
        tensor.data[i] = saved + h;
        t.setParameters(base);
        const plus = t.lossAndGradients(batch).loss;
        tensor.data[i] = saved - h;
        t.setParameters(base);
        const minus = t.lossAndGradients(batch).loss;
        tensor.data[i] = saved;
        const numeric = (plus - minus) / (2 * h);
        const error = Math.abs(numeric - grad.data[i]);
        worst = Math.max(worst, error);
        checked++;
        assert.ok(
          error < 2e-3 + 0.03 * Math.abs(numeric),
          `${name}[${i}]: backward ${grad.data[i]}, central difference ${numeric}`,
        );
      }
    }
    t.setParameters(base);
    assert.equal(t.lossAndGradients(batch).loss, loss, 'parameters restored');
    console.log(
      `lossAndGradients: ${checked} entries of ${tensors.length} tensors, largest |difference| ${worst.toExponential(2)}`,
    );
  });

  test("the loss is the mean cross-entropy of predict()'s logits over the scored positions", () => {
    const t = core.createTrainer({ task: 'reverse', seed: 2 });
    t.step(10);
    const batch = t.sample(3);
    const [B, T] = batch.shape;
    let sum = 0,
      count = 0;
    for (let b = 0; b < B; b++) {
      const { logits } = t.predict(batch.tokens.subarray(b * T, (b + 1) * T));
      const V = logits.shape[1];
      for (let i = 0; i < T; i++) {
        if (!batch.scored[b * T + i]) continue;
        const row = [...logits.data.subarray(i * V, (i + 1) * V)];
        const m = Math.max(...row);
        sum += m + Math.log(row.reduce((s, x) => s + Math.exp(x - m), 0)) - row[batch.targets[b * T + i]];
        count++;
      }
    }
    assert.ok(Math.abs(t.lossAndGradients(batch).loss - sum / count) < 1e-5);
  });
});

describe('training', () => {
  test('the same seed gives identical losses and parameters', () => {
    const a = core.createTrainer({ task: 'induction', seed: 9 }),
      b = core.createTrainer({ task: 'induction', seed: 9 });
    for (let i = 0; i < 4; i++) assert.deepEqual(a.step(5), b.step(5));
    assert.deepEqual(a.parameters(), b.parameters());
    assert.notDeepEqual(
      core.createTrainer({ task: 'induction', seed: 10 }).step(1),
      core.createTrainer({ task: 'induction', seed: 9 }).step(1),
    );
  });

  test('previous-token: ≥ 0.95 accuracy, and a head attending to i − 1; ablating it blinds the model', () => {
    const t = core.createTrainer({ task: 'previous-token' });
    const e = trainUntil(t, (r) => r.accuracy >= 0.95, { max: 400 });
    assert.ok(e.accuracy >= 0.95, `accuracy ${e.accuracy} at step ${e.step}`);
    assert.ok(e.headScores.previousToken.data[0] > 0.5, `previous-token score ${e.headScores.previousToken.data[0]}`);
    t.ablate({ layer: 0, head: 0 });
    assert.ok(t.evaluate().accuracy < 0.2, 'without its only head the model cannot see the previous token');
    t.ablate({ layer: 0, head: 0 }, false);
    assert.equal(t.evaluate().accuracy, e.accuracy);
  });

  test('induction: a prefix-matching head ≥ 0.4 and ≥ 0.9 accuracy on the scored positions', () => {
    const t = core.createTrainer({ task: 'induction' });
    const first = t.evaluate();
    const e = trainUntil(t, (r) => r.accuracy >= 0.9 && max(r.headScores.prefixMatching) >= 0.4, { max: 2000 });
    console.log(
      `induction: accuracy ${first.accuracy.toFixed(3)} → ${e.accuracy.toFixed(3)} and prefix matching ${max(first.headScores.prefixMatching).toFixed(2)} → ${max(e.headScores.prefixMatching).toFixed(2)} at step ${e.step}`,
    );
    assert.ok(e.accuracy >= 0.9 && max(e.headScores.prefixMatching) >= 0.4, JSON.stringify(e));
    assert.deepEqual(e.headScores.prefixMatching.shape, [2, 2]);
    // The induction head is in layer 1 (it needs layer 0's previous-token information)
    const pm = e.headScores.prefixMatching.data;
    assert.ok(Math.max(pm[2], pm[3]) > Math.max(pm[0], pm[1]), `prefix matching by head ${[...pm]}`);
    // Ablating that head costs accuracy
    const head = pm[2] > pm[3] ? 0 : 1;
    t.ablate({ layer: 1, head });
    const ablated = t.evaluate().accuracy;
    assert.ok(ablated < e.accuracy - 0.3, `accuracy ${e.accuracy} → ${ablated} without layer 1 head ${head}`);
  });

  for (const task of ['reverse', 'sort']) {
    test(`${task}: ≥ 0.95 accuracy`, () => {
      const t = core.createTrainer({ task });
      const e = trainUntil(t, (r) => r.accuracy >= 0.95, { max: 1000 });
      assert.ok(e.accuracy >= 0.95, `accuracy ${e.accuracy} at step ${e.step}`);
    });
  }
});

describe('reading the model', () => {
  test('attention(): [L, H, T, T], causal rows summing to 1, on a sample by default', () => {
    const t = core.createTrainer({ task: 'induction' });
    const { tokens, weights } = t.attention();
    assert.equal(tokens.length, 16);
    assert.deepEqual(weights.shape, [2, 2, 16, 16]);
    for (let row = 0; row < 2 * 2 * 16; row++) {
      const i = row % 16;
      const cells = weights.data.subarray(row * 16, row * 16 + 16);
      assert.ok(Math.abs(cells.reduce((s, w) => s + w, 0) - 1) < 1e-5);
      assert.ok(
        cells.subarray(i + 1).every((w) => w === 0),
        'no weight on later tokens',
      );
    }
    assert.deepEqual(t.attention([3, 1, 4]).weights.shape, [2, 2, 3, 3]);
  });

  test('predict(): predictions are the argmax of the logits', () => {
    const t = core.createTrainer({ task: 'sort' });
    const { logits, predictions } = t.predict([4, 2, 9, 16, 2]);
    assert.deepEqual(logits.shape, [5, 17]);
    predictions.forEach((p, i) => {
      const row = logits.data.subarray(i * 17, (i + 1) * 17);
      assert.equal(p, row.indexOf(Math.max(...row)));
    });
  });

  test("sample(): the task's layout, from a stream that does not change training", () => {
    const a = core.createTrainer({ task: 'reverse' }),
      b = core.createTrainer({ task: 'reverse' });
    const s = a.sample(2);
    assert.deepEqual(s.shape, [2, 16]);
    assert.ok(s.tokens instanceof Int32Array && s.targets instanceof Int32Array && s.scored instanceof Uint8Array);
    for (let r = 0; r < 2; r++) {
      const row = [...s.tokens.subarray(r * 16, r * 16 + 16)];
      assert.equal(row[8], 16, 'the separator');
      assert.deepEqual(row.slice(9), row.slice(1, 8).reverse());
    }
    assert.deepEqual(a.step(3), b.step(3), 'sampling did not move the training stream');
  });

  test('parameters() and setParameters(): a copy, checked', () => {
    const t = core.createTrainer({ task: 'previous-token', positionalEncoding: 'learned' });
    const p = t.parameters();
    assert.deepEqual(p.embedding.shape, [16, 32]);
    assert.deepEqual(p.positional.shape, [16, 32]);
    assert.deepEqual(p.unembedding.shape, [32, 16]);
    assert.deepEqual(Object.keys(p), [
      'embedding',
      'positional',
      'layers.0.attention.w_q',
      'layers.0.attention.w_k',
      'layers.0.attention.w_v',
      'layers.0.attention.w_o',
      'unembedding',
    ]);
    assert.deepEqual(p['layers.0.attention.w_o'].shape, [32, 32]);
    p.embedding.data[0] = 123;
    assert.notEqual(t.parameters().embedding.data[0], 123, 'a copy');
    t.setParameters(p);
    assert.equal(t.parameters().embedding.data[0], 123);
    assert.throws(() => t.setParameters({ ...p, unembedding: { data: new Float32Array(4), shape: [2, 2] } }), {
      name: 'RangeError',
      message: /tensor 'unembedding' is missing or does not hold 512 numbers/,
    });
    const missing = { ...p };
    delete missing['layers.0.attention.w_v'];
    assert.throws(() => t.setParameters(missing), {
      name: 'RangeError',
      message: /'layers\.0\.attention\.w_v' is missing/,
    });
    p['layers.0.attention.w_k'].data[5] = NaN;
    assert.throws(() => t.setParameters(p), {
      name: 'RangeError',
      message: /layers\.0\.attention\.w_k holds a value that is not finite \(data\[5\] = NaN/,
    });
    assert.throws(() => t.setParameters({ ...p, embedding: [1, 2] }), {
      name: 'TypeError',
      message: /embedding\.data must be a Float32Array/,
    });
  });

  test('training does not grow the wasm heap after the first steps', () => {
    const t = core.createTrainer({ task: 'induction' });
    t.step(2);
    t.evaluate();
    const heap = core.heapInUse();
    for (let i = 0; i < 20; i++) {
      t.step(2);
      t.evaluate();
      t.attention();
    }
    assert.equal(core.heapInUse(), heap);
  });
});
