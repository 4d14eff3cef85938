// The demo page end to end in headless Chromium: type sentences, read the figures back.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { launchBrowser, serveDist } from './browser.js';

const OUTPUT = 'test-output';
let server, browser, page;
const consoleErrors = [];
const foreignRequests = [];

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await serveDist();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(server.url).origin) foreignRequests.push(request.url());
  });
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Replaces the sentence by typing it key by key (one update per keystroke). */
async function typeSentence(text) {
  await page.fill('attention-explorer textarea', '');
  await page.focus('attention-explorer textarea');
  await page.keyboard.type(text);
}

async function readHeatmap(name) {
  return page.$eval(`[data-figure="${name}"]`, (figure) => ({
    rows: Number(figure.dataset.rows),
    cols: Number(figure.dataset.cols),
    rowLabels: [...figure.querySelectorAll('.axis-rows .tick text')].map((t) => t.textContent),
    colLabels: [...figure.querySelectorAll('.axis-cols .tick text')].map((t) => t.textContent),
  }));
}

async function tokenTexts() {
  return page.$$eval('[data-figure="tokens"] .token', (items) => items.map((item) => item.lastChild.textContent));
}

test('typing two sentences redraws the heatmaps with the tokens as labels', async () => {
  for (const [sentence, expected] of [
    ['The river bank was muddy after the storm', ['The', 'river', 'bank', 'was', 'muddy', 'after', 'the', 'storm']],
    ['She deposited money at the bank.', ['She', 'deposited', 'money', 'at', 'the', 'bank', '.']],
  ]) {
    await typeSentence(sentence);
    assert.deepEqual(await tokenTexts(), expected);
    const attention = await readHeatmap('attention-weights');
    assert.equal(attention.rows, expected.length);
    assert.equal(attention.cols, expected.length);
    assert.deepEqual(attention.rowLabels, expected);
    assert.deepEqual(attention.colLabels, expected);
    const positional = await readHeatmap('positional-encoding');
    assert.equal(positional.rows, expected.length);
    assert.equal(positional.cols, 100);
    assert.deepEqual(positional.rowLabels, expected.map((t, i) => `${i} ${t}`));
  }
  await typeSentence('The river bank was muddy after the storm');
  await page.screenshot({ path: `${OUTPUT}/river-bank.png`, fullPage: true });
});

test('the trace behind the figures: rows sum to 1, causal upper triangle exactly 0', async () => {
  await page.check('input[name="causal"]');
  const { weights, n } = await page.$eval('attention-explorer', (el) => {
    const t = el.getTrace();
    return { weights: Array.from(t.weights.data), n: t.tokens.length };
  });
  for (let i = 0; i < n; i++) {
    const row = weights.slice(i * n, (i + 1) * n);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    for (let j = i + 1; j < n; j++) assert.equal(row[j], 0, `weight (${i}, ${j})`);
  }
  await page.uncheck('input[name="causal"]');
});

test('changing the number of heads offers that many heads and redraws the chosen one', async () => {
  await page.selectOption('select[name="numHeads"]', '4');
  assert.equal(await page.$$eval('select[name="head"] option', (o) => o.length), 4);
  await page.selectOption('select[name="projection"]', 'random');
  await page.selectOption('select[name="head"]', '2');
  const caption = await page.textContent('[data-figure="attention-weights"] figcaption');
  assert.match(caption, /head 3 of 4/);
  const shape = await page.$eval('attention-explorer', (el) => el.getTrace().weights.shape);
  assert.deepEqual(shape, [4, 8, 8]);
});

test('hovering a cell shows its exact value', async () => {
  const box = await page.$eval('[data-figure="attention-weights"] canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width };
  });
  const cell = box.w / 8;
  await page.mouse.move(box.x + cell * 2.5, box.y + cell * 1.5);  // query 1 "river", key 2 "bank"
  const text = await page.textContent('[data-figure="attention-weights"] .tooltip');
  assert.match(text, /query "river" \(1\) → key "bank" \(2\): weight 0\.\d{4}/);
});

test('empty text shows an empty state; too long text is cut with a notice', async () => {
  await typeSentence('   ');
  assert.equal(await page.isVisible('.empty-state'), true);
  assert.equal(await page.isVisible('[data-figure="attention-weights"]'), false);
  await page.fill('attention-explorer textarea', 'word '.repeat(300));
  assert.match(await page.textContent('.notice'), /first 256 of 300 tokens/);
  assert.equal((await readHeatmap('attention-weights')).rows, 256);
  await typeSentence('The river bank was muddy after the storm');
});

test('an invalid setting shows its message and keeps the last good figures', async () => {
  await page.$eval('attention-explorer', (el) => el.change({ numHeads: 3 }));  // 3 does not divide 100
  assert.match(await page.textContent('attention-explorer .status'), /numHeads must divide d_model = 100, got 3/);
  assert.equal((await readHeatmap('attention-weights')).rows, 8);
  await page.$eval('attention-explorer', (el) => el.change({ numHeads: 2 }));
  assert.equal(await page.textContent('attention-explorer .status'), '');
});

test('no console errors and nothing loaded from another origin', () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
});
