// The trained models' output layer and sampling, end to end in headless Chromium: the stepper's output-layer steps
// (x_L, logits, softmax, top words) with their formulas and shapes, the designed heads' one line saying they have
// none, <unk> apart from the ranked words, the output temperature reshaping the bars, and Generate appending a
// sampled word that a link reproduces. Screenshots of the steps and the controls at 1440×900 and 390×844.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';

const shared = distAndBrowser();
const PHONE = { width: 390, height: 844 };
const OUTPUT_TITLES = [/^\d+\. Output layer: x_L/, /^\d+\. Logits/, /^\d+\. Softmax/, /^\d+\. The next word/];

/** Opens step `step` of the trained stepper and returns its title, formula text, caption and values drawn. */
async function openStep(page, step) {
  await page.click(`attention-explorer [data-figure="pipeline"] .step-number[data-step="${step}"]`);
  await page.waitForSelector(`attention-explorer [data-figure="pipeline"][data-step="${step}"]`);
  return page.$eval('attention-explorer [data-figure="pipeline"] .step', (card) => {
    const figure = card.querySelector('[data-figure^="step-"]');
    return {
      title: card.querySelector('h3').textContent,
      formula: card.querySelector('.formula annotation')?.textContent ?? '',
      caption: figure.querySelector('figcaption')?.textContent ?? '',
      values: figure.exportData ? Array.from(figure.exportData.values) : null,
      shape: figure.exportData?.shape ?? null,
      words: Array.from(figure.querySelectorAll('li[data-word]'), (li) => li.dataset.word),
      unkLine: figure.querySelector('.unk-line')?.textContent ?? null,
    };
  });
}

