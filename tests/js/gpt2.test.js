// GPT-2 checkpoints (core.languageModel({ architecture: 'gpt2' })) on files made here with random weights in Hugging
// Face's layout (scripts/gpt2-checkpoint.mjs): the core's logits and every layer's attention against an independent
// float64 forward pass (gpt2-reference.js), at a tiny size and at GPT-2 small's exact shapes; the BPE against the
// tokenizer package's own encoder on real text; every dtype and naming a file may use; hostile files.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/r50k_base';
import { createAttentionCore } from 'attention-explorer/core';
import { readSafetensors } from '../../web/src/core/safetensors.js';
import { GPT2_SIZES, gpt2Checkpoint } from '../../scripts/gpt2-checkpoint.mjs';
import { gpt2Reference } from './gpt2-reference.js';

const TEXT = 'The river bank was muddy after the storm, and Mr. Darcy walked on.';
const ENGLISH = readFileSync(new URL('../fixtures/public-domain-english.txt', import.meta.url), 'utf8');

let core;
before(async () => {
  core = await createAttentionCore();
});

/** The largest |a − b| over two arrays, and the largest |b| (the scale the tolerance is relative to). */
function worst(a, b) {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return { diff, scale };
}

/** The core's run of `text` against the float64 reference on the same file: logits, attention and hidden states. */
function checkAgainstReference(model, bytes, text, { logits: logitsTolerance, attention: attentionTolerance }) {
  const r = model.run(text);
  const ids = r.tokens.map((t) => t.id);
  const ref = gpt2Reference(readSafetensors(bytes, 'reference').tensors, ids, model.config.numHeads);
  const V = model.config.outputSize;
  const T = ids.length;
  for (let t = 0; t < T; t++) {
    const { diff, scale } = worst(r.logits[t], ref.logits.subarray(t * V, (t + 1) * V));
    assert.ok(diff <= logitsTolerance * Math.max(1, scale), `logits at ${t}: off by ${diff} (largest ${scale})`);
  }
  for (let l = 0; l < model.config.numLayers; l++) {
    for (let h = 0; h < model.config.numHeads; h++) {
      const { diff } = worst(r.attention[l][h], ref.attention[l][h]);
      assert.ok(diff <= attentionTolerance, `layer ${l} head ${h}: attention off by ${diff}`);
    }
    const { diff, scale } = worst(r.hidden[l].data, ref.hidden[l]);
    assert.ok(diff <= logitsTolerance * Math.max(1, scale), `layer ${l}: hidden state off by ${diff}`);
  }
  return r;
}

/** Every step of a followed head's block (run()'s activations) against the reference's, layer 1, head 0. */
function checkSteps(model, bytes, text) {
  const r = model.run(text, { activations: { layer: 1, head: 0 } });
  const ids = r.tokens.map((t) => t.id);
  const { blocks } = gpt2Reference(readSafetensors(bytes, 'reference').tensors, ids, model.config.numHeads);
  const b = blocks[1];
  const T = ids.length;
  const d = model.config.dModel;
  const a = r.activations;
  const column = (m, width, from, cols) =>
    Float64Array.from({ length: T * cols }, (_, i) => m[Math.floor(i / cols) * width + from + (i % cols)]);
  const pairs = {
    input: b.input,
    norm1: b.norm1,
    queries: column(b.qkv, 3 * d, 0, d),
    keys: column(b.qkv, 3 * d, d, d),
    values: column(b.qkv, 3 * d, 2 * d, d),
    concat: b.z,
    attentionOutput: b.attentionOutput,
    residual1: b.residual1,
    norm2: b.norm2,
    ffHidden: b.ffHidden,
    ffOutput: b.ffOutput,
  };
  for (const [name, expected] of Object.entries(pairs)) {
    const { diff, scale } = worst(a[name].data, expected);
    assert.ok(diff <= 2e-5 * Math.max(1, scale), `${name}: off by ${diff} (largest ${scale})`);
  }
  assert.deepEqual(a.output.data, r.hidden[1].data);
  assert.deepEqual(a.weights.data, r.attention[1][0]);
}

