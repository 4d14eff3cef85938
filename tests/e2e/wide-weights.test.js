// A weights heatmap larger than its pane, at a learner's screen sizes, up to the longest sentence the page accepts
// (256 tokens): it scrolls in its box with its row labels at the box's left edge and its column labels at its top
// (views/heatmap.js panes), every key, query and entropy can be scrolled to, and every label is large enough to read
// (views/heatmap.js LABELLED_CELL_PX). Designed heads, the trained decoder and the trained encoder alike.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const OUTPUT = 'test-output';
const shared = distAndBrowser();
mkdirSync(OUTPUT, { recursive: true });

/** `n` tokens: the default sentence over and over. */
const wordsOf = (n) =>
  Array.from({ length: n }, (_, i) => 'the river bank was muddy after the storm'.split(' ')[i % 8]);

/** The weights' scroll box scrolled to (left, top), then its box and its labels' and notes' boxes on screen. */
function measure(page, left, top) {
  return page.$eval(
    'attention-explorer',
    async (el, [left, top]) => {
      const f = el.shadowRoot.querySelector('.chapter:not(.closed) .slot-attention [data-figure="attention-weights"]');
      const scroll = f.querySelector('.heatmap-scroll');
      scroll.scrollLeft = left;
      scroll.scrollTop = top;
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const box = (node) => {
        const r = node.getBoundingClientRect();
        return { text: node.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const r = scroll.getBoundingClientRect();
      return {
        box: { left: r.left, right: r.left + scroll.clientWidth, top: r.top, bottom: r.top + scroll.clientHeight },
        cells: box(f.querySelector('canvas')),
        panes: { rows: box(f.querySelector('.row-labels')), cols: box(f.querySelector('.col-labels')) },
        scrolls: [scroll.scrollWidth > scroll.clientWidth, scroll.scrollHeight > scroll.clientHeight],
        rows: [...f.querySelectorAll('.axis-rows .tick text')].map(box),
        cols: [...f.querySelectorAll('.axis-cols .tick text')].map(box),
        notes: [...f.querySelectorAll('.row-notes text:not(.axis-title)')].map(box),
        fontPx: parseFloat(getComputedStyle(f.querySelector('.axis-rows .tick text')).fontSize),
      };
    },
    [left, top],
  );
}

const inside = (box, b) =>
  b.left >= box.left - 0.5 && b.right <= box.right + 0.5 && b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5;

/**
 * The labels of the rows (columns) whose cells show in the box, past the panes: each must show too, in the box. With
 * `seen` scrolled right and down, the labels' panes stay at the box's left and top edges.
 */
function labelsOfShownCells(seen) {
  const middle = (b, from, to) => (b[from] + b[to]) / 2;
  const rows = seen.rows.filter((b) => {
    const y = middle(b, 'top', 'bottom');
    return y > seen.panes.cols.bottom && y < seen.box.bottom && y > seen.cells.top && y < seen.cells.bottom;
  });
  const cols = seen.cols.filter((b) => {
    const x = middle(b, 'left', 'right');
    return x > seen.panes.rows.right && x < seen.box.right && x > seen.cells.left && x < seen.cells.right;
  });
  return { rows, cols };
}

for (const model of ['designed', 'causal', 'masked']) {
  for (const [tokens, viewport] of [
    [48, { width: 1280, height: 720 }],
    [48, { width: 1440, height: 900 }],
    [256, { width: 1440, height: 900 }],
  ]) {
    test(`${model}, ${tokens} tokens, ${viewport.width} px: every key and the entropy can be reached, the labels stay in view`, async () => {
      const words = wordsOf(tokens);
      const { page, errors } = await openSite(
        shared,
        `model=${model}&sentence=${encodeURIComponent(words.join(' '))}`,
        viewport,
      );
      await showSlot(page, 'attention');
      await page.waitForFunction(
        (tokens) =>
          document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="attention-weights"]')
            ?.dataset.rows === String(tokens),
        tokens,
        { timeout: 30000 },
      );
      const start = await measure(page, 0, 0);
      assert.deepEqual(
        start.rows.map((r) => r.text.toLowerCase()),
        words,
        'a label for every row',
      );
      assert.deepEqual(
        start.cols.map((c) => c.text.toLowerCase()),
        words,
        'a label for every column',
      );
      // Half way and at the end of the scroll, the labels of the cells in view are in view.
      for (const [where, seen] of [
        [
          'scrolled half way',
          await measure(page, (start.cells.right - start.cells.left) / 2, (start.cells.bottom - start.cells.top) / 2),
        ],
        ['scrolled to the end', await measure(page, 1e6, 1e6)],
      ]) {
        const { rows, cols } = labelsOfShownCells(seen);
        assert.ok(
          rows.length >= 5 && cols.length >= 5,
          `${where}: ${rows.length} rows, ${cols.length} columns in view`,
        );
        // Rows' labels must be in the box from left to right, columns' from top to bottom (a label at a cell's edge of
        // the view may reach past the box's other edges, as its cells do).
        const across = (b) => b.left >= seen.box.left - 0.5 && b.right <= seen.box.right + 0.5;
        const down = (b) => b.top >= seen.box.top - 0.5 && b.bottom <= seen.box.bottom + 0.5;
        const out = [...rows.filter((b) => !across(b)), ...cols.filter((b) => !down(b))].map((b) => b.text);
        assert.deepEqual(out, [], `${where}: labels of cells in view are out of it`);
      }
      const end = await measure(page, 1e6, 1e6);
      // At the end of the scroll, the last key, the last query and the last entropy are in the box.
      for (const [what, label] of [
        ['the last key', end.cols.at(-1)],
        ['the last query', end.rows.at(-1)],
        ['the last entropy', end.notes.at(-1)],
      ])
        assert.ok(
          inside(end.box, label),
          `${what}'s label is out of the box: ${JSON.stringify(label)} ${JSON.stringify(end.box)}`,
        );
      assert.ok(start.fontPx >= 10, `labels of ${start.fontPx} px are too small to read`);
      console.log(`# scrolls (sideways, down): ${start.scrolls}, label font ${start.fontPx} px`);
      await page
        .locator('attention-explorer .chapter:not(.closed) .slot-attention')
        .screenshot({ path: `${OUTPUT}/wide-${model}-${tokens}-${viewport.width}.png` });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}

test('256 tokens: the arrow keys scroll the current cell into view, clear of the labels', async () => {
  const words = wordsOf(256);
  const { page, errors } = await openSite(shared, `sentence=${encodeURIComponent(words.join(' '))}`);
  await showSlot(page, 'attention');
  const canvas = page.locator('attention-explorer .slot-attention [data-figure="attention-weights"] canvas');
  await canvas.focus();
  const seen = [];
  for (const key of ['End', 'PageDown', 'Home', 'PageUp']) {
    await page.keyboard.press(key);
    seen.push(
      await page.$eval('attention-explorer', async (el) => {
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const f = el.shadowRoot.querySelector('.slot-attention [data-figure="attention-weights"]');
        const scroll = f.querySelector('.heatmap-scroll');
        const box = scroll.getBoundingClientRect();
        const cell = f.querySelector('.hover-outline').getBoundingClientRect();
        const rows = f.querySelector('.row-labels').getBoundingClientRect();
        const cols = f.querySelector('.col-labels').getBoundingClientRect();
        return {
          scroll: [scroll.scrollLeft, scroll.scrollTop],
          // in the box, right of the rows' labels and under the columns' (their panes are sticky at its edges)
          clear:
            cell.left >= rows.right - 1 &&
            cell.right <= box.left + scroll.clientWidth + 1 &&
            cell.top >= cols.bottom - 1 &&
            cell.bottom <= box.top + scroll.clientHeight + 1,
        };
      }),
    );
  }
  const [end, down, home, up] = seen;
  assert.ok(
    end.scroll[0] > 0 && down.scroll[1] > 0,
    `the box scrolled to the last key and query: ${JSON.stringify(seen)}`,
  );
  assert.ok(home.scroll[0] === 0 && up.scroll[1] === 0, `and back: ${JSON.stringify(seen)}`);
  assert.ok(
    seen.every((s) => s.clear),
    `the current cell in view, clear of the labels: ${JSON.stringify(seen)}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});
