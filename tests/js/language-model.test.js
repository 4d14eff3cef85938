// core.languageModel(): the shipped language models (web/assets/models/*.safetensors, trained by
// npm run train:lm) run on any text through the JS API: their configuration and measured quality, the
// shapes and properties of every output, the file checks, and bad input.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';

let core, causal, masked;
before(async () => {
  core = await createAttentionCore();
  [causal, masked] = await Promise.all([core.languageModel('causal'), core.languageModel('masked')]);
});

const SENTENCE = 'The river bank was muddy after the storm';
const rowSums = (weights, T) =>
  Array.from({ length: T }, (_, i) => weights.subarray(i * T, (i + 1) * T).reduce((a, b) => a + b, 0));

describe('languageModel: loading', () => {
  test('the kinds come from the core; another kind rejects with a RangeError listing them, never a synchronous throw', async () => {
    assert.deepEqual(core.languageModelLimits.objectives, ['causal', 'masked']);
    let returned;
    assert.doesNotThrow(() => {
      returned = core.languageModel('gpt');
    });
    assert.ok(returned instanceof Promise);
    await assert.rejects(returned, {
      name: 'RangeError',
      message: /^languageModel: kind must be one of 'causal', 'masked', got gpt/,
    });
    await assert.rejects(core.languageModel('causal', { bogus: 1 }), {
      name: 'RangeError',
      message: /unknown option 'bogus'/,
    });
  });

  test('a model is loaded once per kind', async () => {
    assert.equal(await core.languageModel('causal'), causal);
  });

  test('config: sizes, corpus and the held-out measurements recorded at training time beat the baselines', () => {
    for (const [model, kind] of [
      [causal, 'causal'],
      [masked, 'masked'],
    ]) {
      const c = model.config;
      assert.equal(c.kind, kind);
      assert.equal(c.objective, kind);
      assert.equal(c.dModel, 100);
      assert.equal(c.numHeads * c.dK, c.dModel);
      assert.ok(c.numLayers >= 1 && c.numLayers <= 4);
      assert.ok(c.outputSize > 8000 && c.outputSize <= 16385, `outputSize ${c.outputSize}`);
      assert.equal(model.vocabulary.length, c.outputSize);
      assert.equal(model.vocabulary.at(-1), '<unk>');
      assert.match(c.corpus, /WordNet/);
      assert.ok(c.trainTokens > 1e6);
    }
    const { heldOutPerplexity, baselines } = causal.config;
    assert.ok(
      heldOutPerplexity < 0.9 * baselines.bigramPerplexity,
      `held-out perplexity ${heldOutPerplexity} beats the Kneser–Ney bigram's ${baselines.bigramPerplexity} by 10 %`,
    );
    // The masked model against always guessing the most frequent words, on the same held-out blanks
    const { maskedTop1, maskedTop5, asStored } = masked.config;
    assert.ok(
      maskedTop1 > 1.5 * asStored.frequentTop1 && maskedTop5 > asStored.frequentTop5 + 0.05,
      `masked top-1 ${maskedTop1} / top-5 ${maskedTop5} against the most frequent words' ${asStored.frequentTop1} / ${asStored.frequentTop5}`,
    );
    // float16 storage: the stored weights' held-out perplexity within 0.1 % of the float32 weights'
    assert.ok(Math.abs(causal.config.asStored.heldOutPerplexity / heldOutPerplexity - 1) < 1e-3);
  });

  test('a corrupted, truncated or other file is refused, naming the file and what is wrong', async () => {
    const bytes = readFileSync(new URL('../../web/assets/models/masked.safetensors', import.meta.url));
    const flipped = new Uint8Array(bytes);
    flipped[flipped.length - 3] ^= 0x40;
    await assert.rejects(core.languageModel('masked', { bytes: flipped }), {
      name: 'RangeError',
      message: /masked model bytes: .*checksum .*corrupted/,
    });
    await assert.rejects(core.languageModel('masked', { bytes: bytes.subarray(0, 1000) }), {
      name: 'RangeError',
      message: /masked model bytes: truncated/,
    });
    await assert.rejects(core.languageModel('causal', { bytes }), {
      name: 'RangeError',
      message: /holds the masked model, not the causal one/,
    });
    await assert.rejects(
      core.languageModel('causal', { url: new URL('file:///nonexistent/causal.safetensors') }),
      /no such file/,
    );
    // A server answering a missing file with its site's page (a single-page app's fallback) sends HTML.
    const page = join(mkdtempSync(join(tmpdir(), 'ae-page-')), 'causal.safetensors');
    writeFileSync(page, '<!doctype html><html><body>Not here</body></html>');
    await assert.rejects(core.languageModel('causal', { url: pathToFileURL(page) }), {
      message: /causal\.safetensors: the server sent a web page, not the file \(is the file there\?\)$/,
    });
  });
  test("a file's recipe is checked with its own batch, not the trainer's default one", async () => {
    // The shipped decoder's bytes with another recipe: windows of 128 tokens, trained 4 at a time. The trainer's default
    // batch (32 windows in 2 shards: 2,048 rows, 16.8 M logits) would exceed the 64 MB limit; this file's (512 rows) fits.
    const withRecipe = (change) => {
      const bytes = readFileSync(new URL('../../web/assets/models/causal.safetensors', import.meta.url));
      const length = Number(bytes.readBigUInt64LE(0));
      const header = JSON.parse(bytes.subarray(8, 8 + length).toString('utf8'));
      header.__metadata__.recipe = JSON.stringify({ ...JSON.parse(header.__metadata__.recipe), ...change });
      const text = Buffer.from(JSON.stringify(header).padEnd(length + 64, ' '));
      const size = Buffer.alloc(8);
      size.writeBigUInt64LE(BigInt(text.length));
      return new Uint8Array(Buffer.concat([size, text, bytes.subarray(8 + length)]));
    };
    const long = await core.languageModel('causal', { bytes: withRecipe({ seqLen: 128, batchSize: 4, shards: 1 }) });
    assert.equal(long.config.seqLen, 128);
    assert.deepEqual(
      long.run(SENTENCE, { positions: [-1], k: 3 }).top.at(-1),
      causal.run(SENTENCE, { positions: [-1], k: 3 }).top.at(-1),
    );
    long.release();
    await assert.rejects(
      core.languageModel('causal', { bytes: withRecipe({ seqLen: 128, batchSize: 64, shards: 1 }) }),
      {
        name: 'RangeError',
        message: /the activations of a batch .* above the limit/,
      },
    );
  });
});