describe('GPT-2 against a float64 reference', () => {
  test('a tiny GPT-2 (2 layers, d 64, the full BPE vocabulary) in F32, F16 and BF16, with and without the prefix', async () => {
    for (const [dtype, prefix, buffers] of [
      ['F32', '', false],
      ['F16', 'transformer.', true],
      ['BF16', '', true],
    ]) {
      // σ = 0.25: far larger than GPT-2's 0.02, so attention is sharp and the softmax and LayerNorm are exercised
      const bytes = gpt2Checkpoint({ size: 'tiny', dtype, prefix, buffers, scale: 0.25, seed: 3 });
      const model = await core.languageModel({ bytes, architecture: 'gpt2' });
      assert.equal(model.config.numLayers, 2);
      assert.equal(model.config.numHeads, 1); // d 64 / GPT-2's head width 64, without config.json
      assert.equal(model.config.outputSize, 50257);
      const r = checkAgainstReference(model, bytes, TEXT, { logits: 2e-5, attention: 1e-5 });
      if (dtype === 'F32') checkSteps(model, bytes, TEXT);
      const rows = r.attention[1][0];
      const T = r.tokens.length;
      for (let i = 0; i < T; i++) {
        // causal: row i sums to 1 over keys 0 … i, and is exactly 0 after
        assert.ok(Math.abs(rows.subarray(i * T, i * T + i + 1).reduce((a, b) => a + b, 0) - 1) < 1e-6);
        assert.ok(rows.subarray(i * T + i + 1, (i + 1) * T).every((w) => w === 0));
      }
      model.release();
    }
  });

  test("GPT-2 small's exact shapes: 124,439,808 parameters, 12 layers of 12 heads", async () => {
    const bytes = gpt2Checkpoint({ size: 'small', dtype: 'F16', seed: 5 });
    const model = await core.languageModel({ bytes, architecture: 'gpt2' });
    const { parameters, numLayers, numHeads, dModel, dFF, seqLen, memoryBytes } = model.config;
    assert.deepEqual(
      { parameters, numLayers, numHeads, dModel, dFF, seqLen },
      { parameters: 124439808, numLayers: 12, numHeads: 12, dModel: 768, dFF: 3072, seqLen: 1024 },
    );
    assert.ok(memoryBytes >= 4 * parameters && memoryBytes < 4.01 * parameters, `weights take ${memoryBytes} bytes`);
    checkAgainstReference(model, bytes, 'The river bank was muddy', { logits: 2e-5, attention: 2e-6 });
    model.release();
  });

  test("the logit lens: each layer's residual stream through ln_f and wteᵀ, as the reference reads it", async () => {
    const bytes = gpt2Checkpoint({ dtype: 'F32', scale: 0.25, seed: 6 });
    const model = await core.languageModel({ bytes, architecture: 'gpt2' });
    const lens = model.logitLens(TEXT, { k: 3 });
    const ids = lens.tokens.map((t) => t.id);
    const tensors = readSafetensors(bytes, 'reference').tensors;
    const ref = gpt2Reference(tensors, ids, 1);
    const [V, d] = tensors.get('wte.weight').shape;
    const wte = tensors.get('wte.weight').data;
    const [gamma, beta] = [tensors.get('ln_f.weight').data, tensors.get('ln_f.bias').data];
    const T = ids.length;
    const x0 = Float64Array.from(
      { length: T * d },
      (_, i) => wte[ids[Math.floor(i / d)] * d + (i % d)] + tensors.get('wpe.weight').data[i],
    );
    assert.equal(lens.layers.length, 3);
    [x0, ...ref.hidden].forEach((stream, layer) => {
      for (const t of [0, 5, T - 1]) {
        const row = stream.subarray(t * d, (t + 1) * d);
        const mean = row.reduce((a, b) => a + b, 0) / d;
        const rstd = 1 / Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / d + 1e-5);
        const f = row.map((v, j) => gamma[j] * (v - mean) * rstd + beta[j]);
        const logits = Float64Array.from({ length: V }, (_, v) => f.reduce((a, b, j) => a + b * wte[v * d + j], 0));
        const max = Math.max(...logits);
        const total = logits.reduce((a, z) => a + Math.exp(z - max), 0);
        const cell = lens.layers[layer][t];
        const best = logits.indexOf(max);
        assert.equal(cell.top[0].id, best, `layer ${layer}, position ${t}`);
        assert.ok(Math.abs(cell.top[0].p - 1 / total) < 1e-5);
        if (t + 1 < T) assert.ok(Math.abs(cell.next - Math.exp(logits[ids[t + 1]] - max) / total) < 1e-5);
        else assert.equal(cell.next, null);
      }
    });
    const wpe = model.positionEmbeddings();
    assert.deepEqual(wpe.shape, [64, 64]);
    assert.deepEqual(wpe.data, tensors.get('wpe.weight').data);
    model.release();
  });
});

