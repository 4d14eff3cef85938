// "Why this word?" in headless Chromium: switching a trained head off (knockout) changes the decoder's next word, the
// URL keeps it and a reload restores it, a bad knockout shows its error; pointing at a predicted word draws one bar per
// head and the occlusion chips with finite values, computed then and never per keystroke. Screenshots at 1440×900 and
// 390×844 go to build/screenshots/ (to look at).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { distAndBrowser, flush, launchBrowser, openSite, serveElementPage } from './browser.js';
import { countCoreCalls } from './core-calls.js';

const shared = distAndBrowser();
const HOST = 'attention-explorer';
/** A sentence whose next word changes when the head below is switched off (“bag” → “seat” without layer 3, head 1). */
const SENTENCE = 'the old man carried a leather bag . inside the leather';
const HEAD = { layer: 2, head: 0 }; // an induction head of the decoder: it copies “bag”
const SHOTS = 'build/screenshots';

/** Opens the site on the decoder (and `more` of the hash), once its predictions are drawn. */
async function openCausal(more = '', viewport) {
  const opened = await openSite(shared, `model=causal&sentence=${encodeURIComponent(SENTENCE)}${more}`, viewport);
  await opened.page.waitForSelector(`${HOST} [data-figure="predictions"] li[data-word]`, { timeout: 30000 });
  return opened;
}

const topWord = (page) => page.$eval(`${HOST} [data-figure="predictions"] li[data-word]`, (li) => li.dataset.word);
const stateKnockout = (page) => page.$eval(HOST, (el) => el.state.knockout);
const hashKnockout = (page) => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('knockout');
const headSwitch = ({ layer, head }) =>
  `${HOST} [data-figure="heads"] li:has(> .head-thumb[data-layer="${layer}"][data-head="${head}"]) .head-switch`;

test('switching a head off changes the next word; the URL keeps it, a reload restores it; all back on restores the word', async () => {
  const { page, errors } = await openCausal();
  const before = await topWord(page);
  await page.click(headSwitch(HEAD));
  await page.waitForFunction(
    (word) =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="predictions"] li[data-word]')
        ?.dataset.word !== word,
    before,
  );
  const after = await topWord(page);
  assert.notEqual(after, before, `“${SENTENCE}”: the top word without L${HEAD.layer + 1} H${HEAD.head + 1}`);
  console.log(`“${SENTENCE}” → ${before}; with L${HEAD.layer + 1} H${HEAD.head + 1} off → ${after}`);
  assert.deepEqual(await stateKnockout(page), [HEAD]);
  const item = `${HOST} [data-figure="heads"] .head-thumb[data-layer="${HEAD.layer}"][data-head="${HEAD.head}"]`;
  assert.equal(await page.$eval(item, (b) => b.hasAttribute('data-off')), true);
  assert.match(await page.$eval(item, (b) => b.textContent), /off/i);
  assert.equal(await page.$eval(headSwitch(HEAD), (b) => b.getAttribute('aria-pressed')), 'true');
  // The URL keeps it (written once the page is idle), and opening it again restores it.
  await page.waitForFunction(
    (h) => new URLSearchParams(location.hash.slice(1)).get('knockout') === h,
    `${HEAD.layer},${HEAD.head}`,
  );
  assert.equal(hashKnockout(page), `${HEAD.layer},${HEAD.head}`);
  await page.reload();
  await page.waitForSelector(`${HOST} [data-figure="predictions"] li[data-word]`, { timeout: 30000 });
  assert.deepEqual(await stateKnockout(page), [HEAD]);
  assert.equal(await topWord(page), after);
  // Selecting a head still works with a head off, and does not switch it back on.
  await page.click(`${HOST} [data-figure="heads"] .head-thumb[data-layer="1"][data-head="0"]`);
  assert.deepEqual(await page.$eval(HOST, (el) => el.state.head), { layer: 1, head: 0 });
  assert.deepEqual(await stateKnockout(page), [HEAD]);
  await page.click(`${HOST} .heads-all-on`);
  await page.waitForFunction(() => document.querySelector('attention-explorer').state.knockout.length === 0);
  assert.equal(await topWord(page), before);
  assert.equal(await page.$$eval(`${HOST} .heads-all-on`, (b) => b.length), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a head the model does not have, in the URL or the attribute, shows the error', async () => {
  const { page, errors } = await openSite(shared, 'model=causal&knockout=0,1;5,0');
  await page.waitForFunction(() =>
    document
      .querySelector('attention-explorer')
      .shadowRoot.querySelector('.status.error')
      ?.textContent.includes('ablate'),
  );
  const message = await page.$eval(`${HOST} .status.error`, (p) => p.textContent);
  assert.match(message, /ablate\[1\]\.layer must be an integer from 0 to 3, got 5/);
  assert.deepEqual(errors, []);
  await page.close();
  const host = await serveElementPage(
    'knockout',
    '<attention-explorer id="twice" model="causal" knockout="0,1;0,1"></attention-explorer>' +
      '<attention-explorer id="words" model="causal" knockout="L1 H2"></attention-explorer>',
  );
  const browser = await launchBrowser();
  try {
    const element = await browser.context.newPage();
    await element.goto(host.url);
    await element.waitForFunction(() => document.querySelector('#words').getRun?.(), null, { timeout: 30000 });
    const said = (id) => element.$eval(`#${id}`, (el) => el.shadowRoot.querySelector('.config-errors').textContent);
    assert.match(await said('twice'), /Attribute knockout="0,1;0,1": .*lists layer 0, head 1 twice/);
    assert.match(await said('words'), /Attribute knockout="L1 H2": must be heads as layer,head from 0/);
  } finally {
    await browser.close();
    await host.close();
  }
});

