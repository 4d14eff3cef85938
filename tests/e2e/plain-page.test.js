// The core from a plain page, as a course author pastes it: `import { createAttentionCore } from
// './…/index.js'` in a <script type="module"> with no bundler and no import map, the folder dist/core/
// copied into a sub-folder of a static site. Headless Chromium.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { isElementReport, launchBrowser, serveFolder } from './browser.js';

let browser, host, folder;
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ae-plain-'));
  mkdirSync(join(folder, 'course/week-1'), { recursive: true });
  cpSync('dist/core', join(folder, 'course/vendor/attention'), { recursive: true });
  writeFileSync(
    join(folder, 'course/week-1/index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>plain page</title><link rel="icon" href="data:,"></head><body><pre id="out"></pre>
<script type="module">
  import { createAttentionCore } from '../vendor/attention/index.js';
  const core = await createAttentionCore();
  const m = (data, rows, cols) => ({ data: Float32Array.from(data), shape: [rows, cols] });
  const r = core.attention({ queries: m([1, 0, 0, 1], 2, 2), keys: m([1, 0, 0, 1], 2, 2), values: m([1, 2, 3, 4], 2, 2) });
  const trace = core.explain('The river bank was muddy', { numHeads: 2 });
  window.result = { weights: [...r.weights.data], output: [...r.output.data], kernels: core.kernels, tokens: trace.tokens.map((t) => t.text),
    rowSums: [...trace.weights.data].reduce((sums, w, i) => { sums[Math.floor(i / 5)] = (sums[Math.floor(i / 5)] ?? 0) + w; return sums; }, []) };
  document.getElementById('out').textContent = JSON.stringify(window.result);
</script></body></html>`,
  );
  host = await serveFolder(folder);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await host?.close();
  rmSync(folder, { recursive: true, force: true });
});

test('dist/core/index.js is one module without bare imports', () => {
  const source = readFileSync('dist/core/index.js', 'utf8');
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
  assert.deepEqual(
    specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('/')),
    [],
    'bare specifiers',
  );
});

test('a plain <script type="module"> in a sub-folder imports the copied dist/core/ and computes', async () => {
  const page = await browser.context.newPage();
  const errors = [],
    requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(new URL(request.url())));
  await page.goto(`${host.url}course/week-1/`);
  await page.waitForFunction(() => window.result, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.result);
  // softmax([1, 0] / √2) = [e^(1/√2), 1] / (e^(1/√2) + 1); output row 0 = w·[1, 2] + (1 − w)·[3, 4]
  const w = Math.exp(Math.SQRT1_2) / (Math.exp(Math.SQRT1_2) + 1);
  assert.ok(
    Math.abs(result.weights[0] - w) < 1e-6 && Math.abs(result.output[0] - (w + 3 * (1 - w))) < 1e-5,
    JSON.stringify(result),
  );
  assert.deepEqual(result.tokens, ['The', 'river', 'bank', 'was', 'muddy']);
  for (const sum of result.rowSums)
    assert.ok(Math.abs(sum - 1) < 1e-5, `rows of both heads sum to 1: ${result.rowSums}`);
  assert.equal(result.kernels, 'relaxed-simd', 'Chromium runs the relaxed-SIMD build');
  const paths = requests.map((url) => url.pathname);
  for (const file of ['index.js', 'attn_core.relaxed.wasm', 'embeddings.bin'])
    assert.ok(paths.includes(`/course/vendor/attention/${file}`), paths.join(' '));
  assert.ok(
    requests.every((url) => url.origin === new URL(host.url).origin),
    'nothing from another origin',
  );
  assert.deepEqual(errors, []);
  await page.close();
});
