// The attention heatmap without a mouse: keyboard cell cursor, its announced text, the table of values
// and the export data, checked against the trace in headless Chromium. Only Playwright locators reach
// inside the element (they pierce its shadow root); the trace comes from the host's getTrace().
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rgb } from 'd3-color';
import { format } from 'd3-format';
import { interpolateCividis } from 'd3-scale-chromatic';
import { openExplorer } from './browser.js';

const weightText = format('.4f'); // as attention-heatmap.js's tooltip
const tableText = format('.3g'); // as heatmap.js's table of values
const HEAD = 2; // a head other than the default 0, so the wrong head would show

let server, browser, page, consoleErrors;
const figure = () => page.locator('[data-figure="attention-weights"]');
const canvas = () => figure().locator('canvas');
const tooltip = () => figure().locator('.tooltip');

before(async () => {
  ({ server, browser, page, consoleErrors } = await openExplorer());
  await page.goto(server.url);
  await figure().waitFor({ timeout: 20000 });
  await change({ numHeads: 4 });
  await page.locator(`[data-figure="heads"] .head-thumb[data-head="${HEAD}"]`).click();
  await figure()
    .filter({ hasText: `L1 H${HEAD + 1} (` })
    .waitFor();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Changes the explorer's state and waits until the attention heatmap is drawn from it. */
async function change(partial) {
  await page.$eval('attention-explorer', (el, p) => el.change(p), partial);
  await page.locator('.slot-attention').scrollIntoViewIfNeeded();
  await page.locator('.slot-attention:not([data-stale]) [data-figure="attention-weights"]').waitFor();
}

/** The selected head (from the head grid) and its weights, [n, n] row-major, from the trace. */
async function selected() {
  const head = Number(await page.locator('[data-figure="heads"] .head-thumb.selected').getAttribute('data-head'));
  const trace = await page.evaluate((h) => {
    const t = document.querySelector('attention-explorer').getTrace();
    return { tokens: t.tokens.map((token) => token.text), weights: Array.from(t.heads[h].weights.data) };
  }, head);
  return { head, n: trace.tokens.length, ...trace };
}

/** The tooltip's text for cell (i, j), as attention-heatmap.js describes an unmasked cell. */
function described({ tokens, weights, n }, i, j) {
  return `query "${tokens[i]}" (${i}) → key "${tokens[j]}" (${j}): weight ${weightText(weights[i * n + j])};`;
}

async function openTable() {
  await figure().locator('.data-table summary').click();
  const table = figure().locator('.data-table table');
  await table.waitFor();
  return table.evaluate((t) => ({
    caption: t.caption.textContent,
    columns: [...t.tHead.rows[0].cells].map((c) => [c.scope, c.textContent]),
    rows: [...t.tBodies[0].rows].map((r) => [r.cells[0].scope, r.cells[0].textContent]),
    cells: [...t.tBodies[0].rows].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)),
  }));
}

test('the canvas is a focusable image labelled by the caption', async () => {
  const caption = await figure().locator('figcaption').textContent();
  assert.equal(await canvas().getAttribute('tabindex'), '0');
  assert.equal(await canvas().getAttribute('role'), 'img');
  assert.equal(await canvas().getAttribute('aria-roledescription'), 'heatmap');
  assert.equal(await canvas().getAttribute('aria-label'), `${caption} — arrow keys move between cells`);
});

test('keys move the current cell; tooltip, outline and live region follow; Escape and blur hide', async () => {
  const trace = await selected();
  assert.equal(trace.head, HEAD);
  const { n } = trace;
  const live = figure().locator('.heatmap-plot [role="status"]');
  const cellPx = (await canvas().boundingBox()).width / n;
  await canvas().focus();
  assert.ok((await tooltip().textContent()).startsWith(described(trace, 0, 0)), 'first focus starts at (0, 0)');
  const scrollY = await page.evaluate(() => window.scrollY);

  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
  const text = await tooltip().textContent();
  assert.ok(text.startsWith(described(trace, 1, 2)), `got: ${text}`);
  assert.ok(text.includes(weightText(trace.weights[n + 2])));
  assert.equal(await live.textContent(), text, 'the live region says what the tooltip shows');
  const outline = figure().locator('.hover-outline');
  assert.equal(await outline.getAttribute('visibility'), 'visible');
  assert.equal(Number(await outline.getAttribute('x')), 2 * cellPx);
  assert.equal(Number(await outline.getAttribute('y')), 1 * cellPx);

  const moves = [
    ['End', 1, n - 1],
    ['PageDown', n - 1, n - 1],
    ['Home', n - 1, 0],
    ['PageUp', 0, 0],
    ['ArrowLeft', 0, 0],
    ['ArrowUp', 0, 0],
  ];
  for (const [key, i, j] of moves) {
    await page.keyboard.press(key);
    assert.ok((await tooltip().textContent()).startsWith(described(trace, i, j)), `${key} → (${i}, ${j})`);
  }
  assert.equal(await page.evaluate(() => window.scrollY), scrollY, 'handled keys do not scroll the page');

  await page.keyboard.press('Escape');
  assert.ok(await tooltip().isHidden());
  assert.equal(await live.textContent(), '');
  assert.equal(await outline.getAttribute('visibility'), 'hidden');
  await page.keyboard.press('ArrowDown');
  assert.ok((await tooltip().textContent()).startsWith(described(trace, 1, 0)), 'keys resume from the last cell');
  await canvas().evaluate((c) => c.blur());
  assert.ok(await tooltip().isHidden());

  await canvas().hover({ position: { x: 1.5 * cellPx, y: 3.5 * cellPx } });
  assert.ok((await tooltip().textContent()).startsWith(described(trace, 3, 1)), 'hover shows its cell');
  await canvas().click({ position: { x: 1.5 * cellPx, y: 3.5 * cellPx } });
  await page.keyboard.press('ArrowRight');
  assert.ok((await tooltip().textContent()).startsWith(described(trace, 3, 2)), 'keys continue from the hovered cell');
  await page.keyboard.press('Escape');
});

