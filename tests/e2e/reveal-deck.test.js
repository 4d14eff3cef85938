// The element in a real reveal.js deck (the npm package's dist files), in headless Chromium: keys typed
// or pressed inside the element are its own (reveal.js's "is an input focused?" check cannot see into a
// shadow root, so they would turn the slides), keys outside still drive the deck, and the element's
// `ready` and `resize` events let the deck lay itself out again.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { isElementReport, launchBrowser, serveFolder } from './browser.js';
import { fencedBlocks, recipeSection } from './recipes.js';
import { readLearn, until } from './learn-readout.js';
/* global deck -- the page's Reveal instance, read inside page.evaluate() */

// docs/embedding.md's recipe as a course author would paste it (without a height here: the element grows, and says so).
const DECK = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A deck</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="reveal/reveal.css"><link rel="stylesheet" href="reveal/theme/white.css">
<script type="module" src="element/attention-explorer.js"></script></head>
<body><div class="reveal"><div class="slides">
  <section><h2>Who attends to whom?</h2>
    <attention-explorer sentence="The river bank" views="attention" controls="sentence"></attention-explorer></section>
  <section><h2>The next slide</h2></section>
</div></div>
<script>
  // Recorded before the element is defined: the events a page can wait for.
  window.seen = [];
  const explorer = document.querySelector('attention-explorer');
  explorer.addEventListener('ready', () => seen.push('ready'));
  explorer.addEventListener('resize', (event) => seen.push('resize ' + event.detail.height));
</script>
<script type="module">
  import Reveal from './reveal/reveal.mjs';
  const deck = new Reveal({ hash: false, transition: 'none' });
  await deck.initialize();
  document.querySelector('attention-explorer').addEventListener('resize', () => deck.layout());
  window.deck = deck;
</script></body></html>`;

// A Learn element with autoplay on the second slide; the deck's transition 'none' hides the slides not shown by opacity
// alone, in place (so only the element's own visibility check, not its position, can tell).
const AUTOPLAY_DECK = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A deck</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="reveal/reveal.css"><link rel="stylesheet" href="reveal/theme/white.css">
<script type="module" src="element/attention-explorer.js"></script></head>
<body><div class="reveal"><div class="slides">
  <section><h2>Soon: a model learns</h2></section>
  <section><attention-explorer views="learn" task="previous-token" height="600" autoplay></attention-explorer></section>
</div></div>
<script type="module">
  import Reveal from './reveal/reveal.mjs';
  const deck = new Reveal({ hash: false, transition: 'none' });
  await deck.initialize();
  window.deck = deck;
</script></body></html>`;

let folder, server, browser;
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ae-reveal-'));
  for (const part of ['element', 'core']) cpSync(`dist/${part}`, join(folder, part), { recursive: true });
  mkdirSync(join(folder, 'reveal'));
  cpSync('node_modules/reveal.js/dist', join(folder, 'reveal'), { recursive: true });
  writeFileSync(join(folder, 'index.html'), DECK);
  writeFileSync(join(folder, 'autoplay.html'), AUTOPLAY_DECK);
  // docs/embedding.md's recipe verbatim, reveal.js's files where this folder has them.
  const recipe = fencedBlocks(recipeSection('4. A reveal.js slide')).html.replaceAll('reveal.js/dist/', 'reveal/');
  writeFileSync(
    join(folder, 'recipe.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A deck</title><link rel="icon" href="data:,">` +
      `</head><body>${recipe}</body></html>`,
  );
  server = await serveFolder(folder);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function openDeck() {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server.url);
  await page.waitForFunction(
    () => window.deck?.isReady() && document.querySelector('attention-explorer').getTrace?.(),
    null,
    { timeout: 30000 },
  );
  return { page, errors };
}

/** Where the deck is and what the element shows. */
const where = (page) =>
  page.evaluate(() => ({
    slide: deck.getIndices().h,
    paused: deck.isPaused(),
    overview: deck.isOverview(),
    sentence: document.querySelector('attention-explorer').state.sentence,
  }));

