// The lenses on the demo page in headless Chromium: score functions, the simplex figure (a drag
// moves a score and every normalizer's point), cross-attention's shapes. Screenshots in test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openExplorer, showSlot as showSlotIn, oneProjectedHead } from './browser.js';

const OUTPUT = 'test-output';
let server, browser, page, consoleErrors;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  ({ server, browser, page, consoleErrors } = await openExplorer());
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
  await oneProjectedHead(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function showSlot(slot) {
  await showSlotIn(page, slot);
}

/** sparsemax of one row (Martins & Astudillo 2016): sort, threshold τ, clip. */
function sparsemax(z) {
  const sorted = [...z].sort((a, b) => b - a);
  let sum = 0,
    tau = 0;
  sorted.forEach((s, k) => {
    sum += s;
    if (1 + (k + 1) * s > sum) tau = (sum - 1) / (k + 1);
  });
  return z.map((s) => Math.max(s - tau, 0));
}

test('score functions: additive scores the heads, the pipeline and the cost table follow', async () => {
  await page.selectOption('select[name="scoreFunction"]', 'additive');
  await page.selectOption('select[name="additiveHidden"]', '8');
  const scorer = await page.$eval('attention-explorer', (el) => el.getTrace().heads[0].additiveScorer.v.shape);
  assert.deepEqual(scorer, [8]);
  await showSlot('scoreFunction');
  assert.equal(
    await page.$eval('[data-figure="score-function"] tr.current', (row) => row.dataset.scoreFunction),
    'additive',
  );
  assert.match(
    await page.textContent('[data-figure="score-function"] figcaption'),
    /\[8, 8\] scores \(d_k = 100, 8 hidden units\)/,
  );
  // additive for 8 tokens, d_k 100, 8 hidden: (8 + 8)·100·8 + 64·8 multiply-adds, 64·8 additions, 64·8 tanh.
  const total = await page.$eval('[data-figure="score-function"] tr.current td:last-child', (cell) => cell.textContent);
  assert.equal(total, (12800 + 512 + 512 + 512).toLocaleString('en-US'));
  await showSlot('pipeline');
  const titles = await page.$$eval('[data-figure="pipeline"] .step-number', (buttons) => buttons.map((b) => b.title));
  assert.ok(
    titles.some((t) => /Additive scores/.test(t)),
    titles.join(' | '),
  );
  await page.selectOption('select[name="scoreFunction"]', 'scaledDot');
  assert.equal(await page.$eval('attention-explorer', (el) => el.getTrace().heads[0].additiveScorer), null);
});

test("the simplex figure: dragging a score moves it and every normalizer's point; sliders too", async () => {
  await showSlot('simplex');
  const read = () =>
    page.$eval('[data-figure="simplex"]', (figure) => ({
      points: Object.fromEntries(
        [...figure.querySelectorAll('.normalizer-point')].map((p) => [
          p.dataset.method,
          p.dataset.weights.split(',').map(Number),
        ]),
      ),
      levels: figure.querySelectorAll('.level-sets path').length,
    }));
  const before = await read();
  assert.ok(before.levels >= 5, `${before.levels} level sets`);
  assert.deepEqual(Object.keys(before.points).sort(), ['entmax15', 'hardmax', 'softmax', 'sparsemax']);
  // Default scores [1, 0.5, −0.5]: sparsemax = [0.75, 0.25, 0] (an exact zero: the point is on an edge).
  assert.deepEqual(
    before.points.sparsemax.map((p) => Number(p.toFixed(6))),
    [0.75, 0.25, 0],
  );
  assert.deepEqual(before.points.hardmax, [1, 0, 0]);

  const handle = page.locator('[data-figure="simplex"] .score-handle[data-score-index="2"]');
  // Figures that scroll in are drawn then and may shift the layout: wait until the handle stays put for two frames
  const settled = async () => {
    await handle.scrollIntoViewIfNeeded();
    return handle.evaluate(
      (el) =>
        new Promise((done) => {
          const top = () => el.getBoundingClientRect().top;
          const first = top();
          requestAnimationFrame(() => requestAnimationFrame(() => done(top() === first)));
        }),
    );
  };
  for (let tries = 0; !(await settled()) && tries < 50; tries++);
  const box = await handle.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y - 60, { steps: 6 });
  await page.mouse.up();
  const scores = await page.$eval('attention-explorer', (el) => el.state.simplexScores);
  assert.ok(scores[2] > 0.5, `key 3's score rose to ${scores[2]}`);
  assert.deepEqual(scores.slice(0, 2), [1, 0.5]);
  const after = await read();
  assert.notDeepEqual(after.points.softmax, before.points.softmax);
  const expected = sparsemax(scores);
  after.points.sparsemax.forEach((p, k) =>
    assert.ok(Math.abs(p - expected[k]) < 1e-6, `sparsemax ${after.points.sparsemax} vs ${expected}`),
  );

  await page.fill('input[name="simplexScore0"]', '-3');
  await page.locator('input[name="simplexScore0"]').dispatchEvent('input');
  await showSlot('simplex');
  assert.ok((await read()).points.sparsemax[0] === 0, 'a low score gets exactly 0 under sparsemax');
  await page.locator('section:has(> .slot-simplex)').screenshot({ path: `${OUTPUT}/simplex.png` });
  assert.deepEqual(consoleErrors, []);
});

test('cross-attention: [t, t] causal step 1 and [t, s] step 2 follow both sentences; unknown words starred', async () => {
  await showSlot('cross');
  const shapes = () =>
    page.$$eval('.slot-cross figure', (figures) => figures.map((f) => [f.dataset.figure, ...f.exportData.shape]));
  assert.deepEqual(await shapes(), [
    ['cross-self-attention', 7, 7],
    ['cross-attention', 7, 8],
  ]);
  assert.match(await page.textContent('.slot-cross .oov-note'), /no pretrained \(English\) vector/);
  const box = page.locator('section:has(> .slot-cross) textarea');
  await box.fill('');
  await box.focus();
  await page.keyboard.type('Le chat noir');
  await showSlot('cross');
  assert.deepEqual(await shapes(), [
    ['cross-self-attention', 3, 3],
    ['cross-attention', 3, 8],
  ]);
  const causal = await page.$eval('[data-figure="cross-self-attention"]', (f) => Array.from(f.exportData.masked));
  assert.deepEqual(causal, [0, 1, 1, 0, 0, 1, 0, 0, 0]);
  await page.fill('attention-explorer textarea', 'the black cat sleeps');
  await showSlot('cross');
  assert.deepEqual(await shapes(), [
    ['cross-self-attention', 3, 3],
    ['cross-attention', 3, 4],
  ]);
  await page.locator('section:has(> .slot-cross)').screenshot({ path: `${OUTPUT}/cross-attention.png` });
  await box.fill('');
  await showSlot('cross');
  assert.match(await page.textContent('.slot-cross'), /Type a target sentence/);
  assert.deepEqual(consoleErrors, []);
});
