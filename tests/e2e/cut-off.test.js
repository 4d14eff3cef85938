// Nothing cut off, in headless Chromium: a heatmap's tooltip stays whole inside the viewport (also at
// the last column, at the edge of a scrolling column); the tour's rail never covers or cuts the figure
// its step talks about; on a phone every region that scrolls sideways shows that it does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';

const HOST = 'attention-explorer';
const site = distAndBrowser();

async function open(hash, viewport) {
  const { page, errors } = await openSite(site, hash, viewport);
  await page.waitForTimeout(300);
  return { page, errors };
}

/**
 * The tooltip's box, whether it is the topmost element at its four corners, and whether its text fits: measured in the
 * evaluation that first finds it shown (an update that lands between showing and measuring redraws the weights in place,
 * which hides the current cell).
 */
const readTooltip = async (page) =>
  (
    await page.waitForFunction((host) => {
      const el = document.querySelector(host);
      const tip = el.shadowRoot.querySelector('[data-figure="attention-weights"] .tooltip');
      const r = tip?.getBoundingClientRect();
      if (!r || r.width === 0) return null;
      const corners = [
        [r.left + 2, r.top + 2],
        [r.right - 2, r.top + 2],
        [r.left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2],
      ];
      tip.style.pointerEvents = 'auto'; // hit-testable for a moment: a clipped part of it is not
      const onTop = corners.map(([x, y]) => el.shadowRoot.elementFromPoint(x, y) === tip);
      tip.style.pointerEvents = '';
      return {
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
        text: tip.textContent,
        fits: tip.scrollWidth <= tip.clientWidth,
        onTop,
        width: innerWidth,
        height: innerHeight,
      };
    }, HOST)
  ).jsonValue();

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`${viewport.width}×${viewport.height}: the weights' tooltip at the last column is whole and inside the viewport`, async () => {
    const { page, errors } = await open('', viewport);
    // The page's first update done before the keys: on a loaded machine it could land after them and redraw the
    // weights in place, which hides the current cell.
    await flush(page);
    const canvas = page.locator(`${HOST} [data-figure="attention-weights"] canvas`);
    await canvas.scrollIntoViewIfNeeded();
    // The scroll's event comes with the next frames, and a scroll hides a tooltip (it would stay put while its cell
    // moves): on a loaded machine those frames can come after the keys, so let them pass first, as a reader's would.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await canvas.focus();
    for (const key of ['End', 'ArrowDown', 'ArrowDown']) await page.keyboard.press(key); // row 2 ("bank"), the last key
    const tip = await readTooltip(page);
    console.log(`# ${JSON.stringify(tip)}`);
    assert.match(tip.text, /^query "bank" \(2\) → key "storm" \(7\): weight 0\.\d{4}; q·k = /);
    assert.ok(
      tip.left >= 0 && tip.right <= tip.width && tip.top >= 0 && tip.bottom <= tip.height,
      'inside the viewport',
    );
    assert.deepEqual(tip.onTop, [true, true, true, true], 'nothing covers or clips any corner of it');
    assert.ok(tip.fits, 'its text is not cut');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("1440×900: the tour rail never covers its step's figure, and beside it the weights keep their last column and entropy", async () => {
  const { page, errors } = await open('tour=attention-weights', { width: 1440, height: 900 });
  const ids = await page.$eval(HOST, (el) => el.guide.steps().map((step) => step.id));
  for (const id of ids) {
    await page.$eval(
      HOST,
      (el, id) => {
        el.tour = id;
      },
      id,
    );
    await page.waitForTimeout(400);
    const seen = await page.$eval(HOST, (el) => {
      const root = el.shadowRoot;
      const step = el.guide.stepById(el.tour);
      const anchor = (
        step.figure ? root.querySelector(`.slot-${step.figure}`) : root.querySelector(`[data-view="${step.view}"]`)
      ).getBoundingClientRect();
      const panel = root.querySelector('.tour').getBoundingClientRect();
      // The designed heads' weights, where the step shows them (a trained model's step shows its own instead).
      const weights = root.querySelector('.chapter:not(.closed) .slot-attention:has(.row-notes)');
      const notes = weights?.querySelector('.row-notes').getBoundingClientRect();
      return {
        view: step.view,
        anchorRight: anchor.right,
        panelLeft: panel.left,
        weights: weights && {
          scroll: weights.scrollWidth,
          client: weights.clientWidth,
          notesRight: notes.right,
          right: weights.getBoundingClientRect().right,
        },
      };
    });
    assert.ok(
      seen.anchorRight <= seen.panelLeft,
      `${id}: the figure (right ${seen.anchorRight}) runs under the rail (left ${seen.panelLeft})`,
    );
    if (seen.weights) {
      assert.ok(
        seen.weights.scroll <= seen.weights.client,
        `${id}: the weights are cut (${seen.weights.scroll} px in ${seen.weights.client})`,
      );
      assert.ok(seen.weights.notesRight <= seen.weights.right, `${id}: the entropy column is hidden`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('390×844: every region that scrolls sideways fades its edge where there is more, and only those', async () => {
  const { page, errors } = await open('', { width: 390, height: 844 });
  const found = []; // the regions that scroll
  for (const hash of ['chapter=attention', 'chapter=positions']) {
    await page.evaluate((hash) => {
      location.hash = hash;
    }, hash);
    await page.waitForTimeout(300);
    // Each figure of the chapter drawn: scroll through it.
    await page.$eval(HOST, async (el) => {
      for (const slot of el.shadowRoot.querySelectorAll('.chapter:not(.closed) .slot')) {
        slot.scrollIntoView();
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
      }
    });
    const regions = await page.$eval(HOST, (el) =>
      [...el.shadowRoot.querySelector('.chapter:not(.closed)').querySelectorAll('*')]
        .filter((node) => ['auto', 'scroll'].includes(getComputedStyle(node).overflowX) && node.checkVisibility())
        .map((node) => ({
          name: `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}${node.dataset.slot ? `[${node.dataset.slot}]` : ''}`,
          scrolls: node.scrollWidth > node.clientWidth + 1,
          mask: getComputedStyle(node).maskImage,
        })),
    );
    const scrolling = regions.filter((r) => r.scrolls);
    console.log(`# ${hash}: ${scrolling.map((r) => r.name).join(', ')}`);
    for (const region of regions) {
      if (region.scrolls)
        assert.match(
          region.mask,
          /^linear-gradient\((to right|90deg), rgb\(0, 0, 0\) calc\(100% - 40px\), rgba\(0, 0, 0, 0\)\)$/,
          `${hash}: ${region.name} scrolls with no hint`,
        );
      else assert.equal(region.mask, 'none', `${hash}: ${region.name} does not scroll but fades`);
    }
    found.push(...scrolling.map((r) => r.name));
  }
  // The positions chapter's formula and its P heatmap (the lab's, in its heatmap's box) are wider than a phone.
  assert.ok(
    found.includes('div.formula') && found.includes('div.heatmap-scroll'),
    `regions that scroll: ${found.join(', ')}`,
  );
  // Scrolled to its end, a region fades its left edge instead.
  const end = await page.$eval(HOST, (el) => {
    const region = [...el.shadowRoot.querySelector('.chapter:not(.closed)').querySelectorAll('*')].find(
      (node) => getComputedStyle(node).overflowX === 'auto' && node.scrollWidth > node.clientWidth + 1,
    );
    region.scrollLeft = region.scrollWidth;
    return new Promise((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(getComputedStyle(region).maskImage))),
    );
  });
  assert.match(end, /^linear-gradient\((to right|90deg), rgba\(0, 0, 0, 0\), rgb\(0, 0, 0\) 40px\)$/);
  assert.deepEqual(errors, []);
  await page.close();
});
