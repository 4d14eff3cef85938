// A line chart's y title keeps clear of its tick labels, and both stay inside the chart (views/line-chart.js sizes its
// left margin from the labels): the float32 rotation error's log axis, whose "0.000001" ran into its title, and every
// other line chart of the positions chapter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const shared = distAndBrowser();

test('positions chapter, 1280×720: no y axis title over its tick labels, none cut at the left', async () => {
  const { page, errors } = await openSite(shared, 'chapter=positions', { width: 1280, height: 720 });
  await showSlot(page, 'rotation');
  const charts = await page.$eval('attention-explorer', (el) =>
    [...el.shadowRoot.querySelectorAll('.chapter:not(.closed) figure.line-chart')].map((figure) => {
      const svg = figure.querySelector('svg').getBoundingClientRect();
      const title = [...figure.querySelectorAll('svg > .axis-title')]
        .find((t) => t.getAttribute('transform')?.includes('rotate(-90)'))
        .getBoundingClientRect();
      const ticks = [...figure.querySelectorAll('.y-axis .tick text')]
        .filter((t) => t.textContent)
        .map((t) => t.getBoundingClientRect());
      return {
        name: figure.dataset.figure,
        svgLeft: svg.left,
        titleLeft: title.left,
        titleRight: title.right,
        ticksLeft: Math.min(...ticks.map((r) => r.left)),
      };
    }),
  );
  assert.ok(
    charts.some((c) => c.name === 'rotation-error'),
    `charts: ${charts.map((c) => c.name)}`,
  );
  for (const c of charts) {
    assert.ok(
      c.titleRight <= c.ticksLeft,
      `${c.name}: the y title (right ${c.titleRight}) runs into its ticks (${c.ticksLeft})`,
    );
    assert.ok(c.titleLeft >= c.svgLeft, `${c.name}: the y title is cut at the left`);
    assert.ok(c.ticksLeft >= c.svgLeft, `${c.name}: a tick label is cut at the left`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
