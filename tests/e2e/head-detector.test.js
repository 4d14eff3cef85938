// The head detector (lessons/attention/head-detector.js): each trained model's heads on repeated random words, the
// numbers the core measures; a row shows its head above; the example sequence goes into the box on a click. And a
// sentence longer than the model's training windows is said to be (explorer/sentence-notice.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const shared = distAndBrowser();
const SENTENCE = 'the river bank was muddy after the storm';

/** A page of the site showing trained model `model` on SENTENCE, once the model has run. */
async function openModel(model) {
  const opened = await openSite(shared, `model=${model}&sentence=${encodeURIComponent(SENTENCE)}`);
  await opened.page.waitForFunction(
    () => document.querySelector('attention-explorer').getRun().status === 'ready',
    null,
    { timeout: 30000 },
  );
  return opened;
}

/** The figure's bars, per head: [previous, duplicate, induction] as drawn (their numbers). */
function drawnScores(page) {
  return page.$eval('attention-explorer', (el) =>
    [...el.shadowRoot.querySelectorAll('[data-figure="head-detector"] .detector-head')].map((row) =>
      [...row.querySelectorAll('.detector-number')].map((t) => Number(t.textContent)),
    ),
  );
}

for (const model of ['causal', 'masked']) {
  test(`${model}: every head's three scores on repeated random words, as the core measures them`, async () => {
    const { page, errors } = await openModel(model);
    await showSlot(page, 'headDetector');
    const drawn = await drawnScores(page);
    const measured = await page.evaluate(async (model) => {
      const el = document.querySelector('attention-explorer');
      const lm = await el.core.languageModel(model);
      return lm.repeatedWords().heads.map((h) => [h.previous, h.duplicate, h.induction]);
    }, model);
    assert.equal(drawn.length, measured.length, 'a row per head');
    drawn.forEach((row, i) => row.forEach((v, k) => assert.ok(Math.abs(v - measured[i][k]) <= 0.005, `${i},${k}`)));
    const copy = await page.textContent('attention-explorer .detector-copy');
    assert.match(
      copy,
      model === 'causal' ? /first copy costs it [\d.]+ nats, of the second [\d.]+/ : /both copies at once/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('decoder: a row shows its head above; the button puts the example sequence in the box', async () => {
  const { page, errors } = await openModel('causal');
  await showSlot(page, 'headDetector');
  await page.click('attention-explorer .detector-head[data-layer="1"][data-head="2"]');
  assert.deepEqual(await page.$eval('attention-explorer', (el) => el.state.head), { layer: 1, head: 2 });
  // The weights, above the detector's 16 rows, are drawn again when they are back in view.
  await showSlot(page, 'attention');
  await page.waitForFunction(() =>
    /L2 H3/.test(
      document
        .querySelector('attention-explorer')
        .shadowRoot.querySelector('[data-figure="attention-weights"] figcaption').textContent,
    ),
  );
  await page.waitForSelector('attention-explorer .detector-head.selected[data-layer="1"][data-head="2"]');
  await page.click('attention-explorer .detector-example button');
  const { sentence, example, tokens } = await page.evaluate(async () => {
    const el = document.querySelector('attention-explorer');
    const lm = await el.core.languageModel('causal');
    return { sentence: el.state.sentence, example: lm.repeatedWords().example, tokens: el.getRun().tokens.length };
  });
  assert.equal(sentence, example.join(' '));
  assert.equal(tokens, example.length, 'the box reads the two copies, a token a word');
  assert.deepEqual(errors, []);
  await page.close();
});

test('decoder: a sentence longer than its training windows is said to be, a shorter one is not', async () => {
  const { page, errors } = await openModel('causal');
  const seqLen = await page.$eval('attention-explorer', (el) => el.getRun().config.seqLen);
  const notice = () => page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('.notice').textContent);
  assert.doesNotMatch(await notice(), /trained on windows/);
  const long = Array.from({ length: seqLen + 5 }, (_, i) => SENTENCE.split(' ')[i % 8]).join(' ');
  await page.evaluate((long) => document.querySelector('attention-explorer').change({ sentence: long }), long);
  await page.waitForFunction(() =>
    /trained on windows/.test(
      document.querySelector('attention-explorer').shadowRoot.querySelector('.notice').textContent,
    ),
  );
  assert.match(
    await notice(),
    new RegExp(
      `The decoder trained on windows of ${seqLen} tokens and this sentence has ${seqLen + 5}: from token ${seqLen + 1} on`,
    ),
  );
  assert.deepEqual(errors, []);
  await page.close();
});
