// What one keystroke costs the page, counted rather than timed (timings are the bench's: scripts/bench/latency.mjs):
// the DOM nodes it creates and the canvases it redraws in full. A figure that updates in place creates no node for a
// keystroke; a figure rebuilt from scratch creates its whole subtree, and the browser lays out and paints it anew.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';

const shared = distAndBrowser();
const KEYSTROKES = 6;

/**
 * Counts, in the explorer's shadow root, the nodes added (each with its subtree) and, per canvas, the draws that cover
 * it whole (putImageData or clearRect of its full size), by the figure slot they belong to.
 */
function startCounting() {
  const root = document.querySelector('attention-explorer').shadowRoot;
  const tally = { nodes: {}, canvases: {} };
  const slotOf = (node) => (node.nodeType === 1 ? node : node.parentElement)?.closest('[data-slot]')?.dataset.slot;
  const size = (node) => 1 + [...node.childNodes].reduce((sum, child) => sum + size(child), 0);
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        const slot = slotOf(node.isConnected ? node : record.target) ?? 'outside figures';
        tally.nodes[slot] = (tally.nodes[slot] ?? 0) + size(node);
      }
  }).observe(root, { childList: true, subtree: true });
  const whole = (context, width, height) => {
    const { canvas } = context;
    if (canvas.getRootNode() !== root || width < canvas.width || height < canvas.height) return;
    const slot = slotOf(canvas) ?? 'outside figures';
    tally.canvases[slot] = (tally.canvases[slot] ?? 0) + 1;
  };
  const prototype = CanvasRenderingContext2D.prototype;
  const { putImageData, clearRect } = prototype;
  prototype.putImageData = function (image, ...rest) {
    whole(this, image.width, image.height);
    return putImageData.call(this, image, ...rest);
  };
  prototype.clearRect = function (x, y, width, height) {
    whole(this, width, height);
    return clearRect.call(this, x, y, width, height);
  };
  window.keystrokeTally = tally;
}

/** Types KEYSTROKES keys at the sentence's end (a letter, then Backspace), each drawn; the tally of each. */
async function countKeystrokes(page) {
  await page.evaluate(startCounting);
  await page.focus('attention-explorer textarea');
  await page.keyboard.press('End');
  const tallies = [];
  for (let k = 0; k < KEYSTROKES; k++) {
    await page.evaluate(() => Object.assign(window.keystrokeTally, { nodes: {}, canvases: {} }));
    await page.keyboard.press(k % 2 ? 'Backspace' : 's');
    await flush(page);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    tallies.push(await page.evaluate(() => structuredClone(window.keystrokeTally)));
  }
  return tallies;
}

const total = (counts) => Object.values(counts).reduce((sum, n) => sum + n, 0);

