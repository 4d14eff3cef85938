// The Learn chapter's language task, as a learner trains it: the untrained model's guesses come with a note (its
// output is tied to the word vectors, so it copies context words) until the first evaluation; the loss chart draws
// nothing over its caption (the first losses, ~17 nats, run off the top of the plot, clipped); and every held-out
// evaluation stays on the chart as training goes on (history-thinning.js), past the point where the history is thinned.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const HOST = 'attention-explorer';
const shared = distAndBrowser();

/** The readout's numbers and what the chart and the next-word figure show. */
function read(page) {
  return page.$eval(HOST, (el) => {
    const root = el.shadowRoot;
    const d = root.querySelector('.language-lesson .learn-readout')?.dataset ?? {};
    const held = root.querySelector('[data-figure="learn-language-loss"] path.series[data-series="held-out loss"]');
    const note = root.querySelector('[data-figure="learn-language-next"] .untrained-note');
    return {
      step: Number(d.step),
      lossStep: Number(d.lossStep),
      running: d.running === 'true',
      points: held ? (held.getAttribute('d').match(/[ML]/g) ?? []).length : 0,
      note: note?.checkVisibility() ? note.textContent : null,
    };
  });
}

/** Pixels of the two loss lines' colours (#1f77b4, #9ecae1) inside the chart caption's box, from a screenshot. */
async function linePixelsOverCaption(page) {
  // The chart is drawn anew with each snapshot (a locator's element goes stale): scrolled to and measured in one call.
  const box = await page.$eval(HOST, (el) => {
    const caption = el.shadowRoot.querySelector('[data-figure="learn-language-loss"] figcaption');
    caption.scrollIntoView({ block: 'center' });
    const { x, y, width, height } = caption.getBoundingClientRect();
    return { x, y, width, height };
  });
  const png = await page.screenshot({ clip: box });
  return page.evaluate(async (b64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${b64}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    const near = (i, [r, g, b]) => Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 60;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (near(i, [31, 119, 180]) || near(i, [158, 202, 225])) count += 1;
    return count;
  }, png.toString('base64'));
}

test('language task: the untrained note, nothing over the caption, and every evaluation on the chart', async () => {
  const { page, errors } = await openSite(
    shared,
    'chapter=learn&trainTask=language&sentence=the%20river%20flows%20into%20the',
  );
  await page.waitForSelector(`${HOST} [data-figure="learn-language-next"] section[data-model="yours"] li`, {
    timeout: 60000,
  });
  const start = await read(page);
  assert.equal(start.step, 0);
  assert.match(start.note ?? '', /tied to the word vectors, so it copies words it has seen in the context/);

  await page.click(`${HOST} .language-lesson [data-action="train"]`);
  // The first evaluation after step 0: the note goes; the chart's first segment falls from ~17 nats.
  await page.waitForFunction(
    (host) =>
      Number(
        document.querySelector(host).shadowRoot.querySelector('.language-lesson .learn-readout')?.dataset.lossStep,
      ) > 0,
    HOST,
    { timeout: 60000 },
  );
  await page.waitForFunction(
    (host) =>
      !document.querySelector(host).shadowRoot.querySelector('[data-figure="learn-language-next"] .untrained-note'),
    HOST,
  );
  assert.equal(await linePixelsOverCaption(page), 0, 'no loss line over the caption (first evaluations)');

  // Train on, noting every evaluation as it comes (one every ~2.5 s; the history is thinned past 600 snapshots, ~45 s).
  const evaluated = new Set([0]);
  const until = Date.now() + 70000;
  while (Date.now() < until) {
    evaluated.add((await read(page)).lossStep);
    await page.waitForTimeout(400);
  }
  await page.click(`${HOST} .language-lesson [data-action="train"]`); // pause
  await page.waitForFunction(
    (host) =>
      document.querySelector(host).shadowRoot.querySelector('.language-lesson .learn-readout')?.dataset.running ===
      'false',
    HOST,
  );
  const end = await read(page);
  evaluated.add(end.lossStep);
  console.log(
    `# ${evaluated.size} evaluations seen up to step ${end.step}; the held-out line has ${end.points} points`,
  );
  assert.ok(end.points >= evaluated.size, `every evaluation seen (${evaluated.size}) is a point (${end.points})`);
  assert.equal(await linePixelsOverCaption(page), 0, 'no loss line over the caption (end)');
  assert.deepEqual(errors, []);
  await page.close();
});
