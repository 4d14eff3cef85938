// The line view draws any model's heads from its Run: the trained decoder's heads in both layers, named as in the heads
// figure, each line a weight of run.attention at or above the threshold, none to a later key (the causal mask).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const shared = distAndBrowser();

test('trained decoder: the line view draws the heads chosen, from both layers, exactly the weights above the threshold', async () => {
  const { page, errors } = await openSite(
    shared,
    'model=causal&sentence=the%20river%20bank%20was%20muddy%20after%20the%20storm',
  );
  await page.waitForFunction(() => document.querySelector('attention-explorer').getRun().status === 'ready', null, {
    timeout: 30000,
  });
  await showSlot(page, 'lines');
  // One box per head of the model, named as the heads figure names it; choose L1 H2 and L2 H3 (flat 1 and 6).
  const names = await page.$$eval('attention-explorer .line-heads label', (labels) =>
    labels.map((l) => l.textContent.trim()),
  );
  const { heads, numLayers } = await page.$eval('attention-explorer', (el) => ({
    heads: el.getRun().heads.length,
    numLayers: el.getRun().config.numLayers,
  }));
  assert.equal(names.length, heads, `a box per head: ${names}`);
  assert.match(names[0], /^L1 H1: /);
  assert.match(names[heads - 1], new RegExp(`^L${numLayers} H${heads / numLayers}: `));
  await page.check('attention-explorer .line-heads input[value="1"]');
  await page.check('attention-explorer .line-heads input[value="6"]');
  await page.uncheck('attention-explorer .line-heads input[value="0"]');
  await page.waitForFunction(() => {
    const lines = document
      .querySelector('attention-explorer')
      .shadowRoot.querySelectorAll('[data-figure="line-view"] line');
    return new Set([...lines].map((l) => l.dataset.head)).size === 2;
  });
  const { drawn, expected, later, legend } = await page.$eval('attention-explorer', (el) => {
    const run = el.getRun();
    const T = run.tokens.length;
    const threshold = el.state.lineThreshold;
    const figure = el.shadowRoot.querySelector('[data-figure="line-view"]');
    const drawn = [...figure.querySelectorAll('line')].map((l) => [
      Number(l.dataset.head),
      Number(l.dataset.query),
      Number(l.dataset.key),
      Number(l.dataset.weight),
    ]);
    const expected = [];
    for (const h of [1, 6])
      for (let i = 0; i < T; i++)
        for (let j = 0; j < T; j++) {
          const w = run.attention.data[(h * T + i) * T + j];
          if (w >= threshold && w > 0) expected.push([h, i, j, Number(w.toFixed(4))]);
        }
    return {
      drawn,
      expected,
      later: drawn.filter(([, i, j]) => j > i).length,
      legend: [...figure.querySelectorAll('.line-legend span')].map((s) => s.textContent),
    };
  });
  assert.deepEqual(drawn, expected, 'one line per weight at or above the threshold, of the heads chosen');
  assert.ok(drawn.length > 0);
  assert.equal(later, 0, 'no line to a later key: the decoder is causal');
  assert.deepEqual(legend, [names[1], names[6]], 'the key names the heads drawn');
  assert.deepEqual(errors, []);
  await page.close();
});
