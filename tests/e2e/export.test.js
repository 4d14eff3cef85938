// Figure downloads in headless Chromium: SVG (parses, carries the token labels and one rectangle per
// cell), PNG (a real image), CSV and JSON (labels, shape and the trace's values).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openExplorer } from './browser.js';

let server, browser, page, consoleErrors, trace;
const SENTENCE = 'the river bank, "wide" & muddy';

before(async () => {
  ({ server, browser, page, consoleErrors } = await openExplorer());
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
  trace = await page.$eval(
    'attention-explorer',
    (el, sentence) => {
      el.change({ sentence, numHeads: 2, head: 1, projection: 'random', seed: 5 });
      const t = el.getTrace();
      return { tokens: t.tokens.map((x) => x.text), weights: [...t.heads[1].weights.data] };
    },
    SENTENCE,
  );
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a figure's Download menu (the attention heatmap's), clicks `format` and returns the file's name and bytes. */
async function download(format, name = 'attention-weights') {
  const figure = page.locator(`[data-figure="${name}"]`);
  const menu = figure.locator('.export-menu');
  if (!(await menu.evaluate((el) => el.open))) await menu.locator('summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), menu.locator(`[data-export="${format}"]`).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

test('SVG: a document that parses, with every token label and one rectangle per cell', async () => {
  const { name, bytes } = await download('svg');
  assert.equal(name, 'attention-explorer-attention-weights.svg');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      cells: doc.querySelectorAll('g > rect').length,
      width: Number(doc.documentElement.getAttribute('width')),
    };
  }, bytes.toString('utf8'));
  assert.equal(parsed.error, null);
  assert.equal(parsed.root, 'svg');
  const n = trace.tokens.length;
  for (const token of trace.tokens) assert.ok(parsed.texts.includes(token), `label ${token}`);
  assert.ok(parsed.texts.join(' ').includes('Attention weights of L1 H2'), 'the caption');
  assert.ok(parsed.cells >= n * n, `${parsed.cells} rectangles for ${n}×${n} cells`);
  assert.ok(parsed.width > 100);
});

test('PNG: a real image at twice the figure size', async () => {
  const { name, bytes } = await download('png');
  assert.equal(name, 'attention-explorer-attention-weights.png');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const width = bytes.readUInt32BE(16),
    height = bytes.readUInt32BE(20);
  assert.ok(width > 300 && height > 300, `${width}×${height}`);
});

test("CSV: token labels as header and row names, the trace's weights as values", async () => {
  const { name, bytes } = await download('csv');
  assert.equal(name, 'attention-explorer-attention-weights.csv');
  const lines = bytes.toString('utf8').trim().split('\n');
  const n = trace.tokens.length;
  assert.equal(lines.length, n + 1);
  // Labels with commas or quotes are quoted (RFC 4180).
  const quote = (t) => (/[",]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  assert.equal(lines[0], ['query ↓ \\ key (attended to) →', ...trace.tokens].map(quote).join(','));
  for (let i = 0; i < n; i++) {
    const cells = lines[i + 1]
      .slice(quote(trace.tokens[i]).length + 1)
      .split(',')
      .map(Number);
    assert.ok(lines[i + 1].startsWith(`${quote(trace.tokens[i])},`));
    cells.forEach((value, j) => assert.ok(Math.abs(value - trace.weights[i * n + j]) < 1e-8, `[${i}, ${j}]`));
  }
});

test('JSON: shape, labels and values', async () => {
  const { bytes } = await download('json');
  const data = JSON.parse(bytes.toString('utf8'));
  const n = trace.tokens.length;
  assert.deepEqual(data.shape, [n, n]);
  assert.deepEqual(data.rowLabels, trace.tokens);
  assert.deepEqual(data.colLabels, trace.tokens);
  assert.equal(data.values.length, n);
  data.values.forEach((row, i) =>
    row.forEach((value, j) => assert.ok(Math.abs(value - trace.weights[i * n + j]) < 1e-8)),
  );
  assert.equal(data.state.sentence, SENTENCE);
  assert.deepEqual(consoleErrors, []);
});

test("SVG of the heads: each head's cells as rectangles, from its own cells rather than the canvas drawing them all", async () => {
  const { bytes } = await download('svg', 'heads');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      images: doc.querySelectorAll('image').length,
      groups: [...doc.querySelectorAll('g')].map((g) => g.querySelectorAll(':scope > rect').length).filter(Boolean),
    };
  }, bytes.toString('utf8'));
  assert.equal(parsed.error, null);
  assert.equal(parsed.images, 0, 'no picture of the whole grid');
  const n = trace.tokens.length;
  assert.deepEqual(parsed.groups, [n * n, n * n], 'two heads, one rectangle per cell each');
});
