// npm run bench (page part): what a learner feels. In headless Chromium on the built site (dist/): keystroke → next
// paint (Event Timing) at 8, 32 and 128 tokens with the designed heads and the trained decoder and encoder, beside a bare
// textarea typed the same way in the same run (median and p95); time to first interactive render from a cold cache;
// per keystroke, the time from the input event to the end of the update (run at once) and layout of the visible
// figures (100 keystrokes at 8, 32, 128, 256 tokens, median and p95); sizes of what is loaded; JS and wasm heap
// before and after 10,000 updates. `node scripts/bench/latency.mjs --paint-only` measures keystroke → next paint alone.
import { readdirSync, readFileSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launchBrowser, serveDist } from '../../tests/e2e/browser.js';
import { chooseModel, keystrokeToPaint, quantile } from './keystrokes.js';

function assetSizes() {
  return Object.fromEntries(
    readdirSync('dist/assets').map((name) => {
      const bytes = readFileSync(`dist/assets/${name}`);
      return [
        name.replace(/-[\w-]{8}(\.\w+)$/, '$1'),
        { bytes: statSync(`dist/assets/${name}`).size, gzip: gzipSync(bytes).length },
      ];
    }),
  );
}

const LENGTHS = [8, 32, 128];
// --paint-only: only keystroke → next paint (every model and the bare textarea), for a quick before/after.
const paintOnly = process.argv.includes('--paint-only');
const server = await serveDist();
const results = { sizes: assetSizes(), keystrokes: {} };
const browser = await launchBrowser();
try {
  await measure();
} finally {
  await browser.close();
  await server.close();
}

async function measure() {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]');
  results.firstRenderMs = await page.evaluate(() => performance.now());
  results.kernels = await page.evaluate(() => document.querySelector('attention-explorer').core.kernels);
  // The decoder loads on its own when the page is first idle (trained-models.js preload): when it is ready, counted from
  // the first figure (the core loaded and drawn).
  results.modelAfterCoreMs = await page.evaluate(async (firstRender) => {
    await document.querySelector('attention-explorer').core.languageModel('causal');
    return performance.now() - firstRender;
  }, results.firstRenderMs);

  // Keystroke → next paint at each length with the designed heads, with the trained decoder and encoder, and in a bare
  // textarea typed the same way (the floor: what the browser costs a keystroke anyway), one after the other, so that
  // they share the machine's load of the moment. The decoder is loaded by now (above).
  const bare = await browser.context.newPage();
  await bare.setContent(
    '<!doctype html><html lang="en"><body><textarea aria-label="text" rows="1" cols="80"></textarea></body></html>',
  );
  results.paint = {};
  results.trained = { paint: {} };
  results.encoder = { paint: {} };
  results.bare = {};
  for (const tokens of LENGTHS) {
    await chooseModel(page, 'designed');
    Object.assign(results.paint, await keystrokeToPaint(page, [tokens]));
    const { readyMs } = await chooseModel(page, 'causal');
    results.trained.readyMs ??= readyMs; // the first time it is chosen: how long until it is drawn
    results.trained.paint[tokens] = (await keystrokeToPaint(page, [tokens]))[tokens];
    await chooseModel(page, 'masked');
    results.encoder.paint[tokens] = (await keystrokeToPaint(page, [tokens]))[tokens];
    results.bare[tokens] = (await keystrokeToPaint(bare, [tokens], 'textarea'))[tokens];
  }
  await bare.close();
  await chooseModel(page, 'designed');
  if (paintOnly) return;
  // The same while the Learn chapter trains at full speed in its worker (the learner types in the
  // Attention chapter meanwhile): the page only receives the worker's snapshots.
  await page.evaluate(() => document.querySelector('attention-explorer').change({ chapter: 'learn', trainSpeed: 0 }));
  await page.waitForSelector('attention-explorer .learn-readout[data-step]');
  await page.click('attention-explorer [data-action="train"]');
  await page.evaluate(() => document.querySelector('attention-explorer').change({ chapter: 'attention' }));
  const stepsBefore = await page.evaluate(() =>
    Number(document.querySelector('attention-explorer').shadowRoot.querySelector('.learn-readout').dataset.step),
  );
  results.paintWhileTraining = (await keystrokeToPaint(page, [32]))[32];
  await page.evaluate(() => document.querySelector('attention-explorer').change({ chapter: 'learn' }));
  await page.waitForTimeout(300);
  results.paintWhileTraining.steps =
    (await page.evaluate(() =>
      Number(document.querySelector('attention-explorer').shadowRoot.querySelector('.learn-readout').dataset.step),
    )) - stepsBefore;
  await page.click('attention-explorer [data-action="train"]');
  await page.evaluate(() => document.querySelector('attention-explorer').change({ chapter: 'attention' }));
  for (const tokens of [8, 32, 128, 256]) {
    results.keystrokes[tokens] = await page.evaluate(async (tokens) => {
      const box = document.querySelector('attention-explorer').shadowRoot.querySelector('textarea');
      const words = 'the river bank was muddy after the storm'.split(' ');
      const base = Array.from({ length: tokens - 1 }, (_, i) => words[i % words.length]).join(' ');
      const times = [];
      for (let k = 0; k < 100; k++) {
        box.value = `${base} ${k % 2 ? 'clouds' : 'cloud'}`;
        const t0 = performance.now();
        box.dispatchEvent(new Event('input')); // the explorer schedules its update …
        box.getRootNode().host.getTrace(); // … which runs now
        void document.body.offsetHeight; // … then style and layout of what changed
        times.push(performance.now() - t0);
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))); // let it paint
      }
      return times;
    }, tokens);
  }
  const cdp = await page.context().newCDPSession(page);
  const heaps = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return page.evaluate(() => ({
      js: performance.memory.usedJSHeapSize,
      wasm: document.querySelector('attention-explorer').core.heapInUse(),
    }));
  };
  const before = await heaps();
  await page.evaluate(() => {
    const el = document.querySelector('attention-explorer');
    for (let k = 0; k < 10000; k++) el.change({ sentence: `the river bank was muddy after storm ${k % 97}` });
  });
  results.heap = { before, after: await heaps() };
}

