// A weights heatmap wider than its pane, at a learner's screen sizes: its section scrolls sideways and the row labels
// stay at its left edge (views/heatmap.js rowPane), every key and the entropy column can be scrolled to, and the
// labels are large enough to read (views/heatmap.js LABELLED_CELL_PX). Designed heads, the trained decoder and the
// trained encoder alike.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const OUTPUT = 'test-output';
const shared = distAndBrowser();
mkdirSync(OUTPUT, { recursive: true });

/** 48 tokens: the default sentence six times. */
const WORDS = Array(6).fill('the river bank was muddy after the storm').join(' ').split(' ');

/** The weights' slot scrolled to `left`, then its box and its labels' and notes' boxes on screen. */
function measure(page, left) {
  return page.$eval(
    'attention-explorer',
    async (el, left) => {
      const slot = el.shadowRoot.querySelector('.chapter:not(.closed) .slot-attention');
      slot.scrollLeft = left;
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const f = slot.querySelector('[data-figure="attention-weights"]');
      const box = (node) => {
        const r = node.getBoundingClientRect();
        return { text: node.textContent, left: r.left, right: r.right };
      };
      const r = slot.getBoundingClientRect();
      return {
        slot: { left: r.left, right: r.right },
        scrolls: slot.scrollWidth > slot.clientWidth,
        rows: [...f.querySelectorAll('.axis-rows .tick text')].map(box),
        cols: [...f.querySelectorAll('.axis-cols .tick text')].map(box),
        notes: [...f.querySelectorAll('.row-notes text:not(.axis-title)')].map(box),
        fontPx: parseFloat(getComputedStyle(f.querySelector('.axis-rows .tick text')).fontSize),
      };
    },
    left,
  );
}

const inside = (slot, b) => b.left >= slot.left - 0.5 && b.right <= slot.right + 0.5;

for (const model of ['designed', 'causal', 'masked']) {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    test(`${model}, 48 tokens, ${viewport.width} px: every key and the entropy can be reached, the row labels stay in view`, async () => {
      const { page, errors } = await openSite(
        shared,
        `model=${model}&sentence=${encodeURIComponent(WORDS.join(' '))}`,
        viewport,
      );
      await showSlot(page, 'attention');
      await page.waitForFunction(
        () =>
          document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="attention-weights"]')
            ?.dataset.rows === '48',
        null,
        { timeout: 30000 },
      );
      const start = await measure(page, 0);
      assert.deepEqual(
        start.rows.map((r) => r.text.toLowerCase()),
        WORDS,
        'a label for every row',
      );
      assert.deepEqual(
        start.cols.map((c) => c.text.toLowerCase()),
        WORDS,
        'a label for every column',
      );
      const end = await measure(page, 1e6);
      for (const [where, seen] of [
        ['scrolled to the start', start],
        ['scrolled to the end', end],
      ]) {
        const out = seen.rows.filter((b) => !inside(seen.slot, b)).map((b) => b.text);
        assert.deepEqual(out, [], `${where}: row labels out of the pane`);
      }
      // At the end of the scroll, the last key and every entropy are in the pane.
      assert.ok(inside(end.slot, end.cols.at(-1)), `the last key's label is out of the pane: ${JSON.stringify(end)}`);
      const hidden = end.notes.filter((b) => !inside(end.slot, b));
      assert.equal(hidden.length, 0, `${hidden.length} entropies out of the pane`);
      assert.ok(start.fontPx >= 10, `labels of ${start.fontPx} px are too small to read`);
      console.log(`# scrolls: ${start.scrolls}, label font ${start.fontPx} px`);
      await page
        .locator('attention-explorer .chapter:not(.closed) .slot-attention')
        .screenshot({ path: `${OUTPUT}/wide-${model}-${viewport.width}.png` });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}
