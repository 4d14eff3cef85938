// The trainer in headless Chromium, from a plain page importing dist/core: every task trains to its goal,
// and the same seed gives the same numbers as in Node for the same kernel build (simd128).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { isElementReport, launchBrowser, serveFolder } from './browser.js';

let browser, host, folder;
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ae-trainer-'));
  cpSync('dist/core', join(folder, 'core'), { recursive: true });
  writeFileSync(
    join(folder, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>trainer</title><link rel="icon" href="data:,"></head><body>
<script type="module">
  import { createAttentionCore } from './core/index.js';
  const max = (t) => Math.max(...t.data);
  const goals = {
    'previous-token': (e) => e.accuracy >= 0.95,
    induction: (e) => e.accuracy >= 0.9 && max(e.headScores.prefixMatching) >= 0.4,
    reverse: (e) => e.accuracy >= 0.95,
    sort: (e) => e.accuracy >= 0.95,
  };
  const core = await createAttentionCore();
  const tasks = {};
  for (const task of Object.keys(goals)) {
    const trainer = core.createTrainer({ task });
    const start = performance.now();
    let e;
    for (let s = 0; s < 2000; s += 25) {
      trainer.step(25);
      e = trainer.evaluate();
      if (goals[task](e)) break;
    }
    tasks[task] = { step: e.step, accuracy: e.accuracy, prefixMatching: max(e.headScores.prefixMatching), seconds: (performance.now() - start) / 1000 };
  }
  const simd = await createAttentionCore({ kernels: 'simd128' });
  const same = simd.createTrainer({ task: 'induction', seed: 7 });
  const losses = [1, 2, 3].map(() => same.step(10).loss);
  window.result = { kernels: core.kernels, tasks, losses, embedding: [...same.parameters().embedding.data.slice(0, 64)] };
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

test('every task trains to its goal in Chromium, and seed 7 gives the numbers Node gives', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  await page.goto(host.url);
  await page.waitForFunction(() => window.result, null, { timeout: 120000 });
  const result = await page.evaluate(() => window.result);
  assert.deepEqual(errors, []);
  for (const [task, r] of Object.entries(result.tasks)) {
    console.log(
      `Chromium (${result.kernels}) ${task}: step ${r.step}, accuracy ${r.accuracy.toFixed(3)}, prefix matching ${r.prefixMatching.toFixed(2)}, ${r.seconds.toFixed(2)} s with evaluations`,
    );
    assert.ok(r.accuracy >= (task === 'induction' ? 0.9 : 0.95), `${task}: ${JSON.stringify(r)}`);
  }
  assert.ok(result.tasks.induction.prefixMatching >= 0.4);
  const core = await createAttentionCore({ kernels: 'simd128' });
  const trainer = core.createTrainer({ task: 'induction', seed: 7 });
  assert.deepEqual(
    [1, 2, 3].map(() => trainer.step(10).loss),
    result.losses,
    'the same losses, bit for bit',
  );
  assert.deepEqual([...trainer.parameters().embedding.data.slice(0, 64)], result.embedding, 'the same parameters');
});
