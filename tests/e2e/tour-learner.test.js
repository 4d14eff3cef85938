// The guided tour on the learner's own sentence: each step keeps it (a step's sentence is offered as an example,
// "Use the tour's example"; a step that needs its own says why), the tour visits the trained decoder (its heads, a
// measured label) without carrying it into later steps, and the phase-change step says no mark is on the chart
// before training has drawn one.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const OUTPUT = 'test-output';
const shared = distAndBrowser();
mkdirSync(OUTPUT, { recursive: true });
const MINE = 'my cat sleeps on the warm windowsill';

/** The tour as shown: the step's id and text, the example line and whether its button is offered, the state. */
function tour(page) {
  return page.$eval('attention-explorer', (el) => {
    const root = el.shadowRoot;
    const example = root.querySelector('.tour-example');
    return {
      step: el.state.tour,
      title: root.querySelector('.tour-title').textContent,
      text: root.querySelector('.tour-text').textContent,
      example: example.hidden ? null : example.textContent,
      offered: !example.hidden && !root.querySelector('.tour-use-example').hidden,
      sentence: el.state.sentence,
      model: el.state.model,
    };
  });
}

test('the tour keeps my sentence, offers its example, visits the trained decoder, and says what step 18 marks', async () => {
  const { page, errors } = await openSite(shared, `sentence=${encodeURIComponent(MINE)}`);
  await page.click('attention-explorer .share-button:has-text("Take the guided tour")');
  let shown = await tour(page);
  assert.equal(shown.step, 'attention-weights');
  assert.equal(shown.sentence, MINE, 'the first step keeps my sentence');
  assert.ok(shown.offered, 'and offers its example');
  assert.match(shown.example, /keeps your sentence; its text speaks of “The river bank was muddy after the storm”/);
  await page.screenshot({ path: `${OUTPUT}/tour-example-1440.png` });
  await page.click('attention-explorer .tour-use-example');
  shown = await tour(page);
  assert.equal(shown.sentence, 'The river bank was muddy after the storm', 'the example, when I ask for it');
  assert.equal(shown.example, null, 'nothing more to offer');

  const seen = [];
  for (;;) {
    await page.click('attention-explorer .tour-next');
    shown = await tour(page);
    if (!shown.step) break;
    if (shown.step === 'knockout') {
      await page.waitForFunction(() => document.querySelector('attention-explorer').getRun()?.predictions?.length);
      shown.knockout = await page.$eval('attention-explorer', (el) => ({
        off: el.state.knockout,
        next: el.getRun().predictions[0].top[0].word,
      }));
    }
    if (shown.step === 'copying') {
      await page.waitForFunction(() => document.querySelector('attention-explorer').getRun()?.predictions?.length);
      shown.copy = await page.$eval('attention-explorer', (el) => {
        const run = el.getRun();
        const T = run.tokens.length;
        const { layer, head } = el.state.head;
        const H = run.attention.shape[1];
        const row = Array.from({ length: T }, (_, j) => run.attention.data[((layer * H + head) * T + T - 1) * T + j]);
        return {
          heaviest: run.tokens[row.indexOf(Math.max(...row))].text,
          next: run.predictions[0].top[0].word,
          label: run.heads.find((h) => h.layer === layer && h.head === head)?.kind,
        };
      });
    }
    if (shown.step === 'output-layer') {
      await page.waitForSelector('attention-explorer [data-figure="pipeline"][data-step="17"] .step h3');
      shown.stepTitle = await page.textContent('attention-explorer [data-figure="pipeline"] .step h3');
    }
    seen.push(shown);
  }
  const byId = Object.fromEntries(seen.map((s) => [s.step, s]));
  for (const s of seen) {
    if (['padding-and-mask-token', 'context', 'copying', 'knockout'].includes(s.step)) {
      assert.notEqual(s.sentence, MINE, `${s.step} uses its own sentence`);
      assert.match(s.example, /uses its own example/, `${s.step} says why`);
    } else assert.equal(s.sentence, MINE, `${s.step} keeps my sentence`);
  }
  assert.equal(byId['trained-model']?.model, 'causal', 'a step shows the trained decoder');
  // It counts the shipped decoder's heads as its config does (a model trained again with other layers changes both).
  const { numLayers, numHeads } = await page.$eval(
    'attention-explorer',
    async (el) => (await el.core.languageModel('causal')).config,
  );
  assert.ok(
    byId['trained-model'].text.includes(`Its ${numLayers * numHeads} heads (${numLayers} layers × ${numHeads})`),
    byId['trained-model'].text,
  );
  assert.equal(byId['measured-label']?.model, 'causal');
  // Knockout: the induction head switched off changes the decoder's next word after "… the leather" (bag → seat).
  assert.equal(byId.knockout?.model, 'causal');
  assert.deepEqual(byId.knockout.knockout, { off: [{ layer: 2, head: 0 }], next: 'seat' });
  // The output layer: the stepper of the decoder's layer 2 at its logits step.
  assert.equal(byId['output-layer']?.model, 'causal');
  assert.match(byId['output-layer'].stepTitle, /^17\. Logits/);
  // Copying: the decoder's induction head on a sentence it copies in: the last row's most weight on the word after the
  // first "lemon", which is the likeliest next word, and the head labelled "induction".
  assert.equal(byId.copying?.model, 'causal');
  assert.deepEqual(byId.copying.copy, { heaviest: 'tree', next: 'tree', label: 'induction' });
  const trainedSteps = ['trained-model', 'measured-label', 'copying', 'knockout', 'output-layer'];
  const others = seen.filter((s) => !trainedSteps.includes(s.step));
  assert.ok(
    others.every((s) => s.model === 'designed'),
    'every other step is back on my model',
  );
  const phase = byId['learn-phase-change'];
  assert.doesNotMatch(phase.text, /^.*Marked: ①/, 'no "Marked:" over an empty chart');
  assert.match(phase.text, /As they form, the curves get marks: ①/);
  const closed = await tour(page);
  assert.equal(closed.sentence, MINE, 'closing gives my sentence back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the trained-model steps on a phone: the heads and the measured label are on screen', async () => {
  const { page } = await openSite(shared, 'tour=measured-label', { width: 390, height: 844 });
  await page.waitForSelector('attention-explorer [data-figure="attention-weights"]', { timeout: 30000 });
  const shown = await tour(page);
  assert.equal(shown.model, 'causal');
  // The label the step quotes is the shipped decoder's own measurement of the head the step selects (L2 H3)
  const previous = await page.$eval('attention-explorer', async (el) => {
    const model = await el.core.languageModel('causal');
    const { layer, head } = el.state.head;
    return model.config.heads.find((h) => h.layer === layer && h.head === head).previous;
  });
  assert.deepEqual(await page.$eval('attention-explorer', (el) => el.state.head), { layer: 1, head: 2 });
  assert.match(shown.text, new RegExp(`previous word ${previous.toFixed(2).replace('.', '\\.')}`));
  await page.screenshot({ path: `${OUTPUT}/tour-measured-label-390.png` });
  await page.close();
});