test('Inside one head, decoder: the output layer follows the last block, each step with its formula and shape', async () => {
  const { page, errors } = await openSite(shared, 'model=causal&chapter=inside-head');
  await page.waitForSelector('attention-explorer [data-figure="pipeline"]', { timeout: 30000 });
  const count = Number(await page.$eval('attention-explorer [data-figure="pipeline"]', (s) => s.dataset.steps));
  const run = await page.$eval('attention-explorer', (el) => {
    const { output, config } = el.getRun();
    return {
      position: output.position,
      logits: Array.from(output.logits),
      x: Array.from(output.x.data),
      top: output.top,
      unk: output.unk,
      V: config.outputSize,
      tied: config.tiedOutput,
    };
  });
  const steps = [];
  for (let i = 0; i < 4; i++) steps.push(await openStep(page, count - 3 + i));
  steps.forEach((s, i) => assert.match(s.title, OUTPUT_TITLES[i], `step ${count - 3 + i}: ${s.title}`));
  const [x, logits, probabilities, words] = steps;
  assert.match(x.formula, /x_L/);
  assert.deepEqual(x.shape, [1, 100]);
  assert.deepEqual(x.values, run.x);
  assert.match(logits.formula, /z\s*=\s*x_L\s*\\,?U\s*\+\s*b/);
  assert.match(logits.caption, new RegExp(`\\[${run.V}\\]`));
  assert.match(logits.caption, run.tied ? /U tied/ : /U learned, untied/);
  // The logits drawn are the 20 largest among the words, as the run has them.
  const largest = run.logits
    .slice(0, -1)
    .map((z, id) => [z, id])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, 20)
    .map(([z]) => z);
  assert.deepEqual(
    logits.values,
    largest.map((z) => Math.fround(z)),
  );
  assert.match(probabilities.formula, /softmax|e\^\{z_i\}/);
  assert.match(probabilities.caption, /sums to 1; <unk> \(every other word\): \d/);
  const pFirst = probabilities.values[0];
  assert.ok(Math.abs(pFirst - run.top[0].p) < 1e-6, `the first probability ${pFirst} is the run's ${run.top[0].p}`);
  assert.deepEqual(
    words.words,
    run.top.slice(0, 10).map((w) => w.word),
  );
  assert.ok(!words.words.includes('<unk>'));
  assert.match(words.unkLine, /^a rarer word \(one of the words outside its 8,191\): \d+\.\d%/);
  for (const [viewport, name] of [
    [{ width: 1440, height: 900 }, 'wide'],
    [PHONE, 'phone'],
  ]) {
    await page.setViewportSize(viewport);
    for (const step of [count - 2, count]) {
      await openStep(page, step);
      await page.screenshot({ path: `test-output/output-layer-step${step - count + 4}-${name}.png` });
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the designed heads' stepper says they have no output layer; the encoder's says how to make a blank", async () => {
  const { page, errors } = await openSite(shared, 'chapter=inside-head');
  await page.waitForSelector('attention-explorer [data-figure="head-steps"] .no-output');
  assert.match(
    await page.$eval('attention-explorer [data-figure="head-steps"] .no-output', (p) => p.textContent),
    /no output layer/,
  );
  await page.goto(`${shared.server.url}#model=masked&chapter=inside-head`);
  await page.waitForSelector('attention-explorer [data-figure="head-steps"] .no-output', { timeout: 30000 });
  assert.match(
    await page.$eval('attention-explorer [data-figure="head-steps"] .no-output', (p) => p.textContent),
    /click a word of your sentence/,
  );
  // With a blank, the encoder's output steps follow its block, at the blank.
  await page.goto(`${shared.server.url}#model=masked&chapter=inside-head&maskedPositions=2`);
  await page.waitForFunction(
    () => document.querySelector('attention-explorer').getRun()?.output?.position === 2,
    null,
    { timeout: 30000 },
  );
  const count = Number(await page.$eval('attention-explorer [data-figure="pipeline"]', (s) => s.dataset.steps));
  const last = await openStep(page, count);
  assert.match(last.title, /The blank: the most likely words/);
  assert.ok(last.words.length === 10 && !last.words.includes('<unk>'));
  assert.deepEqual(errors, []);
  await page.close();
});

/** The predictions' bars and <unk> line as drawn. */
function bars(page) {
  return page.$eval('attention-explorer [data-figure="predictions"]', (f) => ({
    words: Array.from(f.querySelectorAll('li[data-word]'), (li) => li.dataset.word),
    p: Array.from(f.querySelectorAll('li[data-word]'), (li) => Number(li.dataset.p)),
    unk: f.querySelector('.unk-line')?.textContent ?? null,
    note: f.querySelector('.sampling-note')?.textContent ?? '',
  }));
}

test('predictions: <unk> never ranked, its line apart; the output temperature and top-k reshape the bars', async () => {
  const { page, errors } = await openSite(
    shared,
    'model=causal&sentence=The%20river%20bank%20was%20muddy%20after%20the',
  );
  await page.waitForSelector('attention-explorer [data-figure="predictions"] li[data-word]', { timeout: 30000 });
  const before = await bars(page);
  assert.ok(!before.words.includes('<unk>'), before.words.join(' '));
  assert.match(before.unk, /^a rarer word \(one of the words outside its 8,191\): \d+\.\d%/);
  // At the defaults the bars are the model's own probabilities: with the rarer words' line they add up to at most 1.
  assert.match(before.note, /^Bars: the model's probabilities/);
  const rarer = Number(before.unk.match(/(\d+\.\d)%/)[1]) / 100;
  assert.ok(before.p.reduce((a, b) => a + b, 0) + rarer <= 1 + 1e-3, `${before.p.join(' + ')} + ${rarer}`);
  // The slider labelled "output temperature": lower → the first word's probability rises.
  const slider = 'attention-explorer .sampling-controls input[name="outputTemperature"]';
  assert.equal(await page.$eval(slider, (input) => input.labels[0].textContent), 'output temperature');
  await page.$eval(slider, (input) => {
    input.value = '0.5';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await flush(page);
  const cooler = await bars(page);
  assert.ok(cooler.p[0] > before.p[0] + 0.01, `T 0.5: first bar ${cooler.p[0]} vs ${before.p[0]} at T 1`);
  assert.equal(cooler.words[0], before.words[0], 'the order stays: T scales every logit alike');
  assert.match(page.url(), /outputTemperature=0.5/);
  // top-k = 3: three bars, renormalised to sum to 1.
  const topK = 'attention-explorer .sampling-controls input[name="topK"]';
  assert.match(await page.$eval(topK, (input) => input.labels[0].textContent), /^top-k/);
  await page.fill(topK, '3');
  await flush(page);
  const three = await bars(page);
  assert.deepEqual(three.words, before.words.slice(0, 3));
  assert.ok(Math.abs(three.p.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  assert.match(
    three.note,
    /^Bars: the sampling distribution, softmax\(logits \/ T\).*the 3 most likely kept, renormalised/,
  );
  for (const [viewport, name] of [
    [{ width: 1440, height: 900 }, 'wide'],
    [PHONE, 'phone'],
  ]) {
    await page.setViewportSize(viewport);
    await page.$eval('attention-explorer', (el) =>
      el.shadowRoot.querySelector('.sampling-controls').scrollIntoView({ block: 'center' }),
    );
    await page.screenshot({ path: `test-output/sampling-controls-${name}.png` });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('Generate appends a sampled word, advances the seed, and the link reproduces it', async () => {
  const hash = 'model=causal&sentence=The%20river%20bank%20was&sampleSeed=41&topK=20';
  const { page, errors } = await openSite(shared, hash);
  await page.waitForSelector('attention-explorer .sampling-controls button.generate:not([hidden])', {
    timeout: 30000,
  });
  const generateOnce = async (p) => {
    const before = await p.$eval('attention-explorer', (el) => el.sentence);
    await p.click('attention-explorer .sampling-controls button.generate');
    await p.waitForFunction((s) => document.querySelector('attention-explorer').sentence !== s, before);
    return p.$eval('attention-explorer', (el) => el.sentence);
  };
  const first = await generateOnce(page);
  assert.match(first, /^The river bank was \S+$/);
  assert.match(page.url(), /sampleSeed=42/);
  const afterFirst = page.url();
  const second = await generateOnce(page);
  assert.ok(second.startsWith(`${first} `), `${second} extends ${first}`);
  assert.match(page.url(), /sampleSeed=43/);
  const said = await page.$eval('attention-explorer .sampling-controls .generated', (o) => o.value);
  assert.match(said, /^Generated “\S+” \(p = \d+\.\d+ %/);
  // The bars follow the new sentence.
  const title = await page.$eval(
    'attention-explorer [data-figure="predictions"] .prediction-title',
    (p) => p.textContent,
  );
  assert.ok(title.includes(second.split(' ').at(-1)), title);

  // The first link, opened again: the same two words; the link after the first generation: the second word.
  const again = await openSite(shared, hash);
  await again.page.waitForSelector('attention-explorer .sampling-controls button.generate:not([hidden])');
  assert.equal(await generateOnce(again.page), first);
  assert.equal(await generateOnce(again.page), second);
  const reloaded = await openSite(shared, new URL(afterFirst).hash.slice(1));
  assert.equal(await reloaded.page.$eval('attention-explorer', (el) => el.sentence), first);
  await reloaded.page.waitForSelector('attention-explorer .sampling-controls button.generate:not([hidden])');
  assert.equal(await generateOnce(reloaded.page), second);

  // The line speaks of the generated word: typing another sentence takes it away.
  await page.focus('attention-explorer textarea');
  await page.keyboard.press('End');
  await page.keyboard.type(' x');
  await page.waitForFunction(
    () =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('.sampling-controls .generated').value ===
      '',
  );
  // The decoder never read [MASK]: its word chips do not offer it, and a click masks nothing.
  const chip = 'attention-explorer .token[data-index="1"]';
  assert.doesNotMatch(await page.$eval(chip, (li) => li.title), /click to mask/);
  await page.click(chip);
  await flush(page);
  assert.deepEqual(await page.$eval('attention-explorer', (el) => el.state.maskedPositions), []);

  // The encoder: no Generate, and the line says why.
  await page.goto(`${shared.server.url}#model=masked`);
  await page.waitForFunction(() => document.querySelector('attention-explorer').getRun()?.model === 'masked');
  await flush(page);
  const encoder = await page.$eval('attention-explorer .sampling-controls', (form) => ({
    hidden: form.querySelector('button.generate').hidden,
    said: form.querySelector('.generated').value,
  }));
  assert.equal(encoder.hidden, true);
  assert.match(encoder.said, /the decoder’s job/);
  assert.deepEqual([...errors, ...again.errors, ...reloaded.errors], []);
  await Promise.all([page.close(), again.page.close(), reloaded.page.close()]);
});
