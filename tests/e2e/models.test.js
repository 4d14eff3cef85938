// One program for every model, in headless Chromium: the designed heads, the trained decoder and the
// trained encoder each cost one core call a keystroke (every function of el.core and of the loaded models
// wrapped with a counter); the tour, the stepper, the mix and the figure downloads work on the decoder as
// on the designed heads; and no label of any chapter counts layers or heads from 0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TOUR_STEPS } from '../../web/src/explorer/tour-steps.js';
import { distAndBrowser, flush, openSite } from './browser.js';
import { countCoreCalls } from './core-calls.js';

const shared = distAndBrowser();
const HOST = 'attention-explorer';

/** The figure each model draws its selected head's weights in. */
const WEIGHTS = { designed: 'attention-weights', causal: 'attention-weights', masked: 'attention-weights' };

/** Opens the site showing `model` (and `more` of the hash), once its weights are drawn. */
async function openModel(model, more = '') {
  const opened = await openSite(shared, `model=${model}${more}`);
  await opened.page.waitForSelector(`${HOST} [data-figure="${WEIGHTS[model]}"]`, { timeout: 30000 });
  return opened;
}

for (const [model, call] of [
  ['designed', 'core.explain'],
  ['causal', 'causal.run'],
  ['masked', 'masked.run'],
]) {
  test(`one keystroke makes one core call with the ${model} model (${call})`, async () => {
    const { page, errors } = await openModel(model);
    await countCoreCalls(page);
    await page.focus(`${HOST} textarea`);
    await page.keyboard.press('End');
    await page.keyboard.type('s');
    await flush(page);
    await page.waitForTimeout(400); // anything a keystroke would start later (a deferred URL write) has run
    const counts = await page.evaluate(() => window.coreCalls);
    assert.deepEqual(counts, { [call]: 1 }, `the calls a keystroke made: ${JSON.stringify(counts)}`);
    const shown = await page.$eval(HOST, (el) => ({ sentence: el.sentence, tokens: el.getRun().tokens.length }));
    assert.match(shown.sentence, /s$/);
    assert.ok(shown.tokens > 3);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/** Every text a learner can read in the element: its text, titles, aria-labels and the figures' drawn labels. */
function readableText(page) {
  return page.$eval(HOST, (el) => {
    const root = el.shadowRoot;
    const attributes = [...root.querySelectorAll('[title], [aria-label]')].flatMap((node) => [
      node.getAttribute('title') ?? '',
      node.getAttribute('aria-label') ?? '',
    ]);
    const visible = [...root.querySelectorAll('section, figure, p, button, label, summary, h2, h3, h4')]
      .filter((node) => node.checkVisibility())
      .map((node) => node.innerText);
    return [...visible, ...attributes].join('\n');
  });
}

test('no label on any chapter counts layers or heads from 0 ("L0", "layer 0"), with either model', async () => {
  for (const model of ['designed', 'causal']) {
    const { page, errors } = await openModel(model);
    for (const chapter of ['attention', 'inside-head', 'positions', 'lenses', 'learn']) {
      await page.$eval(HOST, (el, id) => el.change({ chapter: id }), chapter);
      await flush(page);
      await page.waitForTimeout(300);
      const text = await readableText(page);
      assert.ok(text.length > 200, `${model}, ${chapter}: the chapter shows its text`);
      assert.doesNotMatch(text, /\bL0\b|\blayer 0\b|\bhead 0\b/i, `${model}, ${chapter}`);
    }
    if (model === 'causal') {
      await page.$eval(HOST, (el) => el.change({ chapter: 'attention' }));
      await page.waitForSelector(`${HOST} [data-figure="heads"]`);
      const names = await page.$$eval(`${HOST} [data-figure="heads"] .head-label strong`, (nodes) =>
        nodes.map((node) => node.textContent),
      );
      // The decoder's 4 layers × 4 heads, counted from 1
      assert.deepEqual(
        names,
        [1, 2, 3, 4].flatMap((l) => [1, 2, 3, 4].map((h) => `L${l} H${h}`)),
      );
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// The steps about the designed heads' settings switch to them and say so; on the designed heads, the tour's
// trained-model steps show the decoder.
test("the tour keeps the learner's model but on the designed heads' steps, and works from the designed heads", async () => {
  for (const model of ['causal', 'designed']) {
    const { page, errors } = await openModel(model);
    await page.$eval(HOST, (el, first) => (el.tour = first), TOUR_STEPS[0].id);
    for (let i = 0; i < TOUR_STEPS.length; i++) {
      const step = TOUR_STEPS[i];
      await page.waitForFunction((id) => document.querySelector('attention-explorer').tour === id, step.id);
      await flush(page);
      const shown = await page.$eval(HOST, (el) => ({
        state: el.state,
        run: el.getRun().model,
        text: el.shadowRoot.querySelector('.tour-text').textContent,
        status: el.shadowRoot.querySelector('.status').textContent,
      }));
      // A step that shows a trained model of its own (its state names one) shows it; every other keeps the learner's.
      const expected = step.state.model ?? model;
      assert.equal(shown.state.model, expected, `step ${step.id}: the model stays`);
      assert.equal(shown.run, expected, `step ${step.id}: its figures are the model's`);
      assert.equal(shown.status, '', `step ${step.id}: no error`);
      const fixed = ['numHeads', 'headKinds', 'mask', 'scoreFunction', 'projection'].some((key) => key in step.state);
      if (model === 'causal' && expected === 'causal' && fixed)
        assert.match(shown.text, /trained decoder, which fixes these settings/, `step ${step.id} says so`);
      if (expected !== model)
        assert.match(shown.text, /The tour shows the .+ for this step; closing it gives your .+ back\./, step.id);
      if (expected === 'causal' && step.view === 'attention')
        await page.waitForSelector(`${HOST} [data-figure="attention-weights"]`, { state: 'visible' });
      if (expected === 'causal' && step.view === 'pipeline')
        await page.waitForSelector(`${HOST} [data-figure="head-steps"]`, { state: 'visible' });
      if (i < TOUR_STEPS.length - 1) await page.click(`${HOST} .tour-next`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

/** Opens a figure's Download menu, clicks `format` and returns the file's text. */
async function download(page, figure, format) {
  const menu = page.locator(`${HOST} [data-figure="${figure}"] .export-menu`).first();
  if (!(await menu.evaluate((el) => el.open))) await menu.locator('summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), menu.locator(`[data-export="${format}"]`).click()]);
  return readFileSync(await file.path(), 'utf8');
}

test('the stepper, the mix and the downloads follow the selected head of the decoder and of the designed heads', async () => {
  const cases = [
    { model: 'designed', head: { layer: 0, head: 2 }, weights: 'attention-weights', mix: 'mix', stepper: 'head-steps' },
    {
      model: 'causal',
      head: { layer: 1, head: 2 },
      weights: 'attention-weights',
      mix: 'mix',
      stepper: 'head-steps',
    },
  ];
  for (const { model, head, weights, mix, stepper } of cases) {
    const { page, errors } = await openModel(model, `&head=${head.layer},${head.head}&lineQuery=2`);
    const run = await page.$eval(HOST, (el) => {
      const r = el.getRun();
      return { tokens: r.tokens.map((t) => t.text), shape: r.attention.shape, state: el.state.head };
    });
    assert.deepEqual(run.state, head, `${model}: the link's head`);
    // The mix mixes the selected head's row of weights, as the Run holds them.
    await page.waitForSelector(`${HOST} [data-figure="${mix}"]`);
    const mixed = await page.$eval(
      HOST,
      (el, { name, ref }) => {
        const figure = el.shadowRoot.querySelector(`[data-figure="${name}"]`);
        const r = el.getRun();
        const T = r.tokens.length;
        const index = ref.layer * r.attention.shape[1] + ref.head;
        const row = r.attention.data.subarray((index * T + 2) * T, (index * T + 3) * T);
        return { query: Number(figure.dataset.query), mix: Array.from(figure.mix.weights), row: Array.from(row) };
      },
      { name: mix, ref: head },
    );
    assert.equal(mixed.query, 2);
    assert.deepEqual(mixed.mix, mixed.row, `${model}: the mix's weights are the head's row`);
    // The weights' CSV download: the tokens as labels, the selected head's weights as values.
    const csv = (await download(page, weights, 'csv')).trim().split('\n');
    assert.equal(csv.length, run.tokens.length + 1, `${model}: a row per query`);
    const json = JSON.parse(await download(page, weights, 'json'));
    assert.deepEqual(json.shape, [run.tokens.length, run.tokens.length]);
    assert.deepEqual(json.state.head, head, `${model}: the download records the head`);
    assert.match(await download(page, weights, 'svg'), /^<svg/);
    // The stepper follows the same head, step by step.
    await page.$eval(HOST, (el) => el.change({ chapter: 'inside-head', step: 2 }));
    await page.waitForSelector(`${HOST} [data-figure="${stepper}"]`, { state: 'visible', timeout: 30000 });
    const steps = await page.$eval(
      HOST,
      (el, name) => {
        const figure = el.shadowRoot.querySelector(`[data-figure="${name}"]`);
        return { head: figure.dataset.head, layer: figure.dataset.layer ?? '0', text: figure.textContent };
      },
      stepper,
    );
    assert.deepEqual(
      [Number(steps.layer), Number(steps.head)],
      [head.layer, head.head],
      `${model}: the stepper's head`,
    );
    await page.$eval(HOST, (el) => el.change({ step: 5 }));
    await flush(page);
    assert.equal(await page.$eval(HOST, (el) => el.state.step), 5);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