test('typing in the sentence box changes the sentence, not the slide', async () => {
  const { page, errors } = await openDeck();
  const box = page.locator('attention-explorer textarea').first();
  await box.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' so big');
  assert.deepEqual(await where(page), { slide: 0, paused: false, overview: false, sentence: 'The river bank so big' });
  assert.deepEqual(await page.$eval('attention-explorer', (el) => el.getTrace().tokens.map((t) => t.text)), [
    'The',
    'river',
    'bank',
    'so',
    'big',
  ]);
  // Escape and the arrows in the box are the box's too.
  for (const key of ['ArrowLeft', 'ArrowRight', 'Escape', 'PageDown']) await page.keyboard.press(key);
  assert.equal((await where(page)).slide, 0);
  assert.equal((await where(page)).overview, false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the arrow keys on a focused heatmap move its cell, not the deck; outside the element they move the deck', async () => {
  const { page, errors } = await openDeck();
  const canvas = page.locator('attention-explorer [data-figure="attention-weights"] canvas').first();
  await canvas.focus();
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowRight', ' ']) await page.keyboard.press(key);
  const tip = await page.$eval(
    'attention-explorer',
    (el) => el.shadowRoot.querySelector('[data-figure="attention-weights"] .tooltip')?.textContent ?? '',
  );
  assert.match(tip, /^query "river" \(1\) → key "bank" \(2\)/, 'the heatmap followed the arrows');
  assert.equal((await where(page)).slide, 0);
  // Focus back on the page: the deck's keys work as before.
  await page.locator('h2').first().click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => deck.getIndices().h === 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('ready fires once, and resize when the element grows, so that the deck can lay itself out', async () => {
  const { page, errors } = await openDeck();
  await page.waitForTimeout(500);
  const seen = await page.evaluate(() => seen.filter((event) => event === 'ready'));
  assert.deepEqual(seen, ['ready']);
  const before = await page.$eval('attention-explorer', (el) => el.getBoundingClientRect().height);
  await page.$eval('attention-explorer', (el) => {
    seen.length = 0;
    el.setAttribute('views', 'attention,mix');
  });
  await page.waitForFunction(() => seen.some((event) => event.startsWith('resize')));
  const height = await page.evaluate(() => Number(seen.findLast((event) => event.startsWith('resize')).split(' ')[1]));
  const layoutHeight = await page.$eval('attention-explorer', (el) => el.offsetHeight);
  assert.ok(height > 0 && height !== Math.round(before), `resize says the new height (${height}, was ${before})`);
  assert.ok(
    Math.abs(height - layoutHeight) < 1,
    `resize says the element's height (${height}; offsetHeight ${layoutHeight})`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("docs/embedding.md's recipe: the deck with reveal.js's theme, the element's text its own (not the slide's centring)", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on(
    'console',
    (message) => message.type() === 'error' && !isElementReport(message.text()) && errors.push(message.text()),
  );
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}recipe.html`);
  await page.waitForFunction(
    () => document.querySelector('.reveal.ready') && document.querySelector('attention-explorer').getTrace?.(),
    null,
    { timeout: 30000 },
  );
  const seen = await page.evaluate(() => {
    const explorer = document.querySelector('attention-explorer');
    const align = (el) => getComputedStyle(el).textAlign;
    return {
      slide: align(explorer.parentElement),
      caption: align(explorer.shadowRoot.querySelector('figcaption')),
      height: explorer.offsetHeight, // before the deck scales the slide to the window
    };
  });
  assert.equal(seen.slide, 'center', "reveal.js's theme is loaded: its slides centre their text");
  assert.equal(seen.caption, 'start', "the element's captions are not centred");
  assert.ok(Math.abs(seen.height - 520) < 1, `the recipe's height: ${seen.height}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('autoplay on a slide not yet shown waits for the slide, trains while it shows, and pauses when the deck moves on', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && !isElementReport(m.text()) && errors.push(m.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}autoplay.html`);
  await page.waitForFunction(() => window.deck?.isReady(), null, { timeout: 30000 });
  const made = await until(page, () => true, 30);
  assert.ok(made.seconds !== null, 'the element made its model');
  await page.waitForTimeout(3000);
  const hidden = await readLearn(page);
  assert.deepEqual([hidden.step, hidden.running], [0, false], 'on the hidden slide it has not trained');
  await page.evaluate(() => deck.slide(1));
  const shown = await until(page, (s) => s.running && s.step > 10, 20);
  assert.ok(shown.seconds !== null, `the slide shown, it trains (step ${shown.state.step})`);
  await page.evaluate(() => deck.slide(0));
  const paused = await until(page, (s) => !s.running, 10);
  assert.ok(paused.seconds !== null, 'the deck moved on: it pauses');
  await page.evaluate(() => deck.slide(1));
  const again = await until(page, (s) => s.running && s.step > paused.state.step, 20);
  assert.ok(again.seconds !== null, 'back on its slide, it goes on');
  assert.deepEqual(errors, []);
  await page.close();
});