for (const model of ['designed', 'causal', 'masked']) {
  test(`a keystroke on the first screen (${model}) creates no DOM node and redraws each canvas at most once`, async () => {
    const { page, errors } = await openSite(shared, model === 'designed' ? '' : `model=${model}`);
    await page.waitForSelector('attention-explorer [data-figure="attention-weights"]');
    const heads = await page.$eval('attention-explorer', (el) => el.getRun().heads.length);
    const tallies = await countKeystrokes(page);
    for (const { nodes, canvases } of tallies) {
      // Every figure on the first screen updates in place: the cells, bars and labels change, no element is made.
      assert.deepEqual(nodes, {}, `nodes created by one keystroke: ${JSON.stringify(nodes)}`);
      // The heads' small multiples (all in one canvas: views/cell-atlas.js), the selected head's weights, the mix's
      // rows and its sum: each canvas drawn once, or not at all.
      assert.ok((canvases.heads ?? 0) <= 1, `canvases of the ${heads} heads redrawn: ${canvases.heads}`);
      assert.ok((canvases.attention ?? 0) <= 1 && (canvases.mix ?? 0) <= 2, JSON.stringify(canvases));
      assert.ok(total(canvases) <= 4, JSON.stringify(canvases));
    }
    assert.ok(
      tallies.some(({ canvases }) => canvases.attention === 1 && canvases.heads === 1),
      'the weights and the heads were redrawn: the counting sees the draws',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const model of ['designed', 'causal']) {
  test(`a keystroke on Inside one head (${model}) updates the stepper in place`, async () => {
    const { page, errors } = await openSite(shared, model === 'designed' ? '' : `model=${model}`);
    await page.click('attention-explorer [data-chapter-tab="inside-head"]');
    await page.waitForSelector('attention-explorer .slot-pipeline:not([data-stale]) [data-figure="pipeline"]');
    const tallies = await countKeystrokes(page);
    for (const { nodes, canvases } of tallies) {
      // The step's matrix, its neighbours' thumbnails, the titles and labels are rewritten; nothing is rebuilt.
      assert.deepEqual(nodes, {}, `nodes created by one keystroke: ${JSON.stringify(nodes)}`);
      assert.ok((canvases.pipeline ?? 0) <= 3, `stepper canvases redrawn: ${JSON.stringify(canvases)}`);
    }
    assert.ok(
      tallies.some(({ canvases }) => canvases.pipeline > 0),
      'the step was redrawn: the counting sees it',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// Every style and layout pass of a keystroke walks the shadow DOM: the demo's first screen holds at most this many nodes
// (closed chapters' figures are not built, their formulas not typeset until seen: views/formulas.js).
const FIRST_SCREEN_NODES = 1500;

test(`the demo's first screen holds at most ${FIRST_SCREEN_NODES} shadow DOM nodes; a formula is typeset once seen`, async () => {
  const { page, errors } = await openSite(shared);
  await page.waitForSelector('attention-explorer [data-figure="attention-weights"]');
  await flush(page);
  const count = () =>
    page.$eval('attention-explorer', (el) => {
      const size = (node) => 1 + [...node.childNodes].reduce((sum, child) => sum + size(child), 0);
      return size(el.shadowRoot);
    });
  const nodes = await count();
  assert.ok(nodes <= FIRST_SCREEN_NODES, `${nodes} nodes on the first screen`);
  const formula = 'attention-explorer [data-formula="positional"]';
  assert.equal(await page.$eval(formula, (f) => f.childElementCount), 0, 'a closed chapter: not typeset');
  await page.click('attention-explorer [data-chapter-tab="positions"]');
  await page.waitForSelector(`${formula} math`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a keystroke on Positions updates its figures in place and leaves the encoding curves alone', async () => {
  const { page, errors } = await openSite(shared);
  await page.click('attention-explorer [data-chapter-tab="positions"]');
  await page.waitForSelector('attention-explorer .slot-encodingCurves:not([data-stale]) > *');
  const tallies = await countKeystrokes(page);
  for (const { nodes } of tallies) {
    // P and the bits are updated in place (their row labels name the words), the rotation's word menus too; the
    // encoding's curves read the lab's data alone, which a letter added to the last word does not change.
    assert.deepEqual(nodes, {}, `nodes created by one keystroke: ${JSON.stringify(nodes)}`);
  }
  assert.ok(
    tallies.some(({ canvases }) => canvases.labEncoding === 1),
    'P was redrawn: the counting sees the draws',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a keystroke on Other lenses updates the 2-D projection in place', async () => {
  const { page, errors } = await openSite(shared, 'chapter=lenses');
  await page.waitForSelector('attention-explorer .slot-projection:not([data-stale]) [data-figure="projection"]');
  const tallies = await countKeystrokes(page);
  // The words' points, arrows and labels are joined by position and rewritten: a letter makes none of them anew.
  for (const { nodes } of tallies)
    assert.deepEqual(nodes, {}, `nodes created by one keystroke: ${JSON.stringify(nodes)}`);
  const last = await page.$eval('attention-explorer', (el) =>
    [...el.shadowRoot.querySelectorAll('[data-figure="projection"] .moved-token')].map((g) => g.dataset.token).at(-1),
  );
  assert.equal(last, 'storm', 'the last word, typed and deleted again, is drawn: the counting saw the redraws');
  assert.deepEqual(errors, []);
  await page.close();
});