describe('languageModel: run', () => {
  test('attention: [layer][head] T × T, rows sum to 1, the causal model masks the future, the masked one does not', () => {
    for (const model of [causal, masked]) {
      const r = model.run(SENTENCE);
      const T = r.tokens.length;
      assert.equal(T, 8);
      assert.deepEqual(
        r.tokens.map((t) => SENTENCE.slice(t.start, t.end)),
        SENTENCE.split(' '),
      );
      assert.equal(r.attention.length, model.config.numLayers);
      let future = 0;
      for (const layer of r.attention) {
        assert.equal(layer.length, model.config.numHeads);
        for (const weights of layer) {
          assert.equal(weights.length, T * T);
          for (const sum of rowSums(weights, T)) assert.ok(Math.abs(sum - 1) < 1e-5);
          for (let i = 0; i < T; ++i) for (let j = i + 1; j < T; ++j) future += weights[i * T + j];
        }
      }
      if (model === causal) assert.equal(future, 0);
      else assert.ok(future > 0.1);
      assert.deepEqual(
        r.hidden.map((h) => h.shape),
        Array(model.config.numLayers).fill([T, 100]),
      );
      assert.ok(r.hidden.every((h) => h.data.every(Number.isFinite)));
    }
  });

  test('top: k words per position, most likely first, probabilities in (0, 1] summing to at most 1', () => {
    const r = causal.run(SENTENCE, { k: 5 });
    for (const top of r.top) {
      assert.equal(top.length, 5);
      assert.ok(
        top.every(
          (w, i) => w.p > 0 && w.p <= 1 && (i === 0 || w.p <= top[i - 1].p) && causal.vocabulary.includes(w.word),
        ),
      );
      assert.ok(top.reduce((a, w) => a + w.p, 0) <= 1 + 1e-6);
    }
  });

  test('positions: the output layer only where asked (a list, negative from the end, or each [MASK]), equal to the full run there', () => {
    const all = causal.run(SENTENCE, { k: 5 });
    const some = causal.run(SENTENCE, { k: 5, positions: [-1, 3] });
    assert.deepEqual(some.attention, all.attention);
    assert.deepEqual(
      some.top.map((top) => top !== null),
      [false, false, false, true, false, false, false, true],
    );
    for (const t of [3, 7]) {
      assert.deepEqual(
        some.top[t].map((w) => w.word),
        all.top[t].map((w) => w.word),
      );
      some.top[t].forEach((w, i) => assert.ok(Math.abs(w.p - all.top[t][i].p) < 1e-6));
    }
    const blanks = masked.run('the river [MASK] was [MASK]', { positions: 'masks' });
    assert.deepEqual(
      blanks.top.map((top) => top !== null),
      [false, false, true, false, true],
    );
    assert.deepEqual(core.languageModelLimits.outputPositions, ['all', 'masks']);
    assert.throws(() => causal.run(SENTENCE, { positions: [8] }), {
      name: 'RangeError',
      message: /position must be in \[-8, 8\) for 8 tokens, got 8/,
    });
    assert.throws(() => causal.run(SENTENCE, { positions: [0.5] }), {
      name: 'RangeError',
      message: /positions\[0\] must be an integer from -256 to 255, got 0.5/,
    });
    assert.throws(() => causal.run(SENTENCE, { positions: 'last' }), {
      name: 'RangeError',
      message: /positions must be one of 'all', 'masks'/,
    });
    assert.throws(() => causal.run(SENTENCE, { position: [1] }), {
      name: 'RangeError',
      message: /unknown option 'position'/,
    });
    assert.throws(() => causal.run(SENTENCE, { positions: Array(257).fill(0) }), {
      name: 'RangeError',
      message: /at most 256 positions, got 257/,
    });
  });

  test("activations: one head's block step by step, consistent with the run (its weights, its block's output); a head that does not exist is a RangeError", () => {
    for (const model of [causal, masked]) {
      const { numLayers, numHeads, dModel, dK, dFF } = model.config;
      const plain = model.run(SENTENCE, { positions: [] });
      assert.equal(plain.activations, undefined, 'only when asked');
      const T = plain.tokens.length;
      for (const [layer, head] of [
        [0, 0],
        [numLayers - 1, numHeads - 1],
      ]) {
        const {
          activations: a,
          attention,
          hidden,
        } = model.run(SENTENCE, { positions: [], activations: { layer, head } });
        assert.deepEqual([a.layer, a.head], [layer, head]);
        const shapes = {
          wordVectors: dModel,
          positional: dModel,
          input: dModel,
          queries: dK,
          keys: dK,
          values: dK,
          scores: T,
          weights: T,
          headOutput: dK,
          concat: dModel,
          attentionOutput: dModel,
          residual1: dModel,
          norm1: dModel,
          ffHidden: dFF,
          ffOutput: dModel,
          residual2: dModel,
          output: dModel,
        };
        assert.deepEqual(
          Object.keys(a)
            .filter((key) => a[key]?.shape)
            .sort(),
          Object.keys(shapes).sort(),
        );
        for (const [key, cols] of Object.entries(shapes)) assert.deepEqual(a[key].shape, [T, cols], key);
        assert.deepEqual(a.weights.data, attention[layer][head]);
        assert.deepEqual(a.output.data, hidden[layer].data);
        assert.deepEqual(
          a.input.data,
          layer ? hidden[layer - 1].data : a.wordVectors.data.map((x, i) => x + a.positional.data[i]),
        );
        // the head's output is its columns of the concatenation; R₁ = X + MultiHead
        for (let t = 0; t < T; t++) {
          assert.deepEqual(
            a.headOutput.data.subarray(t * dK, (t + 1) * dK),
            a.concat.data.subarray(t * dModel + head * dK, t * dModel + (head + 1) * dK),
          );
        }
        a.residual1.data.forEach((r, i) => assert.ok(Math.abs(r - a.input.data[i] - a.attentionOutput.data[i]) < 1e-5));
        const maskedCells = Array.from(a.scores.data).filter((s) => s === -Infinity).length;
        assert.equal(maskedCells, model === causal ? (T * (T - 1)) / 2 : 0, 'the causal mask, only for the decoder');
      }
      assert.throws(() => model.run(SENTENCE, { activations: { layer: numLayers, head: 0 } }), {
        name: 'RangeError',
        message: new RegExp(`activations.layer must be an integer from 0 to ${numLayers - 1}, got ${numLayers}`),
      });
      assert.throws(() => model.run(SENTENCE, { activations: { layer: 0, head: -1 } }), {
        name: 'RangeError',
        message: /activations.head must be/,
      });
      assert.throws(() => model.run(SENTENCE, { activations: { layer: 0, head: 0, step: 1 } }), {
        name: 'RangeError',
        message: /unknown option 'step'/,
      });
      assert.throws(() => model.run(SENTENCE, { activations: { layer: '0', head: 0 } }), { name: 'TypeError' });
    }
  });

  test('score: ln p of each token given the ones before it; the perplexity is exp(−mean); a likely sentence scores better than its shuffle', () => {
    const s = causal.score(SENTENCE);
    assert.equal(s.logProb.length, 7);
    const mean = s.logProb.reduce((a, b) => a + b, 0) / 7;
    assert.ok(Math.abs(s.perplexity - Math.exp(-mean)) < 1e-6 * s.perplexity);
    const shuffled = causal.score('storm the after muddy was bank river The');
    assert.ok(s.perplexity < shuffled.perplexity, `${s.perplexity} < ${shuffled.perplexity}`);
    // The run's top-1 word or <unk> (a rarer word, such as "muddy") is the most likely next token: its
    // log-probability bounds the score's
    const r = causal.run(SENTENCE, { k: 1 });
    for (let i = 0; i < 7; ++i) assert.ok(s.logProb[i] <= Math.log(Math.max(r.top[i][0].p, r.unk[i])) + 1e-5);
  });

  test('fillMask: the masked model fills every [MASK]', () => {
    const filled = masked.fillMask('the river [MASK] was muddy after the [MASK]', 10);
    assert.deepEqual(
      filled.map((f) => f.position),
      [2, 7],
    );
    for (const { top } of filled) assert.equal(top.length, 10);
    const bible = masked.fillMask('In the beginning, God created the heavens and the [MASK].', 5);
    assert.ok(
      bible[0].top.some((w) => w.word === 'earth'),
      JSON.stringify(bible[0].top),
    );
  });

  test('parameters: every tensor by its C++ name and shape', () => {
    const p = causal.parameters();
    assert.deepEqual(p['layers.0.attention.w_q'].shape, [100, 100]);
    assert.deepEqual(p['layers.0.feed_forward.w_1'].shape, [100, causal.config.dFF]);
    assert.deepEqual(p['layers.0.norm1.gamma'].shape, [100]);
    assert.deepEqual(p.embedding.shape, [1, 100]); // <unk>: the only learned input row
    assert.ok(
      Object.values(p).every(
        (t) => t.data.length === t.shape.reduce((a, b) => a * b, 1) && t.data.every(Number.isFinite),
      ),
    );
  });

  test('bad input: a clear error or a defined result, never NaN; the heap does not grow', () => {
    assert.throws(() => causal.run(''), { name: 'RangeError', message: /1 to 256 tokens, got 0/ });
    assert.throws(() => causal.run('word '.repeat(300)), { name: 'RangeError', message: /1 to 256 tokens, got 300/ });
    assert.throws(() => causal.run(42), { name: 'TypeError', message: /text must be a string/ });
    assert.throws(() => causal.run(SENTENCE, { k: 0 }), { name: 'RangeError', message: /k must be/ });
    assert.throws(() => causal.run('the [MASK] was muddy'), {
      name: 'RangeError',
      message: /not trained with \[MASK\]/,
    });
    assert.throws(() => masked.score(SENTENCE), { name: 'RangeError', message: /only the 'causal' model/ });
    assert.throws(() => causal.fillMask('the [MASK]'), { name: 'RangeError', message: /only the 'masked' model/ });
    assert.throws(() => causal.score('bank'), { name: 'RangeError', message: /at least 2 tokens/ });
    const unknown = causal.run('zzqxv qqzxw');
    assert.ok(unknown.tokens.every((t) => t.oov));
    assert.ok(unknown.top.flat().every((w) => Number.isFinite(w.p)));
    causal.run(SENTENCE);
    const heap = core.heapInUse();
    for (let i = 0; i < 200; ++i) {
      causal.run(SENTENCE);
      assert.throws(() => causal.run(''));
    }
    assert.ok(core.heapInUse() <= heap + 4096, `heap ${heap} → ${core.heapInUse()}`);
  });
});

describe('languageModel: measureHeads', () => {
  test("measured on the corpus's held-out text, each shipped model's heads are what its file records (to 1e-4: the file was measured natively)", async () => {
    const heldOut = new URL('../../build/lm/corpus/held-out.raw.txt', import.meta.url);
    assert.ok(
      existsSync(heldOut),
      'build/lm/corpus/held-out.raw.txt: node scripts/lm/corpus-text.mjs builds it (npm test does)',
    );
    const text = readFileSync(heldOut, 'utf8');
    for (const kind of ['causal', 'masked']) {
      const model = await core.languageModel(kind);
      const measured = model.measureHeads(text);
      assert.equal(measured.length, model.config.heads.length);
      measured.forEach((h, i) => {
        const recorded = model.config.heads[i];
        assert.equal(h.label, recorded.label, `${kind} L${h.layer} H${h.head}`);
        for (const key of ['previous', 'next', 'self', 'first', 'sameWord', 'prefix', 'induction', 'entropyBits']) {
          assert.ok(
            Math.abs(h[key] - recorded[key]) < 1e-4,
            `${kind} L${h.layer} H${h.head} ${key}: ${h[key]} vs ${recorded[key]}`,
          );
        }
      });
    }
  });
});
