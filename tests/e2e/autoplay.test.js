// `autoplay` in a long lesson page, in headless Chromium: the Learn element trains from the first time it is at least
// half on screen (scrolled to, or in a <details> opened later), not before; it pauses when scrolled out of sight and
// goes on when seen again; and setting `autoplay` on an element already shown starts it. (The reveal.js deck's hidden
// slide: reveal-deck.test.js.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isElementReport, launchBrowser, serveElementPage } from './browser.js';
import { readLearn, until } from './learn-readout.js';

const LESSON = `<h1>A lesson</h1>
<p>Read this first.</p>
<attention-explorer id="now" views="learn" task="previous-token"></attention-explorer>
<div style="height: 4000px">A long lesson page.</div>
<attention-explorer id="below" views="learn" task="previous-token" autoplay></attention-explorer>
<div style="height: 2000px"></div>
<details id="more"><summary>More</summary>
  <attention-explorer id="folded" views="learn" task="previous-token" autoplay></attention-explorer></details>
<div style="height: 2000px"></div>`;

let site, browser;
before(async () => {
  [site, browser] = await Promise.all([serveElementPage('A lesson', LESSON), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** The element's training once its model exists: { step, running }. */
async function training(page, host) {
  const { state } = await until(page, () => true, 30, host);
  assert.ok(state?.step !== null, `${host} made its model`);
  return state;
}

test('autoplay trains only once the element is seen, pauses out of sight, and goes on when seen again', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && !isElementReport(m.text()) && errors.push(m.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(site.url);
  await page.waitForFunction(() => document.querySelector('#below').getRun?.(), null, { timeout: 30000 });
  await training(page, '#below');
  await page.waitForTimeout(3000);
  let below = await readLearn(page, '#below');
  assert.deepEqual([below.step, below.running], [0, false], '4,000 px down the page, it has not trained');

  await page.$eval('#below', (el) => el.scrollIntoView({ block: 'start' }));
  const started = await until(page, (s) => s.running && s.step > 10, 20, '#below');
  assert.ok(started.seconds !== null, `scrolled to, it trains (step ${started.state.step})`);

  await page.evaluate(() => window.scrollTo(0, 0));
  const paused = await until(page, (s) => !s.running, 10, '#below');
  assert.ok(paused.seconds !== null, 'out of sight, it pauses');
  await page.waitForTimeout(1000);
  const step = (await readLearn(page, '#below')).step;
  await page.waitForTimeout(1500);
  assert.equal((await readLearn(page, '#below')).step, step, 'paused: no steps while out of sight');

  await page.$eval('#below', (el) => el.scrollIntoView({ block: 'start' }));
  const again = await until(page, (s) => s.running && s.step > step, 20, '#below');
  assert.ok(again.seconds !== null, 'seen again, it goes on');

  // The learner pauses it: scrolling away and back leaves it paused.
  await page.$eval('#below', (el) => el.shadowRoot.querySelector('button[data-action="train"]').click());
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.$eval('#below', (el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(1500);
  assert.equal((await readLearn(page, '#below')).running, false, "the learner's pause holds");

  // In a <details>: nothing until it is opened.
  await training(page, '#folded');
  await page.$eval('#more', (el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(2000);
  const folded = await readLearn(page, '#folded');
  assert.deepEqual([folded.step, folded.running], [0, false], 'folded away, it has not trained');
  await page.click('#more summary');
  const opened = await until(page, (s) => s.running && s.step > 10, 20, '#folded');
  assert.ok(opened.seconds !== null, 'opened, it trains');

  // Setting autoplay on an element shown without it starts it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await training(page, '#now');
  await page.waitForTimeout(1000);
  below = await readLearn(page, '#now');
  assert.deepEqual([below.step, below.running], [0, false], 'without autoplay it waits for the learner');
  await page.$eval('#now', (el) => el.setAttribute('autoplay', ''));
  const later = await until(page, (s) => s.running && s.step > 10, 20, '#now');
  assert.ok(later.seconds !== null, 'autoplay set later, it trains');
  assert.deepEqual(errors, []);
  await page.close();
});
