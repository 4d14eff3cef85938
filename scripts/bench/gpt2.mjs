// npm run bench (GPT-2 part): a checkpoint of GPT-2 small's exact shapes (124 M parameters, random weights in Hugging
// Face's layout, float32: 498 MB; scripts/gpt2-checkpoint.mjs) hosted beside the built site, in headless Chromium:
// how long it takes to load with its progress (the page's checkpoint= link), the wasm heap it takes against its weights
// in float32 (goal ≤ 1.2×), and keystroke → next paint at 16 tokens (goal ≤ 100 ms) beside a bare textarea typed the
// same way in the same run; and in Node, one run() at 16 tokens (the core's own time, for reference).
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createAttentionCore } from '../../web/src/core/index.js';
import { basename, dirname, join } from 'node:path';
import { preview } from 'vite';
import { launchBrowser } from '../../tests/e2e/browser.js';
import { gpt2Checkpoint } from '../gpt2-checkpoint.mjs';
import { keystrokeToPaint, quantile } from './keystrokes.js';

const CHECKPOINT = 'models/gpt2/model.safetensors';
const TOKENS = 16;
const GOAL_PAINT_MS = 100;
const GOAL_MEMORY = 1.2;

const bytes = gpt2Checkpoint({ size: 'small', dtype: 'F32', seed: 1 });
const results = { fileBytes: bytes.length };

// The core alone, in Node: run() at 16 tokens, the last position's output layer (what a keystroke asks).
{
  const core = await createAttentionCore();
  const model = await core.languageModel({ bytes, architecture: 'gpt2' });
  const text = 'the river bank was muddy after the storm and the river ran high over the old';
  const times = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    model.run(text, { positions: [-1], activations: { layer: 0, head: 0 } });
    times.push(performance.now() - t0);
  }
  results.node = { tokens: model.tokenize(text).length, median: quantile(times, 0.5), kernels: core.kernels };
  model.release();
}

const folder = mkdtempSync(join(tmpdir(), 'ae-bench-gpt2-'));
cpSync('dist', folder, { recursive: true });
mkdirSync(join(folder, 'models/gpt2'), { recursive: true });
writeFileSync(join(folder, CHECKPOINT), bytes);
writeFileSync(join(folder, 'models/gpt2/config.json'), JSON.stringify({ model_type: 'gpt2', n_head: 12 }));
// Served as a static host serves a binary file: application/octet-stream, as it is. (Vite's preview server gzips a
// type it does not know on the fly, 11 s for this file: docs/language-models.md says to serve checkpoints as octets.)
const octetStream = {
  name: 'octet-stream',
  configurePreviewServer(server) {
    server.middlewares.use((request, response, next) => {
      if (request.url.endsWith('.safetensors')) response.setHeader('Content-Type', 'application/octet-stream');
      next();
    });
  },
};
const previewed = await preview({
  root: dirname(folder),
  logLevel: 'warn',
  configFile: false,
  plugins: [octetStream],
  build: { outDir: basename(folder) },
  preview: { host: '127.0.0.1', port: 4173, strictPort: false },
});
const server = { url: previewed.resolvedUrls.local[0], close: () => previewed.close() };
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]');
  results.kernels = await page.evaluate(() => document.querySelector('attention-explorer').core.kernels);
  const heapBefore = await page.evaluate(() => document.querySelector('attention-explorer').core.heapInUse());
  // The load as a learner sees it: chosen, then the figures' progress until the checkpoint's are drawn.
  results.load = await page.evaluate(
    (checkpoint) =>
      new Promise((resolve) => {
        const el = document.querySelector('attention-explorer');
        const start = performance.now();
        const seen = new Set();
        let fetched = null; // when the bytes had all come and the weights began to go into the core
        el.change({ model: 'gpt2', checkpoint });
        const wait = () => {
          const run = el.getRun();
          if (run?.progress) seen.add(`${run.progress.stage} ${run.progress.loaded}`);
          if (run?.progress?.stage === 'load') fetched ??= performance.now() - start;
          if (run?.model === 'gpt2' && run.status !== 'loading') {
            const ms = performance.now() - start;
            resolve({ ms, fetchMs: fetched, status: run.status, error: run.error, progressShown: seen.size });
          } else requestAnimationFrame(wait);
        };
        wait();
      }),
    CHECKPOINT,
  );
  const heapAfter = await page.evaluate(() => document.querySelector('attention-explorer').core.heapInUse());
  const parameters = await page.evaluate(() => document.querySelector('attention-explorer').getRun().config.parameters);
  results.memory = { heapBefore, heapAfter, weightsFloat32: 4 * parameters };
  const bare = await browser.context.newPage();
  await bare.setContent(
    '<!doctype html><html lang="en"><body><textarea aria-label="text" rows="1" cols="80"></textarea></body></html>',
  );
  results.paint = (await keystrokeToPaint(page, [TOKENS]))[TOKENS];
  results.bare = (await keystrokeToPaint(bare, [TOKENS], 'textarea'))[TOKENS];
} finally {
  await browser.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}

const mb = (n) => `${(n / 1e6).toFixed(0)} MB`;
const { load, memory, paint, bare, node } = results;
console.log(`GPT-2 small's shapes (124 M parameters), a float32 checkpoint of ${mb(results.fileBytes)}:`);
console.log(
  `  core alone (Node, ${node.kernels}): run() at ${node.tokens} tokens, the next token only: median ${node.median.toFixed(0)} ms`,
);
console.log(
  `  page (${results.kernels}): loaded in ${(load.ms / 1000).toFixed(1)} s (${load.status}${load.error ? `: ${load.error}` : ''}; ` +
    `the bytes fetched from the local server after ${((load.fetchMs ?? NaN) / 1000).toFixed(1)} s, then into the core), ` +
    `its progress drawn ${load.progressShown} times`,
);
const ratio = (memory.heapAfter - memory.heapBefore) / memory.weightsFloat32;
console.log(
  `  wasm heap: ${mb(memory.heapBefore)} → ${mb(memory.heapAfter)} for ${mb(memory.weightsFloat32)} of weights in float32: ` +
    `${ratio.toFixed(3)}× (goal ≤ ${GOAL_MEMORY}: ${ratio <= GOAL_MEMORY ? 'met' : 'NOT met'})`,
);
console.log(
  `  keystroke → next paint at ${TOKENS} tokens (Event Timing): median ${paint.median} ms, p95 ${paint.p95} ms ` +
    `(${paint.reported.length} of ${paint.presses} presses ≥ 16 ms); figures drawn: median ${paint.figures.median.toFixed(0)} ms, ` +
    `p95 ${paint.figures.p95.toFixed(0)} ms; bare textarea median ${bare.median} ms, p95 ${bare.p95} ms ` +
    `(goal median ≤ ${GOAL_PAINT_MS} ms: ${paint.median <= GOAL_PAINT_MS ? 'met' : 'NOT met'})`,
);
mkdirSync('bench-output', { recursive: true });
writeFileSync('bench-output/bench-gpt2.json', JSON.stringify(results, null, 2));
