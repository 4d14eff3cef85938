// A GPT-2 checkpoint an author brings, in the page end to end (headless Chromium): the element's `checkpoint`
// attribute and model="gpt2" load a checkpoint hosted beside the page (random weights in Hugging Face's layout, made by
// scripts/gpt2-checkpoint.mjs, with its config.json), and the Attention chapter shows its heads, its weights over BPE
// pieces and its next-token bars — the same numbers as core.languageModel({ url, architecture }) gives in the page —,
// Why this word? measures a chosen piece a pass at a time, Generate appends a piece, Inside one head follows its
// pre-LN block; no checkpoint, or a missing one, is a message.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { GPT2_SIZES, gpt2Checkpoint } from '../../scripts/gpt2-checkpoint.mjs';
import { launchBrowser, serveFolder, showSlot } from './browser.js';

const CHECKPOINT = 'models/gpt2/model.safetensors';
const SENTENCE = 'The river bank was muddy after the';
let folder, server, browser;

before(async () => {
  // The site as an author builds it: the element and the core side by side, the checkpoint and its config beside them.
  folder = mkdtempSync(join(tmpdir(), 'ae-gpt2-'));
  for (const part of ['element', 'core']) cpSync(`dist/${part}`, join(folder, part), { recursive: true });
  mkdirSync(join(folder, 'models/gpt2'), { recursive: true });
  writeFileSync(join(folder, CHECKPOINT), gpt2Checkpoint({ sizes: GPT2_SIZES.tiny, scale: 0.25, seed: 4 }));
  writeFileSync(join(folder, 'models/gpt2/config.json'), JSON.stringify({ model_type: 'gpt2', n_head: 4 }));
  const page = (attributes) =>
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GPT-2</title><link rel="icon" href="data:,">' +
    '<script type="module" src="element/attention-explorer.js"></script></head><body>' +
    `<attention-explorer sentence="${SENTENCE}" ${attributes}></attention-explorer></body></html>`;
  writeFileSync(join(folder, 'index.html'), page(`model="gpt2" checkpoint="${CHECKPOINT}"`));
  writeFileSync(join(folder, 'none.html'), page('model="gpt2"'));
  writeFileSync(join(folder, 'missing.html'), page('model="gpt2" checkpoint="models/nowhere/model.safetensors"'));
  server = await serveFolder(folder);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function open(file) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}${file}`);
  await page.waitForFunction(() => document.querySelector('attention-explorer')?.getRun?.(), null, { timeout: 30000 });
  return { page, errors };
}

test('the checkpoint beside the page: its heads, its weights over BPE pieces, its next-token bars, as the core computes them', async () => {
  const { page, errors } = await open('');
  await page.waitForSelector('attention-explorer [data-figure="predictions"] li', { timeout: 30000 });
  const shown = await page.$eval('attention-explorer', (el) => {
    const root = el.shadowRoot;
    const run = el.getRun();
    return {
      status: run.status,
      heads: root.querySelectorAll('[data-figure="heads"] .head-thumb').length,
      tokens: run.tokens.map((t) => t.text),
      words: [...root.querySelectorAll('[data-figure="predictions"] li')].map((li) => li.dataset.word),
      p: [...root.querySelectorAll('[data-figure="predictions"] li')].map((li) => Number(li.dataset.p)),
      title: root.querySelector('[data-figure="predictions"] .prediction-title').textContent,
      facts: root.querySelector('[data-figure="predictions"]').textContent,
      unkShown: [...root.querySelectorAll('[data-figure="predictions"] .unk-line')].some((l) => !l.hidden),
      labels: [...root.querySelectorAll('[data-figure="attention-weights"] text')].map((t) => t.textContent),
    };
  });
  const expected = await page.$eval(
    'attention-explorer',
    async (el, [url, sentence]) => {
      const model = await el.core.languageModel({ url, architecture: 'gpt2' });
      const r = model.run(sentence, { k: 10, positions: [-1], sampling: { temperature: 1, topK: 0 } });
      return { pieces: r.tokens.map((t) => t.text), sampling: r.sampling.at(-1), numHeads: model.config.numHeads };
    },
    [CHECKPOINT, SENTENCE],
  );
  assert.equal(shown.status, 'ready');
  assert.equal(expected.numHeads, 4, 'config.json beside the checkpoint gives its heads');
  assert.equal(shown.heads, 2 * 4);
  assert.deepEqual(
    shown.tokens,
    expected.pieces.map((p) => p.replace(/^ /, '␣')),
  );
  assert.deepEqual(shown.tokens.slice(0, 3), ['The', '␣river', '␣bank']);
  assert.ok(shown.labels.includes('␣river'), 'the heatmap labels the pieces');
  assert.deepEqual(
    shown.words,
    expected.sampling.map((w) => w.word.replace(/^ /, '␣')),
  );
  shown.p.forEach((p, i) => assert.ok(Math.abs(p - expected.sampling[i].p) < 1e-6));
  assert.equal(shown.title, `After “${SENTENCE}”:`);
  assert.match(shown.facts, /A GPT-2 checkpoint: 2 layers × 4 heads, d_model = 64, .* parameters .* 50,257 BPE pieces/);
  assert.equal(shown.unkShown, false, 'no <unk> line: BPE pieces spell every text');
  await page.screenshot({ path: 'test-output/gpt2-checkpoint.png' });

  // The logit lens, read on request: a grid of (layers + 1) rows × tokens, the last row the model's own prediction.
  await showSlot(page, 'logitLens');
  await page.click('attention-explorer .read-lens');
  await page.waitForSelector('attention-explorer [data-figure="logit-lens"][data-state="read"]');
  const lens = await page.$eval('attention-explorer', (el) => {
    const rows = [...el.shadowRoot.querySelectorAll('.lens-grid tbody tr')];
    return rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  });
  assert.equal(lens.length, 3);
  assert.equal(lens[0].length, 7);
  assert.equal(lens[2][6], shown.words[0], 'the last row, at the last token, is the first bar');
  await page.locator('attention-explorer .lens-box').screenshot({ path: 'test-output/gpt2-logit-lens.png' });

  // Why this word?: pointing at a predicted piece measures nothing (a checkpoint's passes take seconds); choosing one
  // measures it a forward pass at a time, with a progress bar, into the same numbers as the core's attribute().
  const whyFigure = 'attention-explorer [data-figure="why-this-word"]';
  await showSlot(page, 'whyThisWord');
  await page.hover('attention-explorer [data-figure="predictions"] li >> nth=0');
  await page.waitForTimeout(300);
  assert.equal(await page.$eval(whyFigure, (f) => f.dataset.word ?? null), null, 'pointing measures nothing');
  await page.$eval(whyFigure, (figure) => {
    window.sawProgress = [];
    new MutationObserver(() => {
      const line = figure.querySelector('.why-measuring');
      if (line) window.sawProgress.push([line.textContent, Number(line.querySelector('progress').value)]);
    }).observe(figure, { childList: true, subtree: true, characterData: true, attributes: true });
  });
  await page.click(`${whyFigure} .why-words button >> nth=0`);
  await page.waitForSelector(`${whyFigure} .head-effect`);
  const why = await page.$eval('attention-explorer', (el) => {
    const figure = el.shadowRoot.querySelector('[data-figure="why-this-word"]');
    return {
      word: figure.dataset.word,
      logProb: Number(figure.dataset.logProb),
      heads: [...figure.querySelectorAll('.head-effect')].map((g) => Number(g.dataset.delta)),
      chips: [...figure.querySelectorAll('.occlusion-chips li')].map((li) => [li.textContent, li.dataset.delta]),
      text: figure.textContent,
      progressLeft: figure.querySelectorAll('.why-measuring').length,
    };
  });
  const core = await page.$eval(
    'attention-explorer',
    async (el, [url, sentence, word]) => {
      const model = await el.core.languageModel({ url, architecture: 'gpt2' });
      const r = model.attribute(sentence, { position: -1, word: word.replace(/^␣/, ' ') });
      return { logProb: r.logProb, heads: [...r.heads], occlusion: [...r.occlusion] };
    },
    [CHECKPOINT, SENTENCE, shown.words[0]],
  );
  assert.equal(why.word, shown.words[0]);
  assert.ok(Math.abs(why.logProb - core.logProb) < 1e-9);
  assert.deepEqual(why.heads, core.heads);
  assert.deepEqual(
    why.chips.map(([, delta]) => Number(delta)),
    core.occlusion,
  );
  assert.match(why.chips[1][0], /^␣river/);
  assert.match(why.text, /Each word replaced by the mean embedding \(the mean of the checkpoint’s token embeddings\)/);
  assert.match(why.text, new RegExp(`after “${SENTENCE}”`));
  const progress = await page.evaluate(() => window.sawProgress);
  assert.ok(progress.length > 0, 'a progress bar while it measures');
  assert.match(progress[0][0], new RegExp(`Measuring “${shown.words[0]}”: \\d+ of 16 forward passes`));
  assert.equal(why.progressLeft, 0, 'the progress bar goes when the measurement is shown');
  await page.locator(whyFigure).screenshot({ path: 'test-output/gpt2-why-this-word.png' });

  // Generate appends one piece to the sentence.
  await page.click('attention-explorer .sampling-controls button.generate');
  await page.waitForFunction((s) => document.querySelector('attention-explorer').sentence.length > s.length, SENTENCE);
  const grown = await page.$eval('attention-explorer', (el) => el.sentence);
  assert.ok(grown.startsWith(SENTENCE));

  // The head detector measures the checkpoint's heads on repeated random tokens; its button puts such a text in the box.
  await showSlot(page, 'headDetector');
  const detector = await page.$eval(
    'attention-explorer',
    (el) => el.shadowRoot.querySelector('[data-figure="head-detector"]').textContent,
  );
  assert.match(detector, /Each head of the GPT-2 checkpoint on 12 random words repeated \(8 sequences/);

  // Inside one head follows the selected head through GPT-2's pre-LN block.
  await showSlot(page, 'pipeline');
  await page.locator('attention-explorer .slot-pipeline').screenshot({ path: 'test-output/gpt2-stepper.png' });
  const stepper = await page.$eval(
    'attention-explorer',
    (el) => el.shadowRoot.querySelector('[data-figure="pipeline"]').dataset.steps,
  );
  assert.equal(Number(stepper), 17 + 5, `the block's 17 steps and the output layer's 5: ${stepper}`);
  // … then its output layer: x_L, the final LayerNorm, the logits over the pieces, softmax, the likeliest pieces.
  const pipelineText = () =>
    page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('[data-figure="pipeline"]').textContent);
  await page.$eval('attention-explorer', (el) => el.change({ step: 19 }));
  await page.waitForFunction(() =>
    /The final LayerNorm/.test(
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').textContent,
    ),
  );
  await page.$eval('attention-explorer', (el) => el.change({ step: 22 }));
  await page.waitForFunction(() =>
    /The next token: the most likely/.test(
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').textContent,
    ),
  );
  assert.match(await pipelineText(), /no <unk>/);
  const bars = await page.$eval('attention-explorer', (el) =>
    [...el.shadowRoot.querySelectorAll('[data-figure="pipeline"] .output-top li')].map((li) => li.dataset.word),
  );
  const predicted = await page.$eval('attention-explorer', (el) => el.getRun().predictions[0].top.map((w) => w.word));
  assert.deepEqual(bars, predicted, "the stepper ends on the bars of the Attention chapter's prediction");
  await page.locator('attention-explorer .slot-pipeline').screenshot({ path: 'test-output/gpt2-stepper-output.png' });

  // The Positions chapter draws its learned position embeddings on their principal components, beside the sinusoids.
  await showSlot(page, 'learnedPositions');
  const learned = await page.$eval('attention-explorer', (el) => {
    const figure = el.shadowRoot.querySelector('[data-figure="learned-positions"]');
    return { paths: figure.querySelectorAll('path.series, svg path[stroke]').length, text: figure.textContent };
  });
  assert.match(learned.text, /one learned row of 64 numbers for each of its 64 positions/);
  assert.match(learned.text, /component 1: \d+ % of the variance/);
  await page
    .locator('attention-explorer .slot-learnedPositions')
    .screenshot({ path: 'test-output/gpt2-positions.png' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('no checkpoint, or one that is not there: a message, and the page goes on with another model', async () => {
  for (const [file, message] of [
    ['none.html', /no checkpoint was given\. Host a GPT-2 model\.safetensors/],
    ['missing.html', /models\/nowhere\/model\.safetensors: the server sent a web page, not the file/],
  ]) {
    const { page } = await open(file);
    await page.waitForFunction(() => document.querySelector('attention-explorer').getRun().status === 'error', null, {
      timeout: 30000,
    });
    const said = await page.$eval('attention-explorer', (el) =>
      [...el.shadowRoot.querySelectorAll('.status.error')].map((e) => e.textContent).join(' | '),
    );
    assert.match(said, message);
    await page.$eval('attention-explorer', (el) => el.change({ model: 'designed' }));
    await page.waitForFunction(() => document.querySelector('attention-explorer').getRun().status === 'ready');
    await page.close();
  }
});