test('the table of values is built when opened: seqLen × seqLen cells, 3 significant digits', async () => {
  const trace = await selected();
  const { n, tokens, weights } = trace;
  assert.equal(await figure().locator('.data-table table').count(), 0, 'no table before it is opened');
  const table = await openTable();
  assert.equal(table.caption, await figure().locator('figcaption').textContent());
  assert.deepEqual(table.columns, [['col', 'query ↓'], ...tokens.map((t) => ['col', t])]);
  assert.deepEqual(
    table.rows,
    tokens.map((t) => ['row', t]),
  );
  assert.equal(table.cells.length, n);
  for (const row of table.cells) assert.equal(row.length, n);
  assert.equal(table.cells[1][2], tableText(weights[n + 2]));
  assert.deepEqual(
    table.cells,
    tokens.map((_, i) => tokens.map((__, j) => tableText(weights[i * n + j]))),
  );
  assert.equal(await figure().locator('.data-table-note').count(), 0, 'not cut');
});

test('exportData: the weights as given; with a causal mask, masked cells are 1 and the table says "masked"', async () => {
  await change({ mask: 'causal' });
  const { n, tokens, weights } = await selected();
  const data = await figure().evaluate((f) => ({
    ...f.exportData,
    values: Array.from(f.exportData.values),
    masked: Array.from(f.exportData.masked),
  }));
  assert.equal(data.name, 'attention-weights');
  assert.equal(data.caption, await figure().locator('figcaption').textContent());
  assert.deepEqual(data.shape, [n, n]);
  assert.deepEqual([data.rowTitle, data.colTitle], ['query ↓', 'key (attended to) →']);
  assert.deepEqual(data.rowLabels, tokens);
  assert.deepEqual(data.colLabels, tokens);
  assert.deepEqual(data.values, weights);
  assert.deepEqual(
    data.masked,
    weights.map((_, k) => (k % n > Math.floor(k / n) ? 1 : 0)),
  );
  const table = await openTable();
  assert.equal(table.cells[0][1], 'masked');
  assert.equal(table.cells[1][0], tableText(weights[n]));
  await change({ mask: 'bidirectional' });
  assert.deepEqual(
    await figure().evaluate((f) => [...new Set(f.exportData.masked)]),
    [0],
    'bidirectional: nothing masked',
  );
});

test('a 150-token sentence: the table shows the first 100 × 100 and says so', async () => {
  await change({ sentence: 'word '.repeat(150) });
  const { n, weights } = await selected();
  assert.equal(n, 150);
  const table = await openTable();
  assert.equal(table.cells.length, 100);
  for (const row of table.cells) assert.equal(row.length, 100);
  assert.equal(table.columns.length, 101);
  assert.equal(table.cells[99][99], tableText(weights[99 * n + 99]));
  assert.equal(
    await figure().locator('.data-table-note').textContent(),
    'Showing the first 100 of 150 rows and the first 100 of 150 columns; download the CSV for all.',
  );
  assert.deepEqual(await figure().evaluate((f) => [f.exportData.shape, f.exportData.values.length]), [
    [150, 150],
    150 * 150,
  ]);
  await change({ sentence: 'The river bank was muddy after the storm' });
});

test('colorMap "cividis": the canvas pixels and the legend use d3\'s cividis', async () => {
  await change({ colorMap: 'cividis' });
  const { n, weights } = await selected();
  const pixel = await canvas().evaluate((c) => Array.from(c.getContext('2d').getImageData(2, 1, 1, 1).data));
  const expected = rgb(interpolateCividis(Math.round(weights[n + 2] * 255) / 255)); // heatmap.js's 256-entry table
  assert.deepEqual(pixel, [expected.r, expected.g, expected.b, 255]);
  const stops = await figure()
    .locator('.legend stop')
    .evaluateAll((all) => all.map((s) => s.getAttribute('stop-color')));
  assert.deepEqual([stops[0], stops.at(-1)], [interpolateCividis(0), interpolateCividis(1)]);
  await change({ colorMap: 'viridis' });
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
