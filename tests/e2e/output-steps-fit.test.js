// Inside one head with a trained decoder, the output layer's strips at a learner's window sizes: the logits' twenty
// words fit their card (inside-head/stepper.js stepWidthBudget leaves room for the neighbouring steps beside it), and
// the softmax step's colours span the probabilities drawn (output-steps.js weightMax), not all of [0, 1], where twenty
// values of a few percent were one colour.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const shared = distAndBrowser();

/** Opens step `step` of the stepper; the card's box and scroll, its last column label's box, its cells' colours. */
async function openStep(page, step) {
  await page.click(`attention-explorer [data-figure="pipeline"] .step-number[data-step="${step}"]`);
  await page.waitForSelector(`attention-explorer [data-figure="pipeline"][data-step="${step}"] .heatmap-plot canvas`);
  return page.$eval('attention-explorer [data-figure="pipeline"] .step', (card) => {
    const box = card.getBoundingClientRect();
    const label = [...card.querySelectorAll('.axis-cols .tick text')].at(-1).getBoundingClientRect();
    const canvas = card.querySelector('.heatmap-plot canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const brightness = [];
    for (let k = 0; k < pixels.length; k += 4)
      if (pixels[k + 3] > 0) brightness.push(pixels[k] + pixels[k + 1] + pixels[k + 2]);
    return {
      title: card.querySelector('h3').textContent,
      cardRight: box.right,
      scrolls: card.scrollWidth > card.clientWidth,
      lastLabelRight: label.right,
      brightness: [Math.min(...brightness), Math.max(...brightness)],
    };
  });
}

for (const viewport of [
  { width: 960, height: 720 },
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`${viewport.width}×${viewport.height}, decoder: the logits fit their card, the probabilities span their colours`, async () => {
    const { page, errors } = await openSite(shared, 'model=causal&chapter=inside-head', viewport);
    await page.waitForSelector('attention-explorer [data-figure="pipeline"]', { timeout: 30000 });
    const count = Number(await page.$eval('attention-explorer [data-figure="pipeline"]', (s) => s.dataset.steps));
    const logits = await openStep(page, count - 2);
    assert.match(logits.title, /Logits/);
    assert.ok(!logits.scrolls, 'the logits card scrolls sideways');
    assert.ok(
      logits.lastLabelRight <= logits.cardRight,
      `the 20th word ends at ${logits.lastLabelRight}, past its card's edge at ${logits.cardRight}`,
    );
    const softmax = await openStep(page, count - 1);
    assert.match(softmax.title, /Softmax/);
    assert.ok(!softmax.scrolls, 'the softmax card scrolls sideways');
    const [dark, light] = softmax.brightness;
    assert.ok(light - dark > 150, `the probabilities' colours differ by ${light - dark} (r + g + b) only`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