const ms = (value) => (value < 16 ? '< 16 ms' : `${value.toFixed(0)} ms`);
const GOAL_ABOVE_BARE = 8; // p95 at most this many ms above the bare textarea's, at every length, for each model
console.log(
  'keystroke → next paint (Event Timing, the measure of INP; durations are reported in steps of 8 ms and only from ' +
    '16 ms up: "< 16 ms" is below that), beside a bare textarea typed the same way in the same run:',
);
for (const tokens of LENGTHS) {
  const bare = results.bare[tokens];
  for (const [name, paint] of [
    ['designed heads', results.paint[tokens]],
    ['trained decoder', results.trained.paint[tokens]],
    ['trained encoder', results.encoder.paint[tokens]],
  ]) {
    const { median, p95, presses, reported, figures, frame } = paint;
    // The goal is judged on the millisecond measure: Event Timing cannot tell 8 ms apart below 16 ms.
    const above = frame.p95 - bare.frame.p95;
    console.log(
      `  ${String(tokens).padStart(3)} tokens, ${name.padEnd(15)}: median ${ms(median).padStart(7)}, p95 ${ms(p95).padStart(7)} ` +
        `(${reported.length} of ${presses} presses ≥ 16 ms); bare textarea: median ${ms(bare.median)}, p95 ${ms(bare.p95)}`,
    );
    console.log(
      `      key → after the next frame: median ${frame.median.toFixed(1)} ms, p95 ${frame.p95.toFixed(1)} ms; bare ` +
        `textarea ${bare.frame.median.toFixed(1)} / ${bare.frame.p95.toFixed(1)} ms; p95 ${above.toFixed(1)} ms above the ` +
        `bare one's (goal ≤ ${GOAL_ABOVE_BARE}: ${above <= GOAL_ABOVE_BARE ? 'met' : 'NOT met'})`,
    );
    console.log(
      `      … to the frame after the figures are drawn (they follow the typed character by a frame): median ` +
        `${figures.median.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms (${figures.count} updates)`,
    );
  }
}
console.log(`first screen: ${results.paint.nodes} shadow DOM nodes (goal ≤ 1,500)`);
if (!paintOnly) printTheRest();
mkdirSync('bench-output', { recursive: true });
writeFileSync('bench-output/bench-page.json', JSON.stringify(results, null, 2));

function printTheRest() {
  console.log(
    `first interactive render (cold cache, localhost): ${results.firstRenderMs.toFixed(0)} ms; the page runs the ${results.kernels} build`,
  );
  for (const [name, { bytes, gzip }] of Object.entries(results.sizes))
    console.log(
      `${name.padEnd(28)} ${(bytes / 1024).toFixed(0).padStart(6)} KB, gzip ${(gzip / 1024).toFixed(0).padStart(6)} KB`,
    );
  for (const [tokens, times] of Object.entries(results.keystrokes)) {
    console.log(
      `keystroke at ${String(tokens).padStart(3)} tokens (input to style and layout done, run at once): ` +
        `median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`,
    );
  }
  console.log(
    `trained decoder: loaded ${results.modelAfterCoreMs.toFixed(0)} ms after the first figure (fetched, checked and packed while the page ` +
      `is idle; goal ≤ 300 ms after the core); drawn ${results.trained.readyMs.toFixed(0)} ms after it is chosen`,
  );
  const { median, p95, presses, reported, steps } = results.paintWhileTraining;
  console.log(
    `keystroke → next paint at 32 tokens while the Learn chapter trains at full speed (${steps} steps meanwhile): ` +
      `median ${ms(median)}, p95 ${ms(p95)} (${reported.length} of ${presses} presses ≥ 16 ms; goal p95 ≤ 33 ms)`,
  );
  const { before, after } = results.heap;
  console.log(
    `10,000 updates: JS heap ${(before.js / 1e6).toFixed(1)} → ${(after.js / 1e6).toFixed(1)} MB, wasm heap in use ${before.wasm} → ${after.wasm} bytes`,
  );
}
