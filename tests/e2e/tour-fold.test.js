// The guided tour on a 1440 × 900 screen with the trained decoder chosen: the steps about the designed heads' settings
// switch to the designed heads and say so, and every step about the weights keeps the whole heatmap in view beside the
// tour's rail (the weights, under the controls and More settings, used to end below the fold).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';
import { TOUR_STEPS } from '../../web/src/explorer/tour-steps.js';

const HOST = 'attention-explorer';
const shared = distAndBrowser();

test('at 1440 × 900 with the tour open, each step about the weights shows the whole heatmap, on the model its text is about', async () => {
  const { page, errors } = await openSite(shared, 'model=causal', { width: 1440, height: 900 });
  await flush(page);
  await page.click(`${HOST} .tour-start`);
  for (const step of TOUR_STEPS.filter((s) => s.view === 'attention' || s.figure === 'attention')) {
    // Through the panel's own link to the step, as a learner moves (Next): the reveal runs as for a click.
    while ((await page.$eval(HOST, (el) => el.state.tour)) !== step.id) await page.click(`${HOST} .tour-next`);
    await flush(page);
    await page.waitForTimeout(600); // the figures near the view draw, and the reveal holds the step in place
    const shown = await page.$eval(HOST, (el) => {
      const figure = el.shadowRoot.querySelector('[data-figure="attention-weights"]');
      const { top, bottom } = figure.getBoundingClientRect();
      return { top, bottom, model: el.state.model, text: el.shadowRoot.querySelector('.tour-text').textContent };
    });
    assert.ok(
      shown.top >= 0 && shown.bottom <= 900 + 1,
      `${step.id}: the heatmap from ${shown.top} to ${shown.bottom}`,
    );
    if (shown.model !== 'causal')
      assert.match(
        shown.text,
        /The tour shows the designed heads for this step; closing it gives your trained decoder back\./,
      );
    else assert.doesNotMatch(shown.text, /peaks on the diagonal|random here|switched off/, step.id);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
