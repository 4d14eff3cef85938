// The Learn chapter's "language (real English)" task in headless Chromium on the built site: the baselines
// and the step-0 model equal the core's in Node on the same shipped sample (same seed), Train lowers the
// held-out loss below the unigram line within 60 s, the heads on the learner's sentence carry the measured
// labels, the shipped decoder compares beside it, and the learner's own text trains (a too-short one is refused
// with a message), and the single file, which carries no sample, trains on pasted text. Screenshots at 1440×900 and
// 390×844 in test-output/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { distAndBrowser, isElementReport, serveSingleFile } from './browser.js';

const OUTPUT = 'test-output';
const HOST = 'attention-explorer';
const SENTENCE = 'the river flows into the';
const shared = distAndBrowser();
let core;
before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  core = await createAttentionCore({ kernels: 'simd128' });
});

const sample = (name) => readFileSync(new URL(`../../web/assets/corpus/${name}`, import.meta.url), 'utf8');

async function open(viewport = { width: 1440, height: 900 }) {
  const page = await shared.browser.context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize(viewport);
  await page.goto(`${shared.server.url}#chapter=learn&trainTask=language&sentence=${encodeURIComponent(SENTENCE)}`);
  return { page, errors };
}

/** What the language task shows: the readout's numbers, every head's label, the next-word bars per model. */
function read(page) {
  return page.$eval(HOST, (el) => {
    const root = el.shadowRoot;
    const readout = root.querySelector('.language-lesson .learn-readout');
    const d = readout?.dataset ?? {};
    const bars = (model) =>
      [...root.querySelectorAll(`[data-figure="learn-language-next"] section[data-model="${model}"] li`)].map((li) => ({
        word: li.dataset.word,
        p: Number(li.dataset.p),
      }));
    return {
      step: d.step === undefined ? null : Number(d.step),
      trainLoss: Number(d.trainLoss),
      loss: Number(d.loss),
      lossStep: Number(d.lossStep),
      unigram: Number(d.unigram),
      bigram: Number(d.bigram),
      running: d.running === 'true',
      text: readout?.textContent ?? '',
      error: root.querySelector('.language-lesson .learn-error')?.textContent ?? '',
      heads: [...root.querySelectorAll('[data-figure="learn-language-heads"] .head-thumb')].map((h) => ({
        layer: Number(h.dataset.layer),
        head: Number(h.dataset.head),
        label: h.dataset.label,
        score: Number(h.dataset.score),
      })),
      yours: bars('yours'),
      shipped: bars('shipped'),
      thresholds: [...root.querySelectorAll('[data-figure="learn-language-loss"] .threshold')].map(
        (l) => l.dataset.threshold,
      ),
      hidden: root.querySelector('.learn-heads')?.closest('[hidden]') !== null,
    };
  });
}

async function until(page, done, seconds) {
  const start = Date.now();
  let state;
  while (Date.now() - start < seconds * 1000) {
    state = await read(page);
    if (state.step !== null && done(state)) return { state, seconds: (Date.now() - start) / 1000 };
    await page.waitForTimeout(150);
  }
  return { state, seconds: null };
}

test("language (real English): the page's baselines, step-0 heads and next words are the core's in Node; Train passes the unigram line within 60 s", async () => {
  const { page, errors } = await open();
  const start = await until(page, (s) => s.step === 0 && s.heads.length > 0 && s.yours.length > 0, 30);
  assert.ok(start.seconds !== null, `the model is made at step 0 (${JSON.stringify(start.state)?.slice(0, 300)})`);
  assert.equal(start.state.hidden, true, "the attention-only tasks' figures step aside");

  // The same recipe, texts and seed in Node (language-run.js): the same baselines, heads and next words at step 0.
  const { LANGUAGE_RECIPE } = await import('../../web/src/lessons/learn/language-run.js');
  const heldOutText = sample('learn-held-out.txt');
  const trainer = core.createLanguageTrainer({ ...LANGUAGE_RECIPE, text: sample('learn-train.txt'), heldOutText });
  const b = trainer.baselines();
  assert.ok(
    Math.abs(start.state.unigram - Math.log(b.unigramPerplexity)) < 1e-9,
    `unigram ${start.state.unigram} vs ${Math.log(b.unigramPerplexity)}`,
  );
  assert.ok(Math.abs(start.state.bigram - Math.log(b.bigramPerplexity)) < 1e-9);
  assert.ok(start.state.bigram < start.state.unigram, 'on real English the bigram beats the unigram');
  // And a uniform guess over the output words, ln V, which the untrained model starts far above (its caption says why).
  const V = trainer.vocabulary.length;
  assert.deepEqual(start.state.thresholds, [
    `unigram ${Math.log(b.unigramPerplexity).toFixed(2)}`,
    `bigram ${Math.log(b.bigramPerplexity).toFixed(2)}`,
    `uniform guess ${Math.log(V).toFixed(2)}`,
  ]);
  const caption = await page.$eval(
    HOST,
    (el) => el.shadowRoot.querySelector('[data-figure="learn-language-loss"] figcaption').textContent,
  );
  const initial = trainer.evaluate().loss;
  console.log(
    `# language: the untrained model's held-out loss ${initial.toFixed(2)}, ln ${V} = ${Math.log(V).toFixed(2)}`,
  );
  assert.ok(caption.includes(`ln ${V.toLocaleString('en-US')} = ${Math.log(V).toFixed(2)}`), caption);
  assert.ok(
    caption.includes(`The untrained model starts higher, at ${initial.toFixed(1)}: its output is tied`),
    caption,
  );
  const model = trainer.model();
  const top = model.run(SENTENCE, { positions: [-1] }).top.at(-1);
  assert.deepEqual(
    start.state.yours.map((w) => w.word),
    top.map((w) => w.word),
    "the next-word bars are run()'s top 10",
  );
  start.state.yours.forEach((w, i) => assert.ok(Math.abs(w.p - top[i].p) < 1e-4, `${w.word}: ${w.p} vs ${top[i].p}`));
  const heads = model.measureHeads(heldOutText, { maxWindows: 32 });
  assert.equal(start.state.heads.length, heads.length);
  start.state.heads.forEach((h, i) => assert.equal(h.label, heads[i].label, `L${h.layer} H${h.head}`));
  model.release();

  await page.click(`${HOST} .language-lesson [data-action="train"]`);
  const clicked = Date.now();
  const passed = await until(page, (s) => s.lossStep > 0 && s.loss < s.unigram, 60);
  assert.ok(
    passed.seconds !== null,
    `held-out loss below the unigram line (${passed.state.unigram}) within 60 s: ${passed.state.loss} at step ${passed.state.lossStep}`,
  );
  console.log(
    `# language: held-out loss ${passed.state.loss.toFixed(3)} < unigram ${passed.state.unigram.toFixed(3)} at step ` +
      `${passed.state.lossStep}, ${((Date.now() - clicked) / 1000).toFixed(1)} s after Train`,
  );
  await page.screenshot({ path: `${OUTPUT}/learn-language-1440.png`, fullPage: true });

  // Compare: the shipped decoder's next words on the same sentence, beside the learner's model.
  await page.click(`${HOST} .language-lesson [data-action="compare"]`);
  const compared = await until(page, (s) => s.shipped.length === 10, 15);
  assert.ok(compared.seconds !== null, "the shipped decoder's bars");
  const shipped = (await core.languageModel('causal')).run(SENTENCE, { positions: [-1] }).top.at(-1);
  assert.deepEqual(
    compared.state.shipped.map((w) => w.word),
    shipped.map((w) => w.word),
  );

  // Pause stops the steps.
  await page.click(`${HOST} .language-lesson [data-action="train"]`);
  const paused = await until(page, (s) => !s.running, 10);
  assert.ok(paused.seconds !== null, 'paused');
  await page.waitForTimeout(600);
  assert.equal((await read(page)).step, paused.state.step);
  assert.deepEqual(errors, []);
  await page.close();
});

