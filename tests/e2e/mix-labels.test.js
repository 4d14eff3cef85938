// The mix names every key at every length the page accepts: at 48 and 256 tokens each row of the figure carries its
// word, in a readable font, one word's height or more from the next (lessons/attention/mix-view.js: a token's band,
// views/heatmap.js tokenBandPx), and rows taller than the window scroll in their box above the sum, which stays in
// view. The words are drawn on a canvas: the test records what the page writes there (fillText), as a learner's eye
// would read it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const shared = distAndBrowser();
const wordsOf = (n) =>
  Array.from({ length: n }, (_, i) => 'the river bank was muddy after the storm'.split(' ')[i % 8]);

/** Before the page's scripts: every canvas keeps the texts of its last drawing (cleared with it). */
function recordCanvasText() {
  const proto = CanvasRenderingContext2D.prototype;
  const { fillText, clearRect } = proto;
  proto.fillText = function (text, x, y, ...rest) {
    (this.canvas.drawnTexts ??= []).push({ text, x, y, font: this.font, align: this.textAlign });
    return fillText.call(this, text, x, y, ...rest);
  };
  proto.clearRect = function (...args) {
    this.canvas.drawnTexts = [];
    return clearRect.apply(this, args);
  };
  const width = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, 'width');
  Object.defineProperty(HTMLCanvasElement.prototype, 'width', {
    get: width.get,
    set(value) {
      this.drawnTexts = [];
      width.set.call(this, value);
    },
  });
}

for (const [tokens, viewport] of [
  [48, { width: 1280, height: 720 }],
  [48, { width: 1440, height: 900 }],
  [256, { width: 1440, height: 900 }],
]) {
  test(`the mix at ${tokens} tokens, ${viewport.width} px: every key's word is drawn, none over another`, async () => {
    const WORDS = wordsOf(tokens);
    const { page, errors } = await openSite(
      shared,
      `sentence=${encodeURIComponent(WORDS.join(' '))}`,
      viewport,
      recordCanvasText,
    );
    await showSlot(page, 'mix');
    await page.waitForFunction(
      () =>
        document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="mix"] canvas')?.drawnTexts
          ?.length > 0,
      null,
      { timeout: 30000 },
    );
    const drawn = await page.$eval(
      'attention-explorer',
      (el) => el.shadowRoot.querySelector('[data-figure="mix"] canvas').drawnTexts,
    );
    // The words: right-aligned in the first column (the weights' numbers and "= z_i" are drawn elsewhere).
    const words = drawn.filter((t) => t.align === 'right' && !t.text.startsWith('='));
    assert.deepEqual(
      words.map((t) => t.text),
      WORDS,
      'a word for every key',
    );
    const fontPx = Math.min(...words.map((t) => parseFloat(/(\d+(\.\d+)?)px/.exec(t.font)[1])));
    assert.ok(fontPx >= 10, `words of ${fontPx} px are too small to read`);
    const close = words.slice(1).filter((t, k) => t.y - words[k].y < fontPx);
    assert.deepEqual(close, [], 'words closer than their height overlap');
    // The sum z_i is in the window with the rows' box above it, however many rows the box holds.
    const { sum, keys } = await page.$eval('attention-explorer', (el) => {
      const f = el.shadowRoot.querySelector('[data-figure="mix"]');
      f.scrollIntoView({ block: 'start' });
      const box = (node) => node.getBoundingClientRect().toJSON();
      return { sum: box(f.querySelector(':scope > canvas')), keys: box(f.querySelector('.mix-keys')) };
    });
    assert.ok(sum.bottom <= viewport.height, `the sum ends at ${sum.bottom} px, below the window`);
    assert.ok(Math.abs(sum.top - keys.bottom) < 1, 'the sum right under the rows');
    assert.deepEqual(errors, []);
    await page.close();
  });
}
