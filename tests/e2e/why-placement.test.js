// "Why this word?" with a trained model, at a learner's window sizes: it follows the heads and the weights closely,
// beside the predictions' column (lessons/attention/chapter.js, trained.css), not under the whole row, where the
// predictions' notes and sampling controls left an empty band above it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const HOST = 'attention-explorer';
const shared = distAndBrowser();
const MOST_GAP_PX = 48; // between the heads or the weights, whichever ends lower, and "Why this word?"

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`${viewport.width}×${viewport.height}, decoder: no empty band above "Why this word?"`, async () => {
    const { page, errors } = await openSite(
      shared,
      `model=causal&sentence=${encodeURIComponent('The king of')}`,
      viewport,
    );
    await page.waitForSelector(`${HOST} [data-figure="predictions"] li[data-word]`, { timeout: 30000 });
    await page.hover(`${HOST} [data-figure="predictions"] li[data-word] >> nth=1`);
    const figure = `${HOST} [data-figure="why-this-word"]`;
    await page.locator(figure).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${figure} .head-effect`);
    const boxes = await page.$eval(HOST, (el) => {
      const root = el.shadowRoot;
      const rect = (selector) => root.querySelector(selector).getBoundingClientRect();
      return {
        heads: rect('.chapter:not(.closed) .slot-heads').bottom,
        weights: rect('.chapter:not(.closed) .slot-attention').bottom,
        why: rect('[data-figure="why-this-word"]').top,
        predictionsLeft: rect('.chapter:not(.closed) .predictions-box').left,
        whyRight: rect('[data-figure="why-this-word"]').right,
      };
    });
    const gap = boxes.why - Math.max(boxes.heads, boxes.weights);
    assert.ok(gap >= 0, `"Why this word?" starts ${-gap} px over the heads or the weights`);
    assert.ok(gap <= MOST_GAP_PX, `${gap.toFixed(0)} px empty above "Why this word?"`);
    assert.ok(boxes.whyRight <= boxes.predictionsLeft + 1, 'beside the predictions, not under them');
    assert.deepEqual(errors, []);
    await page.close();
  });
}
