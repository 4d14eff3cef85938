// Accessibility and comfort in headless Chromium: an axe-core audit of the demo page (every figure
// drawn) and of the embedding page, in light and dark mode, and the page at phone width (375 px).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { isElementReport, launchBrowser, serveDist } from './browser.js';

const OUTPUT = 'test-output';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let server, browser;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await serveDist();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `path` with `options` (viewport, colour scheme), waits for the explorers and draws every figure. */
async function open(path, { width = 1280, colorScheme = 'light' } = {}) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width, height: 850 });
  await page.emulateMedia({ colorScheme });
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(
    () => [...document.querySelectorAll('attention-explorer')].every((el) => el.getRun()?.status === 'ready'),
    null,
    { timeout: 30000 },
  );
  // Figures off screen are drawn when they scroll in: scroll each into view.
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    for (const el of document.querySelectorAll('attention-explorer')) {
      for (const slot of el.shadowRoot.querySelectorAll('.slot')) {
        if (!slot.checkVisibility()) continue;
        slot.scrollIntoView();
        await frame();
        await frame();
      }
    }
  });
  await page.waitForFunction(() =>
    [...document.querySelectorAll('attention-explorer')].every((el) =>
      [...el.shadowRoot.querySelectorAll('.slot')].every((s) => !s.checkVisibility() || s.childElementCount > 0),
    ),
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  return { page, errors };
}

/** axe-core's violations of any impact, minor included (it walks open shadow roots). */
async function audit(page) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      count: v.nodes.length,
      target: v.nodes[0]?.target,
    })),
  );
  if (violations.length) console.log(JSON.stringify(violations));
  console.log(
    `axe: ${violations.length ? violations.map((v) => `${v.impact} ${v.id} (${v.count})`).join(', ') : 'no violations'}`,
  );
  return violations;
}

for (const colorScheme of ['light', 'dark']) {
  test(`axe-core: no violations on the demo page, every figure drawn (${colorScheme})`, async () => {
    const { page, errors } = await open('', { colorScheme });
    assert.deepEqual(await audit(page), []);
    if (colorScheme === 'dark') {
      const background = await page.$eval(
        'attention-explorer',
        (el) => getComputedStyle(el.shadowRoot.querySelector('.ae-root')).backgroundColor,
      );
      assert.equal(background, 'rgb(23, 24, 26)', 'dark mode follows prefers-color-scheme');
      await page.screenshot({ path: `${OUTPUT}/dark.png` });
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('axe-core: no violations with the trained decoder on a 48-token sentence (scrolling heatmaps, head detector)', async () => {
  const words = Array.from({ length: 48 }, (_, i) => 'the river bank was muddy after the storm'.split(' ')[i % 8]);
  const { page, errors } = await open(`#model=causal&sentence=${encodeURIComponent(words.join(' '))}`);
  await page.waitForSelector('attention-explorer [data-figure="head-detector"]');
  assert.deepEqual(await audit(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe-core: no violations on the embedding page', async () => {
  const { page, errors } = await open('embed.html');
  assert.deepEqual(await audit(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 375 px (a phone) the page does not scroll sideways; wide figures scroll inside their section', async () => {
  const { page, errors } = await open('', { width: 375 });
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  assert.ok(widths.page <= widths.viewport, `page ${widths.page} px wide in a ${widths.viewport} px viewport`);
  const controls = await page.$eval(
    'attention-explorer',
    (el) => el.shadowRoot.querySelector('.controls').getBoundingClientRect().width,
  );
  assert.ok(controls <= 375, `controls ${controls} px`);
  await page.screenshot({ path: `${OUTPUT}/phone.png`, fullPage: false });
  await page.locator('attention-explorer [data-figure="attention-weights"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUTPUT}/phone-attention.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Learn chapter while it trains: no axe-core violations (light and dark); at 375 px no sideways scroll', async () => {
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 375],
  ]) {
    const { page, errors } = await open('#chapter=learn&trainSpeed=400', { colorScheme, width });
    await page.waitForSelector('attention-explorer .learn-readout[data-step]');
    await page.click('attention-explorer [data-action="train"]');
    await page.waitForFunction(
      () =>
        Number(document.querySelector('attention-explorer').shadowRoot.querySelector('.learn-readout').dataset.step) >
        200,
    );
    await page.click('attention-explorer [data-action="train"]'); // paused: the figures hold still for the audit
    await page.waitForFunction(
      () =>
        document.querySelector('attention-explorer').shadowRoot.querySelector('.learn-readout').dataset.running ===
        'false',
    );
    assert.deepEqual(await audit(page), [], `${colorScheme}, ${width} px`);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    assert.ok(widths.page <= widths.viewport, `page ${widths.page} px wide in a ${widths.viewport} px viewport`);
    if (width === 375) await page.screenshot({ path: `${OUTPUT}/learn-phone-dark.png`, fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