describe('GPT-2 text', () => {
  let model;
  before(async () => {
    model = await core.languageModel({ bytes: gpt2Checkpoint({ scale: 0.5 }), architecture: 'gpt2' });
  });

  test("the tokens are the tokenizer package's own, with their leading space and their span, on real text", () => {
    const paragraphs = ENGLISH.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
    assert.ok(paragraphs.length >= 15);
    for (const text of paragraphs) {
      const tokens = model.tokenize(text);
      assert.deepEqual(
        tokens.map((t) => t.id),
        encode(text),
      );
      assert.equal(tokens.map((t) => t.text).join(''), text);
      for (const t of tokens) assert.equal(text.slice(t.start, t.end), t.text);
    }
    assert.deepEqual(
      model.tokenize('Hello world').map((t) => [t.text, t.id]),
      [
        ['Hello', 15496],
        [' world', 995],
      ],
    );
    // Characters whose UTF-8 bytes BPE splits across pieces (the piece that holds only their first bytes spans nothing,
    // the one that completes the character spans it): the spans still tile the text, the last ending at its end, and
    // so after any other text (the package's decoder keeps an unfinished character's bytes between calls).
    for (const text of ['naïve café 東京 🦜🦜 ok', '日本語のテキスト', 'naïve café 東京 🦜🦜 ok']) {
      const tokens = model.tokenize(text);
      assert.ok(
        tokens.some((t) => t.text === ''),
        `${text}: a piece holds part of a character`,
      );
      assert.equal(tokens.map((t) => t.text).join(''), text);
      tokens.forEach((t, i) => assert.equal(t.start, i ? tokens[i - 1].end : 0));
      assert.equal(tokens.at(-1).end, text.length);
    }
    assert.deepEqual(
      model.tokenize('a<|endoftext|>b').map((t) => t.id),
      [64, 50256, 65],
    ); // GPT-2's document separator
  });

  test('run, score, sample and generate agree with each other', () => {
    const r = model.run(TEXT, { positions: [-1], k: 5, sampling: { temperature: 0.7, topK: 3 } });
    const T = r.tokens.length;
    assert.equal(r.top[0], null);
    assert.equal(r.top[T - 1].length, 5);
    assert.equal(r.sampling[T - 1].length, 3);
    const { logProb, perplexity } = model.score(TEXT);
    assert.equal(logProb.length, T - 1);
    const all = model.run(TEXT);
    const last = all.logits[T - 2];
    const next = r.tokens[T - 1].id;
    const max = Math.max(...last);
    const lse = max + Math.log(last.reduce((s, z) => s + Math.exp(z - max), 0));
    assert.ok(Math.abs(logProb[T - 2] - (last[next] - lse)) < 1e-4);
    assert.ok(Math.abs(perplexity - Math.exp(-logProb.reduce((a, b) => a + b, 0) / (T - 1))) < 1e-9);
    const s = model.sample(TEXT, { topK: 1 });
    assert.equal(s.id, r.top[T - 1][0].id); // top-1 is the argmax
    const g = model.generate(TEXT, { n: 3, seed: 9 });
    assert.equal(g.words.length, 3);
    assert.equal(g.text, TEXT + g.words.map((w) => w.word).join(''));
    assert.deepEqual(model.generate(TEXT, { n: 3, seed: 9 }), g); // the same seed, the same words
    const off = model.run(TEXT, { positions: [-1], ablate: [{ layer: 0, head: 0 }] });
    assert.notDeepEqual(off.logits[T - 1], r.logits[T - 1]);
  });

  test('the head detector: repeated random tokens, each head scored, the second copy against the first', () => {
    const probe = model.repeatedWords({ repeat: 6, sequences: 4, seed: 3 });
    assert.equal(probe.heads.length, 2);
    assert.equal(probe.example.length, 12);
    assert.deepEqual(probe.example.slice(0, 6), probe.example.slice(6));
    for (const h of probe.heads) for (const s of [h.previous, h.duplicate, h.induction]) assert.ok(s >= 0 && s <= 1);
    assert.ok(Number.isFinite(probe.firstHalfLoss) && Number.isFinite(probe.secondHalfLoss));
    assert.deepEqual(model.repeatedWords({ repeat: 6, sequences: 4, seed: 3 }), probe); // seeded
    assert.throws(() => model.repeatedWords({ repeat: 33 }), /repeat/); // 2R ≤ the 64 tokens it reads
  });

  test('why this word: each head off and each token occluded, against the reference, a pass at a time', async () => {
    const bytes = gpt2Checkpoint({ size: 'tiny', scale: 0.25, seed: 4 });
    const two = await core.languageModel({ bytes, architecture: 'gpt2', config: { n_head: 2 } });
    const tensors = readSafetensors(bytes, 'reference').tensors;
    const text = 'The river bank was muddy after the storm';
    const ids = two.tokenize(text).map((t) => t.id);
    const position = 4;
    const word = ' the';
    const wordId = encode(word)[0];
    const lnP = (options) => {
      const { logits } = gpt2Reference(tensors, ids, 2, options);
      const V = two.config.outputSize;
      const row = logits.subarray(position * V, (position + 1) * V);
      const max = Math.max(...row);
      return row[wordId] - max - Math.log(row.reduce((s, z) => s + Math.exp(z - max), 0));
    };
    const ablate = [{ layer: 0, head: 1 }];
    const passes = two.attribution(text, { position, word, ablate });
    const steps = [];
    let step = passes.next();
    for (; !step.done; step = passes.next()) steps.push(step.value);
    const why = step.value;
    // 1 + (L·H − 1 already off) + (position + 1) forward passes, one a step
    assert.deepEqual(
      steps.map((s) => s.done),
      Array.from({ length: 1 + 3 + 5 }, (_, i) => i + 1),
    );
    assert.ok(steps.every((s) => s.total === 9));
    assert.deepEqual([why.word, why.id, why.position], [word, wordId, position]);
    const base = lnP({ ablate });
    assert.ok(Math.abs(why.logProb - base) < 1e-4, `ln p ${why.logProb} against ${base}`);
    for (let i = 0; i < 4; i++) {
      const head = { layer: Math.floor(i / 2), head: i % 2 };
      const expected = i === 1 ? 0 : lnP({ ablate: [...ablate, head] }) - base;
      assert.ok(Math.abs(why.heads[i] - expected) < 1e-4, `head ${i}: ${why.heads[i]} against ${expected}`);
    }
    for (let t = 0; t < ids.length; t++) {
      const expected = t > position ? 0 : lnP({ ablate, occlude: t }) - base;
      assert.ok(Math.abs(why.occlusion[t] - expected) < 1e-4, `token ${t}: ${why.occlusion[t]} against ${expected}`);
    }
    assert.ok(why.occlusion.slice(0, position + 1).some((v) => Math.abs(v) > 1e-3)); // the occlusion changes something
    assert.deepEqual(two.attribute(text, { position, word: wordId, ablate }), why); // all at once, by id
    assert.throws(() => two.attribution(text, { position, word: ' muddy after' }), /is not one GPT-2 token/);
    assert.throws(() => two.attribution(text, { position: 8, word }), /position must be an integer from -8 to 7/);
    assert.throws(() => two.attribution(text, { position, word: 50257 }), /word must be an integer from 0 to 50256/);
    assert.throws(() => two.attribution(text, { position, word, heads: [] }), /unknown option 'heads'/);
    two.release();
  });

  test('bad input is a clear error', () => {
    assert.throws(() => model.run(''), /languageModel.run: the text must hold 1 to 64 tokens, got 0/);
    assert.throws(() => model.run('word '.repeat(70).trim()), /must hold 1 to 64 tokens, got 70/);
    assert.throws(() => model.run(TEXT, { activations: { layer: 2, head: 0 } }), /activations.layer/);
    assert.throws(() => model.run(TEXT, { attention: true }), /unknown option 'attention'/);
    assert.throws(() => model.run(TEXT, { ablate: [{ layer: 2, head: 0 }] }), /ablate\[0\].layer/);
    assert.throws(() => model.score('Hi'), /at least 2 tokens/);
  });
});