test("language: the learner's own text trains; one too short is refused with a message and the last model stays; a phone lays it out", async () => {
  const { page, errors } = await open({ width: 390, height: 844 });
  const start = await until(page, (s) => s.step === 0, 30);
  assert.ok(start.seconds !== null, "the sample's model at step 0");
  await page.selectOption(`${HOST} select[name="languageSource"]`, 'own');
  await page.fill(`${HOST} textarea[name="languageText"]`, 'The cat sat on the mat.\nThe dog sat too.');
  await page.click(`${HOST} [data-action="use-text"]`);
  const refused = await until(page, (s) => s.error !== '', 15);
  assert.match(refused.state.error, /held-out text \d+: each needs more than seqLen = 32/);
  assert.equal(refused.state.unigram, start.state.unigram, 'the last model stays');

  const fixture = readFileSync(new URL('../fixtures/public-domain-english.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .join('\n');
  await page.fill(`${HOST} textarea[name="languageText"]`, fixture);
  await page.click(`${HOST} [data-action="use-text"]`);
  const own = await until(page, (s) => s.step === 0 && s.unigram !== start.state.unigram && s.error === '', 30);
  assert.ok(own.seconds !== null, `a model of the pasted text (${own.state.text})`);
  assert.match(own.state.text, /training words/);
  const words = Number(own.state.text.match(/([\d,]+) training words/)[1].replace(/,/g, ''));
  assert.ok(words > 1000 && words < 20000, `${words} training words from the fixture`);
  await page.screenshot({ path: `${OUTPUT}/learn-language-390.png`, fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `nothing wider than the phone (${overflow} px over)`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('language in the single file: no sample, it says so; pasted text trains in its own worker', async () => {
  const alone = await serveSingleFile(
    '<attention-explorer views="learn" task="language" sentence="the light of the"></attention-explorer>',
  );
  try {
    const page = await shared.browser.context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(alone.url);
    await page.waitForFunction(
      () =>
        /carries no sample/.test(
          document.querySelector('attention-explorer')?.shadowRoot?.querySelector('.language-lesson .learn-readout')
            ?.textContent ?? '',
        ),
      null,
      { timeout: 30000 },
    );
    assert.equal(
      await page.$eval(HOST, (el) => el.shadowRoot.querySelector('select[name="languageSource"]').value),
      'own',
    );
    const fixture = readFileSync(new URL('../fixtures/public-domain-english.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .join('\n');
    await page.fill(`${HOST} textarea[name="languageText"]`, fixture);
    await page.click(`${HOST} [data-action="use-text"]`);
    const made = await until(page, (s) => s.step === 0 && s.yours.length === 10, 30);
    assert.ok(made.seconds !== null, `a model of the pasted text in the single file (${made.state?.text})`);
    await page.click(`${HOST} .language-lesson [data-action="train"]`);
    // The training loss falls; the held-out loss on so short a text falls for ~30 steps, then rises as the model
    // memorises it (the readout says so), so when the page happens to evaluate decides it: not checked here.
    const trained = await until(page, (s) => s.step >= 20 && Number.isFinite(s.trainLoss), 30);
    assert.ok(
      trained.seconds !== null && trained.state.trainLoss < made.state.loss,
      `it trains: held-out loss ${made.state.loss} at step 0 → training loss ${trained.state.trainLoss}`,
    );
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await alone.close();
  }
});
