// npm run bench (page part): what a learner feels. In headless Chromium on the built site (dist/):
// time to first interactive render from a cold cache; per keystroke, the time from the input event
// to the end of the update and layout of the visible figures (100 keystrokes at 8, 32, 128, 256
// tokens, median and p95); sizes of what is loaded; JS and wasm heap before and after 10,000 updates.
import { readdirSync, readFileSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launchBrowser, serveDist } from '../../tests/e2e/browser.js';

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

function assetSizes() {
  return Object.fromEntries(readdirSync('dist/assets').map((name) => {
    const bytes = readFileSync(`dist/assets/${name}`);
    return [name.replace(/-[\w-]{8}(\.\w+)$/, '$1'), { bytes: statSync(`dist/assets/${name}`).size, gzip: gzipSync(bytes).length }];
  }));
}

const server = await serveDist();
const results = { sizes: assetSizes(), keystrokes: {} };
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]');
  results.firstRenderMs = await page.evaluate(() => performance.now());
  results.kernels = await page.evaluate(() => document.querySelector('attention-explorer').core.kernels);

  for (const tokens of [8, 32, 128, 256]) {
    results.keystrokes[tokens] = await page.evaluate(async (tokens) => {
      const box = document.querySelector('attention-explorer').shadowRoot.querySelector('textarea');
      const words = 'the river bank was muddy after the storm'.split(' ');
      const base = Array.from({ length: tokens - 1 }, (_, i) => words[i % words.length]).join(' ');
      const times = [];
      for (let k = 0; k < 100; k++) {
        box.value = `${base} ${k % 2 ? 'clouds' : 'cloud'}`;
        const t0 = performance.now();
        box.dispatchEvent(new Event('input'));  // the explorer updates synchronously …
        void document.body.offsetHeight;        // … then style and layout of what changed
        times.push(performance.now() - t0);
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));  // let it paint
      }
      return times;
    }, tokens);
  }
  const cdp = await page.context().newCDPSession(page);
  const heaps = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return page.evaluate(() => ({ js: performance.memory.usedJSHeapSize, wasm: document.querySelector('attention-explorer').core.heapInUse() }));
  };
  const before = await heaps();
  await page.evaluate(() => {
    const el = document.querySelector('attention-explorer');
    for (let k = 0; k < 10000; k++) el.change({ sentence: `the river bank was muddy after storm ${k % 97}` });
  });
  results.heap = { before, after: await heaps() };
} finally {
  await browser.close();
  await server.close();
}

console.log(`first interactive render (cold cache, localhost): ${results.firstRenderMs.toFixed(0)} ms; the page runs the ${results.kernels} build`);
for (const [name, { bytes, gzip }] of Object.entries(results.sizes)) console.log(`${name.padEnd(28)} ${(bytes / 1024).toFixed(0).padStart(6)} KB, gzip ${(gzip / 1024).toFixed(0).padStart(6)} KB`);
for (const [tokens, times] of Object.entries(results.keystrokes)) {
  console.log(`keystroke at ${String(tokens).padStart(3)} tokens: median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`);
}
const { before, after } = results.heap;
console.log(`10,000 updates: JS heap ${(before.js / 1e6).toFixed(1)} → ${(after.js / 1e6).toFixed(1)} MB, wasm heap in use ${before.wasm} → ${after.wasm} bytes`);
mkdirSync('bench-output', { recursive: true });
writeFileSync('bench-output/bench-page.json', JSON.stringify(results, null, 2));
