// An embedded views="learn" element with autoplay trains on its own, without the sentence box, in headless
// Chromium: in a page, and as the single file alone in its folder (its training worker inline).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, serveDist, serveFolder } from './browser.js';
import { until } from './learn-readout.js';

const OUTPUT = 'test-output';
let server, browser;
before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  [server, browser] = await Promise.all([serveDist(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('embedded: views="learn" task="induction" autoplay trains on its own, without the sentence box; the single file too', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}embed.html`);
  await page.evaluate(() => {
    document.body.innerHTML =
      '<h1>Watch induction heads form</h1><attention-explorer id="learn" views="learn" task="induction" autoplay></attention-explorer>';
  });
  const running = await until(page, (s) => s.running && s.step > 20, 20, '#learn');
  assert.ok(running.seconds !== null, `it trains by itself (step ${running.state?.step})`);
  const layout = await page.$eval('#learn', (el) => ({
    tabs: el.shadowRoot.querySelector('.toc').checkVisibility(),
    sentence: el.shadowRoot.querySelector('.sentence-label').checkVisibility(),
    task: el.shadowRoot.querySelector('select[name="trainTask"]').value,
  }));
  assert.deepEqual(layout, { tabs: false, sentence: false, task: 'induction' });
  await page.screenshot({ path: `${OUTPUT}/learn-embedded.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();

  // The single file carries its worker inline (dist/single: no other file beside it).
  const folder = mkdtempSync(join(tmpdir(), 'ae-single-learn-'));
  copyFileSync('dist/single/attention-explorer.js', join(folder, 'attention-explorer.js'));
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>single file</title>' +
      '<link rel="icon" href="data:,"><script type="module" src="attention-explorer.js"></script></head>' +
      '<body><attention-explorer views="learn" task="previous-token" autoplay></attention-explorer></body></html>',
  );
  const alone = await serveFolder(folder);
  try {
    const single = await browser.context.newPage();
    const singleErrors = [];
    single.on('pageerror', (error) => singleErrors.push(error.message));
    await single.goto(alone.url);
    const trained = await until(single, (s) => s.accuracy >= 0.9, 30);
    assert.ok(trained.seconds !== null, `the single file trains previous-token to ${trained.state?.accuracy}`);
    assert.deepEqual(singleErrors, []);
    await single.close();
  } finally {
    await alone.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
