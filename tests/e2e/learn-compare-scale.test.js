// The Learn chapter's "Compare with the shipped model": the learner's model's next words and the shipped decoder's
// are drawn on one scale (lessons/learn/language-figures.js languageNext), so a bar's length means the same
// probability in both lists, at a learner's window sizes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const HOST = 'attention-explorer';
const shared = distAndBrowser();

/** Each list's bars: probability and drawn width. */
const bars = (page) =>
  page.$eval(HOST, (el) =>
    Object.fromEntries(
      ['yours', 'shipped'].map((model) => [
        model,
        [
          ...el.shadowRoot.querySelectorAll(`[data-figure="learn-language-next"] section[data-model="${model}"] li`),
        ].map((li) => ({
          p: Number(li.dataset.p),
          px: li.querySelector('.prediction-bar').getBoundingClientRect().width,
        })),
      ]),
    ),
  );

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`${viewport.width} px: compared, both models' next-word bars share one scale`, async () => {
    const { page, errors } = await openSite(
      shared,
      `chapter=learn&trainTask=language&sentence=${encodeURIComponent('the river flows into the')}`,
      viewport,
    );
    await page.waitForSelector(`${HOST} [data-figure="learn-language-next"] section[data-model="yours"] li`, {
      timeout: 30000,
    });
    await page.click(`${HOST} .language-lesson [data-action="compare"]`);
    // Figures off screen are drawn when they come into view. Scrolled by its slot: the figure itself is drawn anew with
    // the comparison (and the training's snapshots), so an element found before may be gone by the scroll.
    await page.locator(`${HOST} .slot-learnLanguageNext`).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${HOST} [data-figure="learn-language-next"] section[data-model="shipped"] li`, {
      timeout: 30000,
    });
    const drawn = await bars(page);
    const all = [...drawn.yours, ...drawn.shipped];
    // The longest bar fixes pixels per unit of probability; every other bar of either list follows it (1 px at least).
    const widest = all.reduce((a, b) => (b.px > a.px ? b : a));
    const perP = widest.px / widest.p;
    for (const [model, list] of Object.entries(drawn))
      for (const { p, px } of list)
        assert.ok(
          Math.abs(px - Math.max(1, p * perP)) <= 1.5,
          `${model}: p ${p.toFixed(4)} drawn ${px.toFixed(1)} px, on the shared scale ${Math.max(1, p * perP).toFixed(1)} px`,
        );
    assert.deepEqual(errors, []);
    await page.close();
  });
}