test('pointing at a predicted word draws a bar per head and the occlusion chips, finite; typing computes neither', async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const { page, errors } = await openCausal('&knockout=0,3', viewport);
    await countCoreCalls(page);
    const figure = `${HOST} [data-figure="why-this-word"]`;
    assert.equal(await page.$$eval(`${figure} .head-effect`, (g) => g.length), 0, 'nothing measured before pointing');
    await page.hover(`${HOST} [data-figure="predictions"] li[data-word] >> nth=1`);
    await page.locator(figure).scrollIntoViewIfNeeded(); // a figure below the screen is drawn when it scrolls in
    await page.waitForSelector(`${figure} .head-effect`);
    const shown = await page.$eval(figure, (f) => ({
      word: f.dataset.word,
      logProb: Number(f.dataset.logProb),
      heads: [...f.querySelectorAll('.head-effect')].map((g) => ({
        layer: Number(g.dataset.layer),
        head: Number(g.dataset.head),
        delta: Number(g.dataset.delta),
        label: g.querySelector('.row-label').textContent,
      })),
      chips: [...f.querySelectorAll('.occlusion-chips li')].map((li) => Number(li.dataset.delta)),
      caption: f.textContent,
    }));
    const second = await page.$eval(
      `${HOST} [data-figure="predictions"] li[data-word] >> nth=1`,
      (li) => li.dataset.word,
    );
    assert.equal(shown.word, second);
    assert.ok(Number.isFinite(shown.logProb) && shown.logProb < 0);
    assert.equal(shown.heads.length, 16); // the decoder's 4 × 4
    assert.ok(shown.heads.every((h) => Number.isFinite(h.delta)));
    assert.deepEqual(shown.heads[0].label, 'L1 H1');
    assert.equal(shown.heads[3].delta, 0, 'L1 H4 is off already');
    assert.ok(shown.heads.some((h) => Math.abs(h.delta) > 1e-3));
    const T = await page.$eval(HOST, (el) => el.getRun().tokens.length);
    assert.equal(shown.chips.length, T);
    assert.ok(shown.chips.every(Number.isFinite));
    assert.match(shown.caption, /nats/);
    assert.match(shown.caption, /not an explanation of the model/);
    let counts = await page.evaluate(() => window.coreCalls);
    // The head detector under the mix measures the model once, when it first comes into view (here, on a phone, while
    // scrolling to this figure); it is no measurement of the pointed word.
    const { 'causal.repeatedWords': probes = 0, ...pointed } = counts;
    assert.ok(probes <= 1, JSON.stringify(counts));
    assert.deepEqual(pointed, { 'causal.attribute': 1 }, JSON.stringify(counts));
    await page.hover(`${HOST} [data-figure="predictions"] li[data-word] >> nth=1`); // the same word: nothing again
    await page.screenshot({ path: `${SHOTS}/why-this-word-${viewport.width}.png`, fullPage: viewport.width < 500 });
    // A keystroke: one run, no measurement (the figure says nothing is measured for the new sentence).
    await page.evaluate(() => {
      for (const name of Object.keys(window.coreCalls)) delete window.coreCalls[name];
    });
    await page.focus(`${HOST} textarea`);
    await page.keyboard.press('End');
    await page.keyboard.type('s');
    await flush(page);
    await page.waitForTimeout(400);
    counts = await page.evaluate(() => window.coreCalls);
    assert.deepEqual(counts, { 'causal.run': 1 }, `the calls a keystroke made: ${JSON.stringify(counts)}`);
    await page.locator(figure).scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    assert.equal(
      await page.$$eval(`${figure} .head-effect`, (g) => g.length),
      0,
      'the last measurement was of the old sentence',
    );
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the encoder: choosing a word at a blank measures it there', async () => {
  const { page, errors } = await openSite(
    shared,
    `model=masked&sentence=${encodeURIComponent('the river [MASK] was muddy')}`,
  );
  const button = `${HOST} [data-figure="why-this-word"] .why-words button >> nth=0`;
  await page.waitForSelector(button, { timeout: 30000 });
  await page.focus(button);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${HOST} [data-figure="why-this-word"] .head-effect`);
  const shown = await page.$eval(`${HOST} [data-figure="why-this-word"]`, (f) => ({
    position: Number(f.dataset.position),
    heads: [...f.querySelectorAll('.head-effect')].map((g) => Number(g.dataset.delta)),
    chips: [...f.querySelectorAll('.occlusion-chips li')].map((li) => [
      li.textContent,
      li.hasAttribute('data-skipped'),
    ]),
  }));
  assert.equal(shown.position, 2);
  assert.equal(shown.heads.length, 16); // the encoder's 4 × 4
  assert.ok(shown.heads.every(Number.isFinite));
  assert.equal(shown.chips.length, 5);
  assert.deepEqual(shown.chips[2][1], true, 'the blank itself is not occluded');
  await page.screenshot({ path: `${SHOTS}/why-this-word-encoder-1440.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe-core: no violations with a head off and a word measured (${colorScheme})`, async () => {
    const { page, errors } = await openCausal(`&knockout=${HEAD.layer},${HEAD.head}`);
    await page.emulateMedia({ colorScheme });
    await page.hover(`${HOST} [data-figure="predictions"] li[data-word] >> nth=0`);
    await page.locator(`${HOST} [data-figure="why-this-word"]`).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${HOST} [data-figure="why-this-word"] .occlusion-chips li`);
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        count: v.nodes.length,
        target: v.nodes[0]?.target,
        html: v.nodes[0]?.html,
      })),
    );
    assert.deepEqual(violations, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