describe('GPT-2 files', () => {
  const tiny = () => gpt2Checkpoint({ seed: 2 });
  const load = (bytes, extra = {}) => core.languageModel({ bytes, architecture: 'gpt2', ...extra });

  test('config.json beside the file gives the heads; one that disagrees is an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpt2-'));
    writeFileSync(join(dir, 'model.safetensors'), tiny());
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'gpt2', n_head: 4, n_embd: 64, n_layer: 2 }));
    const progress = [];
    const model = await core.languageModel({
      url: join(dir, 'model.safetensors'),
      architecture: 'gpt2',
      onProgress: (p) => progress.push(p),
    });
    assert.equal(model.config.numHeads, 4);
    assert.equal(model.run('a b c').attention[0].length, 4);
    assert.deepEqual(progress.at(-1).loaded, progress.at(-1).total);
    await assert.rejects(load(tiny(), { config: { n_head: 3 } }), /d_model = 64 is not a multiple of n_heads = 3/);
    await assert.rejects(load(tiny(), { config: { n_layer: 3 } }), /config.json says n_layer 3, the tensors 2/);
    await assert.rejects(load(tiny(), { config: { model_type: 'bert' } }), /'bert' model, not 'gpt2'/);
    await assert.rejects(load(tiny(), { config: { activation_function: 'relu' } }), /'gelu_new' only/);
  });

  test('two checkpoints load at once, each into its own model', async () => {
    const [a, b] = await Promise.all([load(gpt2Checkpoint({ seed: 7 })), load(gpt2Checkpoint({ seed: 8 }))]);
    const [one, two] = [gpt2Checkpoint({ seed: 7 }), gpt2Checkpoint({ seed: 8 })].map((bytes) =>
      gpt2Reference(readSafetensors(bytes, 'reference').tensors, [464, 7850], 1),
    );
    for (const [model, ref] of [
      [a, one],
      [b, two],
    ]) {
      const logits = model.run('The river', { positions: [-1] }).logits[1];
      assert.ok(worst(logits, ref.logits.subarray(50257)).diff < 1e-4);
    }
  });

  test('hostile files are refused, naming the problem, and the core keeps working', async () => {
    const good = tiny();
    const truncated = good.subarray(0, good.length - 100);
    await assert.rejects(load(truncated), /do not cover the data section|out of range/);
    const hugeHeader = new Uint8Array(good);
    new DataView(hugeHeader.buffer).setBigUint64(0, 5n * 10n ** 9n, true); // a 5 GB header
    await assert.rejects(load(hugeHeader), /truncated: header says 5000000000 bytes/);
    const missing = gpt2Checkpoint({ sizes: { ...GPT2_SIZES.tiny, numLayers: 1 } });
    // Header edits of the same length, on the bytes as Latin-1 text (one character a byte, both ways)
    const edited = (bytes, from, to) =>
      new Uint8Array(Buffer.from(Buffer.from(bytes).toString('latin1').replace(from, to), 'latin1'));
    await assert.rejects(load(edited(missing, 'h.0.ln_2.bias', 'h.0.ln_2.beta')), /'h.0.ln_2.bias' is missing/);
    await assert.rejects(load(edited(good, '"dtype":"F32"', '"dtype":"I32"')), /unsupported dtype 'I32'/);
    const nan = new Uint8Array(good);
    new DataView(nan.buffer).setFloat32(nan.length - 4, NaN, true); // ln_f.bias's last value
    await assert.rejects(load(nan), /'ln_f.bias' holds a value that is not finite/);
    await assert.rejects(core.languageModel({ bytes: good, architecture: 'gpt3' }), /architecture/);
    await assert.rejects(core.languageModel({ architecture: 'gpt2' }), /needs \{ url \} or \{ bytes \}/);
    const causal = await core.languageModel('causal'); // the core still runs our own models, and a good file
    assert.equal(causal.run('the river bank', { positions: [-1] }).tokens.length, 3);
    assert.ok((await load(good)).run('still here').top.at(-1).length > 0);
  });
});
