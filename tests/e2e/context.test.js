// Context moves meaning, on the demo page in headless Chromium: the words' vectors and outputs on their principal
// axes, alone and in the comparison of two sentences ("bank" starts at the same point and is pulled two ways).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OUTPUT, demoPage } from './demo-page.js';

let page, consoleErrors, foreignRequests;
const { typeSentence, showSlot } = demoPage((demo) => ({ page, consoleErrors, foreignRequests } = demo));

test('context moves meaning: the labels of the words overlap neither each other nor any point, alone and in the comparison', async () => {
  await typeSentence('The river bank was muddy after the storm');
  await showSlot('projection');
  const overlaps = () =>
    page.$eval('attention-explorer', (el) => {
      const figure = el.shadowRoot.querySelector('[data-figure="projection"]');
      const boxes = [...figure.querySelectorAll('text')]
        .filter((t) => t.closest('.moved-token'))
        .map((t) => t.getBBox());
      const points = [...figure.querySelectorAll('.moved-token circle')].map((c) => [
        Number(c.getAttribute('cx')),
        Number(c.getAttribute('cy')),
      ]);
      const found = [];
      boxes.forEach((a, i) =>
        boxes.slice(i + 1).forEach((b) => {
          if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
            found.push('two labels');
        }),
      );
      for (const a of boxes)
        for (const [x, y] of points)
          if (x > a.x && x < a.x + a.width && y > a.y && y < a.y + a.height) found.push('a point');
      return { labels: boxes.length, found };
    });
  assert.deepEqual(await overlaps(), { labels: 8, found: [] });
  await page.click('.compare-button');
  await showSlot('projection');
  assert.deepEqual(await overlaps(), { labels: 11, found: [] });
  await page.click('.compare-button');
});

test('comparison: "bank" starts at the same point in both sentences and moves, and leaving gives back the sentence and settings; screenshot', async () => {
  await showSlot('projection');
  const mine = {
    sentence: 'my own words about a muddy shore',
    positionalEncoding: 'sinusoidal',
    projection: 'random',
    maskedPositions: [2],
  };
  await page.$eval('attention-explorer', (el, change) => el.change(change), mine);
  const settings = (el) => ({
    sentence: el.state.sentence,
    positionalEncoding: el.state.positionalEncoding,
    projection: el.state.projection,
    maskedPositions: el.state.maskedPositions,
  });
  await page.click('.compare-button');
  assert.deepEqual(await page.$eval('attention-explorer', settings), {
    sentence: 'the river bank was muddy',
    positionalEncoding: 'none',
    projection: 'identity',
    maskedPositions: [],
  });
  await showSlot('projection');
  const points = await page.$$eval('[data-figure="projection"] .sentence', (groups) =>
    groups.map((g) => {
      const bank = [...g.querySelectorAll('.moved-token')].find((t) => t.dataset.token === 'bank');
      const [from, to] = bank.querySelectorAll('circle');
      return {
        from: [from.getAttribute('cx'), from.getAttribute('cy')],
        to: [to.getAttribute('cx'), to.getAttribute('cy')],
      };
    }),
  );
  assert.equal(points.length, 2);
  assert.deepEqual(points[0].from, points[1].from);
  assert.notDeepEqual(points[0].to, points[1].to);
  await page.locator('[data-figure="projection"]').screenshot({ path: `${OUTPUT}/projection.png` });
  await page.click('.compare-button');
  await showSlot('projection');
  assert.equal(await page.$$eval('[data-figure="projection"] .sentence', (g) => g.length), 1);
  assert.deepEqual(await page.$eval('attention-explorer', settings), mine);
  assert.equal(
    await page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('textarea').value),
    mine.sentence,
  );
});

test('no console errors and nothing loaded from another origin', () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
});
