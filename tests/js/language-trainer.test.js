// core.createLanguageTrainer(): a transformer language model trained in the core on given text
// (web/src/core/language-trainer.js, cpp/include/attn/train/language_trainer.hpp), through the JS API:
// options and errors, the loss falling, determinism, gradients against central differences, parameters.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { SMALL, TEXT } from './small-trainer-options.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

describe('createLanguageTrainer', () => {
  test("defaults are the core's base recipe, and the shipped files differ from it only where the docs say", async () => {
    const d = core.languageModelLimits.trainerDefaults;
    assert.equal(d.objective, 'causal');
    assert.equal(d.numLayers, 2);
    assert.equal(d.dFF, 400);
    assert.equal(d.maskRate, 0.15);
    assert.equal(d.tiedOutput, true);
    assert.equal(Math.fround(d.learningRate), Math.fround(3e-3));
    // docs/language-models.md and language-trainer.d.ts: the decoder 4 layers, d_ff 800, untied from the GloVe rows,
    // α 2.5e-3, 16 windows of 64 tokens a step and the repeated-span curriculum (every window for 4,000 steps, half
    // after); the encoder 4 layers, untied from the GloVe rows, with 40 % masking, α 2.5e-3 and 16,383 output words
    // (and each its own number of steps, which the defaults leave open).
    const documented = {
      causal: {
        numLayers: 4,
        dFF: 800,
        tiedOutput: false,
        outputInit: 'glove',
        learningRate: 2.5e-3,
        seqLen: 64,
        batchSize: 16,
        repeatShare: 1,
        repeatSteps: 4000,
        repeatShareAfter: 0.5,
      },
      masked: {
        objective: 'masked',
        numLayers: 4,
        tiedOutput: false,
        outputInit: 'glove',
        outputWords: 16383,
        maskRate: 0.4,
        learningRate: 2.5e-3,
      },
    };
    for (const kind of ['causal', 'masked']) {
      const { recipe } = (await core.languageModel(kind)).config;
      const differs = Object.fromEntries(
        Object.keys(d)
          .filter((key) => key in recipe && recipe[key] !== d[key])
          .map((key) => [key, typeof recipe[key] === 'number' ? Number(recipe[key].toPrecision(6)) : recipe[key]]),
      );
      assert.deepEqual(differs, documented[kind], `the shipped ${kind} recipe against the defaults`);
    }
  });

  test('unknown or bad options are refused', () => {
    for (const maskRate of [0, 1.5, NaN]) {
      assert.throws(() => core.createLanguageTrainer({ ...SMALL, objective: 'masked', maskRate }), {
        name: 'RangeError',
        message: /maskRate/,
      });
    }
    assert.throws(() => core.createLanguageTrainer({ bogus: 1 }), {
      name: 'RangeError',
      message: /unknown option 'bogus'/,
    });
    assert.throws(() => core.createLanguageTrainer({ objective: 'seq2seq' }), {
      name: 'RangeError',
      message: /'causal', 'masked'/,
    });
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, numHeads: 3 }), {
      name: 'RangeError',
      message: /^createLanguageTrainer: numHeads must divide dModel = 100/,
    });
    // A text of fewer than 20 lines has no held-out line of its own: the message says what to pass.
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, text: 'too short' }), {
      name: 'RangeError',
      message:
        /^createLanguageTrainer: without heldOutText, every 20th line of text is held out, and this text has 1 line: pass heldOutText/,
    });
    // With both texts given, the core says how many tokens each holds and what each needs.
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, text: 'too short', heldOutText: TEXT }), {
      name: 'RangeError',
      message:
        /^createLanguageTrainer: the training text holds 2 tokens and the held-out text \d+: each needs more than seqLen = 8 \(give more text, or a smaller seqLen\)$/,
    });
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, text: 42 }), { name: 'TypeError' });
  });

  test("maskRate is the share of a masked model's training positions that are scored", () => {
    const share = (maskRate) => {
      const t = core.createLanguageTrainer({ ...SMALL, objective: 'masked', maskRate });
      let scored = 0,
        positions = 0;
      for (let i = 0; i < 20; ++i) {
        const batch = t.sample(); // the next step's batch
        t.step(1);
        scored += batch.scored.reduce((sum, x) => sum + x, 0);
        positions += batch.scored.length;
      }
      return scored / positions;
    };
    const [bert, wettig] = [share(0.15), share(0.4)];
    // 1,280 positions each; a window of 8 with none chosen gets one, which adds ≈ 0.034 at 0.15
    assert.ok(bert > 0.12 && bert < 0.25, `maskRate 0.15: ${bert}`);
    assert.ok(wettig > 0.35 && wettig < 0.47, `maskRate 0.4: ${wettig}`);
  });

  test('repeatShare: that share of the windows holds a span twice; out of [0, 1] it is refused', () => {
    for (const repeatShare of [-0.1, 1.5, NaN]) {
      assert.throws(() => core.createLanguageTrainer({ ...SMALL, repeatShare }), {
        name: 'RangeError',
        message: /repeatShare/,
      });
    }
    const half = SMALL.seqLen / 2;
    const repeating = (repeatShare) => {
      const batch = core.createLanguageTrainer({ ...SMALL, batchSize: 64, repeatShare }).sample();
      let count = 0;
      for (let b = 0; b < 64; ++b) {
        const row = batch.tokens.subarray(b * SMALL.seqLen, (b + 1) * SMALL.seqLen);
        count += row.subarray(0, half).every((token, t) => token === row[t + half]);
      }
      return count;
    };
    assert.equal(repeating(1), 64);
    // Text rarely repeats a 4-token span by itself; half the windows are made to
    assert.ok(repeating(0) <= 2, `repeatShare 0: ${repeating(0)}`);
    const some = repeating(0.5);
    assert.ok(some >= 20 && some <= 46, `repeatShare 0.5: ${some} of 64`);
  });

  test("outputInit 'glove' starts the learned output as the tied one: the same logits for every word", () => {
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, outputInit: 'glove' }), {
      name: 'RangeError',
      message: /outputInit 'glove'.*tiedOutput false/,
    });
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, outputInit: 'ones' }), /'random', 'glove'/);
    const tied = core.createLanguageTrainer({ ...SMALL, tiedOutput: true }).model();
    const glove = core.createLanguageTrainer({ ...SMALL, tiedOutput: false, outputInit: 'glove' }).model();
    const random = core.createLanguageTrainer({ ...SMALL, tiedOutput: false }).model();
    const text = 'The river bank was muddy after the storm';
    const [a, b, c] = [tied, glove, random].map((m) => m.run(text, { positions: [-1] }).logits.at(-1));
    const words = a.length - 1; // <unk> last: its column is the learned <unk> row when tied, drawn at random otherwise
    let largest = 0,
      apart = 0;
    for (let o = 0; o < words; ++o) {
      largest = Math.max(largest, Math.abs(a[o] - b[o]));
      apart = Math.max(apart, Math.abs(a[o] - c[o]));
    }
    assert.ok(largest < 1e-4, `tied vs glove-started: ${largest}`);
    assert.ok(apart > 0.1, `tied vs random-started: ${apart}`);
  });

  test("outputVocabulary 'glove' fills the output words past the text's with the GloVe table's", () => {
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, outputWords: 3000 }), {
      name: 'RangeError',
      message: /distinct words with word vectors/,
    });
    const t = core.createLanguageTrainer({ ...SMALL, outputWords: 3000, outputVocabulary: 'glove' });
    assert.equal(t.vocabulary.length, 3001);
    assert.equal(new Set(t.vocabulary).size, 3001);
    assert.equal(t.options.outputVocabulary, 'glove');
    assert.ok(Number.isFinite(t.step(1).loss));
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, outputVocabulary: 'all' }), /'text', 'glove'/);
  });

  test('training lowers the held-out loss, for both objectives; the same seed gives the same losses bit for bit', () => {
    for (const objective of ['causal', 'masked']) {
      const a = core.createLanguageTrainer({ ...SMALL, objective });
      const b = core.createLanguageTrainer({ ...SMALL, objective });
      assert.ok(a.trainTokens > 500 && a.heldOutTokens > 20, `${a.trainTokens} / ${a.heldOutTokens} tokens`);
      assert.equal(a.vocabulary.length, 201);
      const before = a.evaluate();
      for (let i = 0; i < 6; ++i) assert.equal(a.step(5).loss, b.step(5).loss);
      const after = a.evaluate();
      assert.ok(after.loss < before.loss - 0.5, `${objective}: ${before.loss} → ${after.loss}`);
      assert.ok(Math.abs(after.perplexity - Math.exp(after.loss)) < 1e-6 * after.perplexity);
    }
  });

  test('gradients: lossAndGradients agrees with central differences on sampled coordinates (float32)', () => {
    const t = core.createLanguageTrainer({ ...SMALL, seed: 4 });
    t.step(3);
    const batch = t.sample();
    const { loss, gradients } = t.lossAndGradients(batch);
    assert.ok(Number.isFinite(loss));
    const p = t.parameters();
    const h = 1e-2;
    let worst = 0;
    for (const name of ['output_bias', 'layers.0.norm1.gamma', 'layers.0.feed_forward.b_1', 'embedding']) {
      for (const i of [0, 3, 7]) {
        const at = (value) => {
          const q = structuredClone(p);
          q[name].data[i] = value;
          t.setParameters(q);
          return t.lossAndGradients(batch).loss;
        };
        const x = p[name].data[i];
        const numeric = (at(x + h) - at(x - h)) / (2 * h);
        // float32 losses: the difference quotient carries ~1e-4 of rounding, so small gradients are checked absolutely
        worst = Math.max(worst, Math.abs(numeric - gradients[name].data[i]) / (Math.abs(numeric) + 0.02));
      }
    }
    t.setParameters(p);
    assert.ok(worst < 0.05, `largest relative error ${worst}`);
  });

  test("outputHead: run()'s logits equal LayerNorm(GELU(x_L W_T + b_T)) U + b recomputed here from parameters()", () => {
    assert.throws(() => core.createLanguageTrainer({ ...SMALL, outputHead: 1 }), {
      name: 'TypeError',
      message: /outputHead must be true or false/,
    });
    const t = core.createLanguageTrainer({ ...SMALL, objective: 'masked', tiedOutput: false, outputHead: true });
    t.step(5);
    const p = t.parameters();
    assert.deepEqual(p['output_head.dense.w'].shape, [100, 100]);
    assert.deepEqual(Object.keys(p).slice(-6, -2), [
      'output_head.dense.w',
      'output_head.dense.b',
      'output_head.norm.gamma',
      'output_head.norm.beta',
    ]);
    const model = t.model();
    assert.equal(model.config.outputHead, true);
    assert.equal(core.createLanguageTrainer(SMALL).model().config.outputHead, false);
    const r = model.run('the light of the [MASK] was bright', { positions: 'masks' });
    const at = r.tokens.findIndex((token) => token.mask);
    const d = 100;
    const x = r.hidden[0].data.subarray(at * d, (at + 1) * d);
    // erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), for GELU(u) = u (1 + erf(u / √2)) / 2
    const erf = (u) => {
      const s = Math.sign(u),
        a = Math.abs(u),
        k = 1 / (1 + 0.3275911 * a);
      const poly = ((((1.061405429 * k - 1.453152027) * k + 1.421413741) * k - 0.284496736) * k + 0.254829592) * k;
      return s * (1 - poly * Math.exp(-a * a));
    };
    const W = p['output_head.dense.w'].data;
    const g = Array.from({ length: d }, (_, j) => {
      let u = p['output_head.dense.b'].data[j];
      for (let i = 0; i < d; ++i) u += x[i] * W[i * d + j];
      return (u * (1 + erf(u / Math.SQRT2))) / 2;
    });
    const mean = g.reduce((a, b) => a + b, 0) / d;
    const variance = g.reduce((a, b) => a + (b - mean) ** 2, 0) / d;
    const tRow = g.map(
      (v, j) =>
        ((v - mean) / Math.sqrt(variance + 1e-5)) * p['output_head.norm.gamma'].data[j] +
        p['output_head.norm.beta'].data[j],
    );
    tRow.forEach((v, j) =>
      assert.ok(Math.abs(v - r.outputInput[at][j]) < 1e-4, `t[${j}]: ${v} vs ${r.outputInput[at][j]}`),
    );
    const U = p.unembedding.data;
    const V = model.vocabulary.length;
    let worst = 0;
    for (let o = 0; o < V; ++o) {
      let z = p.output_bias.data[o];
      for (let j = 0; j < d; ++j) z += tRow[j] * U[j * V + o];
      worst = Math.max(worst, Math.abs(z - r.logits[at][o]));
    }
    assert.ok(worst < 1e-3, `largest logit difference ${worst}`);
  });

  test('parameters: named as in the C++, set back exactly; bad ones are refused', () => {
    const t = core.createLanguageTrainer(SMALL);
    const p = t.parameters();
    assert.deepEqual(Object.keys(p).slice(0, 3), ['embedding', 'layers.0.attention.w_q', 'layers.0.attention.b_q']);
    assert.deepEqual(p['layers.0.feed_forward.w_1'].shape, [100, 32]);
    t.step(2);
    t.setParameters(p);
    assert.deepEqual(t.parameters()['layers.0.attention.w_q'].data, p['layers.0.attention.w_q'].data);
    const { output_bias: _, ...missing } = p;
    assert.throws(() => t.setParameters(missing), { name: 'RangeError', message: /'output_bias' is missing/ });
    const bad = structuredClone(p);
    bad.embedding.data[0] = NaN;
    assert.throws(() => t.setParameters(bad), {
      name: 'RangeError',
      message: /embedding holds a value that is not finite/,
    });
  });
});

