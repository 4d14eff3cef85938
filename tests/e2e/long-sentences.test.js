// Long sentences: at 64 tokens every row and column of a weights heatmap is labelled (views/heatmap.js tokenBandPx;
// wide-weights.test.js goes to 256), without a transform a label, the labels do not overlap, and the orange outlines
// of changed weights have a key.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const OUTPUT = 'test-output';
const shared = distAndBrowser();
mkdirSync(OUTPUT, { recursive: true });

/** 64 tokens: the default sentence eight times (8 words, no punctuation). */
const LONG = Array(8).fill('the river bank was muddy after the storm').join(' ');

/** A heatmap's axis labels, in order, with their boxes on screen. */
function axisLabels(page, figure) {
  return page.$eval(
    'attention-explorer',
    (el, figure) => {
      const f = el.shadowRoot.querySelector(`[data-figure="${figure}"]`);
      const read = (axis) =>
        [...f.querySelectorAll(`.${axis} .tick text`)].map((t) => {
          const box = t.getBoundingClientRect();
          return { text: t.textContent, top: box.top, bottom: box.bottom, left: box.left, right: box.right };
        });
      const transforms = f.querySelectorAll('[transform]').length;
      return { rows: read('axis-rows'), cols: read('axis-cols'), n: Number(f.dataset.rows), transforms };
    },
    figure,
  );
}

/** Labels in a line (rows top to bottom, columns left to right) that overlap their neighbour by more than 1 px. */
function overlaps(labels, [from, to]) {
  return labels.slice(1).filter((box, i) => box[from] < labels[i][to] - 1);
}

for (const [model, figure] of [
  ['designed', 'attention-weights'],
  ['causal', 'attention-weights'],
]) {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`${model} heads at 64 tokens, ${viewport.width} px: every row and column is labelled, no label over another`, async () => {
      const { page, errors } = await openSite(shared, `model=${model}&sentence=${encodeURIComponent(LONG)}`, viewport);
      await showSlot(page, 'attention');
      await page.waitForFunction(
        (figure) =>
          document.querySelector('attention-explorer').shadowRoot.querySelector(`[data-figure="${figure}"]`)?.dataset
            .rows === '64',
        figure,
        { timeout: 30000 },
      );
      const { rows, cols, transforms } = await axisLabels(page, figure);
      // Placed by their coordinates in one turned group an axis (band-axis.js): a transform each would split the paint
      // into chunks that every keystroke's compositing goes through, two a token.
      assert.ok(transforms <= 16, `${transforms} SVG transforms in the heatmap, for 64 tokens`);
      const words = LONG.split(' ');
      assert.deepEqual(
        rows.map((r) => r.text.toLowerCase()),
        words,
        'a label for every row',
      );
      assert.deepEqual(
        cols.map((c) => c.text.toLowerCase()),
        words,
        'a label for every column',
      );
      assert.deepEqual(overlaps(rows, ['top', 'bottom']), [], 'row labels apart');
      assert.deepEqual(overlaps(cols, ['left', 'right']), [], 'column labels apart');
      await page
        .locator(`attention-explorer [data-figure="${figure}"]`)
        .screenshot({ path: `${OUTPUT}/long-${model}-${viewport.width}.png` });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}

test('a blanked word outlines the weights that changed, and a key under the legend says what the outlines are', async () => {
  const { page, errors } = await openSite(
    shared,
    `sentence=${encodeURIComponent('the river bank was muddy after the storm')}`,
  );
  await showSlot(page, 'attention');
  const key = () =>
    page.$eval('attention-explorer [data-figure="attention-weights"]', (f) => ({
      outlines: Number(f.querySelector('path.changed')?.dataset.cells ?? 0),
      shown: f.querySelector('.changed-key')?.checkVisibility() ?? false,
      text: f.querySelector('.changed-key')?.textContent ?? '',
    }));
  assert.equal((await key()).shown, false, 'no outline, no key');
  await page.click('attention-explorer .token[data-index="2"]');
  await page.waitForSelector('attention-explorer [data-figure="attention-weights"] path.changed:not([data-cells="0"])');
  const after = await key();
  assert.ok(after.outlines > 0, 'outlines drawn');
  assert.ok(after.shown, 'the key is shown with them');
  assert.match(after.text, /changed by more than 0\.05/);
  assert.deepEqual(errors, []);
  await page.close();
});