describe('createLanguageTrainer: baselines and snapshots of the model', () => {
  /** Output ids per line, as the corpus reads text (cpp/src/train/corpus.cpp token_stream): the word's index, else <unk>. */
  function outputIds(text, vocabulary) {
    const index = new Map(vocabulary.slice(0, -1).map((word, i) => [word, i]));
    return text
      .split('\n')
      .map((line) => core.tokenize(line).map((t) => index.get(t.text.toLowerCase()) ?? vocabulary.length - 1))
      .filter((ids) => ids.length > 0);
  }

  test("baselines(): the add-one unigram perplexity recomputed here from the texts; the bigram's is a perplexity", () => {
    const lines = TEXT.split('\n');
    const text = lines.slice(0, -12).join('\n'),
      heldOutText = lines.slice(-12).join('\n');
    const t = core.createLanguageTrainer({ ...SMALL, outputWords: 60, text, heldOutText });
    const V = t.vocabulary.length;
    const counts = new Float64Array(V);
    let N = 0;
    for (const ids of outputIds(text, t.vocabulary)) for (const id of ids) ((counts[id] += 1), (N += 1));
    const heldOut = outputIds(heldOutText, t.vocabulary).flat().slice(1); // every held-out token after the first
    const logProb = heldOut.reduce((sum, id) => sum + Math.log((counts[id] + 1) / (N + V)), 0);
    const b = t.baselines();
    assert.equal(b.tokens, heldOut.length);
    assert.ok(
      Math.abs(b.unigramPerplexity - Math.exp(-logProb / heldOut.length)) < 1e-6 * b.unigramPerplexity,
      `${b.unigramPerplexity} vs ${Math.exp(-logProb / heldOut.length)}`,
    );
    // (On this small text the bigram does worse than the unigram: most contexts were seen once. On the Learn sample it does better: learn.test.js.)
    assert.ok(
      Number.isFinite(b.bigramPerplexity) && b.bigramPerplexity > 1 && b.bigramPerplexity < V,
      String(b.bigramPerplexity),
    );
    assert.ok(b.bigramDiscount > 0 && b.bigramDiscount <= 1);
    assert.equal(t.baselines(), b); // computed once
  });

  test('model(): a copy of the parameters as they are now, that training does not change; release() frees it', () => {
    const t = core.createLanguageTrainer(SMALL);
    t.step(3);
    const model = t.model();
    assert.deepEqual(model.parameters(), t.parameters());
    assert.equal(model.config.steps, 3);
    assert.deepEqual(model.vocabulary, t.vocabulary);
    const before = model.run('the light of the sun', { positions: [-1] });
    t.step(3);
    assert.notDeepEqual(model.parameters(), t.parameters());
    assert.deepEqual(model.run('the light of the sun', { positions: [-1] }), before);
    const heads = model.measureHeads(TEXT, { maxWindows: 8 });
    assert.equal(heads.length, model.config.numLayers * model.config.numHeads);
    for (const h of heads) assert.ok(h.previous + h.next + h.self <= 1 + 1e-6 && h.entropyBits >= 0, JSON.stringify(h));
    model.release();
    assert.throws(() => model.run('the sun'), /released/);
    assert.throws(() => model.measureHeads('one'), /released/);
  });
});
