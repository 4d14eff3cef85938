// A trained model on the learner's own sentence, end to end in headless Chromium: the model choice by link
// and by attribute, the learned heads labelled with the page core's measurements, the decoder's next-word
// bars and the encoder's blank equal to what the core's language model computes in the same page, and the
// settings the model fixes shown as fixed.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const OUTPUT = 'test-output';
const shared = distAndBrowser();
mkdirSync(OUTPUT, { recursive: true });

/** Waits until the trained model's figures are drawn (the model loads once, asynchronously). */
async function trainedDrawn(page) {
  await page.waitForSelector('attention-explorer [data-figure="predictions"]', { timeout: 30000 });
  await page.waitForSelector('attention-explorer [data-figure="heads"]');
}

/** What the page shows: each head's label and score, the prediction sections' words and probabilities. */
function shown(page) {
  return page.$eval('attention-explorer', (el) => {
    const root = el.shadowRoot;
    return {
      heads: [...root.querySelectorAll('[data-figure="heads"] .head-thumb')].map((b) => ({
        layer: Number(b.dataset.layer),
        head: Number(b.dataset.head),
        label: b.dataset.label,
        score: Number(b.dataset.score),
        text: b.querySelector('.head-line').textContent,
        selected: b.getAttribute('aria-pressed') === 'true',
      })),
      predictions: [...root.querySelectorAll('[data-figure="predictions"] section')].map((s) => ({
        position: Number(s.dataset.position),
        hidden: s.dataset.hidden,
        rank: s.dataset.rank,
        words: [...s.querySelectorAll('li')].map((li) => li.dataset.word),
        p: [...s.querySelectorAll('li')].map((li) => Number(li.dataset.p)),
      })),
      // One weights figure serves every model: it shows the designed heads' unless its caption names a trained model.
      designedShown: !/of the trained/.test(
        root.querySelector('[data-figure="attention-weights"] figcaption')?.textContent,
      ),
      note: root.querySelector('.fixed-note').hidden ? null : root.querySelector('.fixed-note').textContent,
      settingsLine: root.querySelector('.more-settings > summary').textContent,
      maskSelectShown: root.querySelector('select[name="mask"]').checkVisibility(),
      choice: [...root.querySelectorAll('.model-option')].map((b) => [b.dataset.model, b.getAttribute('aria-checked')]),
    };
  });
}

test("#model=causal: the learned heads carry the measured labels, and the next-word bars are run()'s own probabilities for the last token", async () => {
  const { page, errors } = await openSite(shared, 'model=causal');
  await trainedDrawn(page);
  const view = await shown(page);
  const expected = await page.$eval('attention-explorer', async (el) => {
    const model = await el.core.languageModel('causal');
    // The bars: the sampling distribution at the defaults (output temperature 1, every word), <unk> apart.
    const run = model.run(el.sentence, { k: 10, positions: [-1], sampling: { temperature: 1, topK: 0 } });
    return {
      heads: model.config.heads,
      top: run.sampling.at(-1),
      modelTop: run.top.at(-1),
      unk: run.unk.at(-1),
      layers: model.config.numLayers,
      perLayer: model.config.numHeads,
    };
  });
  assert.equal(view.heads.length, expected.layers * expected.perLayer, 'layers × heads');
  const scoreOf = {
    previous: 'previous',
    next: 'next',
    self: 'self',
    first: 'first',
    'same word': 'sameWord',
    prefix: 'prefix',
    induction: 'induction',
  };
  for (const head of view.heads) {
    const measured = expected.heads.find((h) => h.layer === head.layer && h.head === head.head);
    assert.equal(head.label, measured.label, `L${head.layer} H${head.head}'s label`);
    const scores = Object.values(scoreOf).map((field) => measured[field]);
    const score = measured.label === 'mixed' ? Math.max(...scores) : measured[scoreOf[measured.label]];
    assert.equal(head.score, score, `L${head.layer} H${head.head}'s score`);
    // 2 decimals, or more where 2 would round a mixed head's score up to the threshold (head-labels.test.js).
    const quoted = head.text.match(/\d\.\d+/)[0];
    assert.equal(quoted, score.toFixed(quoted.length - 2), `${head.text} quotes its score`);
  }
  assert.ok(
    view.heads.some((h) => h.label === 'previous'),
    'the decoder has a measured previous-word head',
  );
  assert.equal(view.heads.find((h) => h.selected).label, 'previous', 'selected by default: the previous-word head');
  assert.equal(view.predictions.length, 1);
  // At the defaults (output temperature 1, every word kept) the bars are the model's own p, as everywhere on the page.
  assert.deepEqual(
    view.predictions[0].words,
    expected.modelTop.map((w) => w.word),
  );
  assert.deepEqual(
    view.predictions[0].p,
    expected.modelTop.map((w) => w.p),
  );
  // At temperature 1 with every word kept, q is the model's p renormalised over the words: p / (1 − p(<unk>)).
  expected.modelTop.forEach((w, i) => assert.ok(Math.abs(w.p / (1 - expected.unk) - expected.top[i].p) < 1e-5));
  assert.equal(view.designedShown, false, 'the designed heads step aside');
  assert.match(view.note, /trained decoder .* causal mask/, 'the fixed settings say why');
  assert.equal(view.settingsLine, 'Settings: fixed by the trained decoder', 'the rest fold under one line');
  assert.equal(view.maskSelectShown, false, 'the mask it fixes is not offered');
  assert.deepEqual(
    view.choice.find(([, checked]) => checked === 'true'),
    ['causal', 'true'],
  );
  await page.screenshot({ path: `${OUTPUT}/trained-causal.png` });

  // Pointing at a row of the weights: what the decoder predicted there, and how it rated the word that came.
  const canvas = await page
    .locator('attention-explorer [data-figure="attention-weights"] .heatmap-plot canvas')
    .boundingBox();
  const T = 8;
  await page.mouse.move(canvas.x + 3, canvas.y + (2.5 * canvas.height) / T); // row 2: after "The river bank"
  await page.waitForSelector('attention-explorer [data-figure="predictions"] section[data-focus]');
  const pointed = await page.$eval('attention-explorer', (el) => {
    const section = el.shadowRoot.querySelector('[data-figure="predictions"] section[data-focus]');
    return {
      position: Number(section.dataset.position),
      rank: section.dataset.rank,
      title: section.querySelector('.prediction-title').textContent,
      words: [...section.querySelectorAll('li')].map((li) => li.dataset.word),
    };
  });
  const at2 = await page.$eval('attention-explorer', async (el) =>
    (await el.core.languageModel('causal')).run(el.sentence, { k: 100, positions: [2] }).top[2].map((w) => w.word),
  );
  assert.equal(pointed.position, 2);
  assert.deepEqual(pointed.words, at2.slice(0, 10));
  const rank = at2.indexOf('was') + 1;
  assert.equal(pointed.rank, rank ? String(rank) : undefined, 'the rank of the word that came, "was"');
  assert.match(pointed.title, /^After “The river bank” it expected: the word that came, “was”: /);
  await page.screenshot({ path: `${OUTPUT}/trained-causal-pointed.png` });
  // The pointer leaves the weights: the panel shows the next word after the whole sentence again.
  await page.mouse.move(canvas.x - 40, canvas.y - 40);
  await page.waitForFunction(
    () =>
      !document
        .querySelector('attention-explorer')
        .shadowRoot.querySelector('[data-figure="predictions"] section[data-focus]'),
  );

  // A keystroke: the bars follow the new sentence.
  await page.fill('attention-explorer textarea', 'In the beginning God created the');
  await page.waitForFunction(() =>
    document
      .querySelector('attention-explorer')
      .shadowRoot.querySelector('[data-figure="predictions"] .prediction-title')
      ?.textContent.includes('created the'),
  );
  const after = await shown(page);
  const top = await page.$eval('attention-explorer', async (el) =>
    (await el.core.languageModel('causal'))
      .run('In the beginning God created the', { k: 10, positions: [-1] })
      .top.at(-1)
      .map((w) => w.word),
  );
  assert.deepEqual(after.predictions[0].words, top);
  // Another head, picked in the grid, is drawn large.
  await page.click('attention-explorer [data-figure="heads"] .head-thumb[data-layer="1"][data-head="0"]');
  assert.match(
    await page.$eval(
      'attention-explorer',
      (el) => el.shadowRoot.querySelector('[data-figure="attention-weights"] figcaption').textContent,
    ),
    /^Attention weights of L2 H1 of the trained decoder/,
  );
  assert.match(page.url(), /model=causal/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("#model=masked: clicking a word makes it [MASK] and shows fillMask's top 10 with the hidden word's rank", async () => {
  const { page, errors } = await openSite(shared, 'model=masked');
  await trainedDrawn(page);
  assert.deepEqual((await shown(page)).predictions, [], 'no blank yet: the figure says to click a word');
  const first = (await shown(page)).heads.find((h) => h.selected);
  assert.equal(first.label, 'previous', "selected by default: the encoder's previous-word head");
  await page.click('attention-explorer .tokens [data-index="1"]'); // "river"
  await page.waitForSelector('attention-explorer [data-figure="predictions"] section');
  const view = await shown(page);
  const expected = await page.$eval('attention-explorer', async (el) =>
    (await el.core.languageModel('masked')).fillMask('The [MASK] bank was muddy after the storm', 100),
  );
  assert.equal(view.predictions.length, 1);
  assert.equal(view.predictions[0].position, expected[0].position);
  assert.deepEqual(
    view.predictions[0].words,
    expected[0].top.slice(0, 10).map((w) => w.word),
  );
  assert.deepEqual(
    view.predictions[0].p,
    expected[0].top.slice(0, 10).map((w) => w.p),
    "the bars: the model's own probabilities at the defaults, fillMask's",
  );
  assert.equal(view.predictions[0].hidden, 'river');
  const rank = expected[0].top.findIndex((w) => w.word === 'river') + 1;
  assert.equal(view.predictions[0].rank, rank ? String(rank) : undefined, "the hidden word's rank among the top 100");
  assert.match(view.note, /trained encoder .* bidirectional mask/);
  await page.screenshot({ path: `${OUTPUT}/trained-masked.png` });
  // Back to the designed heads: their figures return.
  await page.click('attention-explorer .model-option[data-model="designed"]');
  await page.waitForSelector('attention-explorer [data-figure="attention-weights"]');
  assert.equal((await shown(page)).designedShown, true);
  assert.equal((await shown(page)).note, null);
  assert.equal((await shown(page)).settingsLine, 'More settings');
  assert.deepEqual(errors, []);
  await page.close();
});

test("on a 390 px phone the decoder's first figure comes before the settings, which fold under one line", async () => {
  const { page, errors } = await openSite(shared, 'model=causal', { width: 390, height: 844 });
  // The weights, then the next word, fill the first screens; the heads' grid follows, drawn when scrolled near.
  await page.waitForSelector('attention-explorer [data-figure="predictions"]', { timeout: 30000 });
  const top = (selector) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => el.getBoundingClientRect().top);
  const figure = await top('attention-explorer [data-figure="attention-weights"]');
  assert.ok(
    (await top('attention-explorer [data-figure="predictions"]')) > figure,
    'the next word comes right after the weights',
  );
  const settings = await page.$eval(
    'attention-explorer',
    (el) =>
      [...el.shadowRoot.querySelectorAll('form.controls:not(.line-controls, .sampling-controls) .control')].filter(
        (c) => c.checkVisibility(),
      ).length,
  );
  assert.equal(settings, 0, 'no setting in view until the line is opened');
  assert.ok(figure < 844, `the first figure starts at ${figure} px, in the first screen`);
  await page.screenshot({ path: `${OUTPUT}/trained-causal-phone.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('embedded: model="masked" fills a mask; a model that does not exist is named, and the designed heads stay', async () => {
  const { page, errors } = await openSite(shared);
  await page.evaluate(() => {
    document.body.innerHTML =
      '<attention-explorer id="lm" model="masked" sentence="she deposited money at the bank" views="tokens,attention,predictions">' +
      '</attention-explorer><attention-explorer id="bad" model="gpt-5"></attention-explorer>';
  });
  await page.waitForFunction(() => document.getElementById('bad').getTrace?.());
  assert.match(
    await page.$eval('#bad', (el) => el.shadowRoot.querySelector('.config-errors').textContent),
    /Attribute model="gpt-5": must be one of designed, causal, masked/,
  );
  assert.equal(await page.$eval('#bad', (el) => el.state.model), 'designed');
  await page.waitForSelector('#lm [data-figure="predictions"]', { timeout: 30000 });
  await page.click('#lm .tokens [data-index="5"]'); // "bank"
  await page.waitForSelector('#lm [data-figure="predictions"] section li');
  const words = await page.$$eval('#lm [data-figure="predictions"] section li', (items) =>
    items.map((li) => li.dataset.word),
  );
  const expected = await page.$eval('#lm', async (el) =>
    (await el.core.languageModel('masked')).fillMask('she deposited money at the [MASK]', 10)[0].top.map((w) => w.word),
  );
  assert.deepEqual(words, expected);
  assert.deepEqual(errors, []);
  await page.close();
});

test('embedded: model="causal" shows the decoder on the first screen, its next words run()\'s top for the last token', async () => {
  const { page, errors } = await openSite(shared);
  await page.evaluate(() => {
    document.body.innerHTML =
      '<attention-explorer id="gpt" model="causal" sentence="the river bank was muddy after the" ' +
      'views="tokens,heads,attention,predictions"></attention-explorer>';
  });
  await page.waitForSelector('#gpt [data-figure="predictions"] section li', { timeout: 30000 });
  const words = await page.$$eval('#gpt [data-figure="predictions"] section li', (items) =>
    items.map((li) => li.dataset.word),
  );
  const expected = await page.$eval('#gpt', async (el) =>
    (await el.core.languageModel('causal'))
      .run('the river bank was muddy after the', { positions: [-1] })
      .top.at(-1)
      .map((w) => w.word),
  );
  assert.deepEqual(words, expected);
  assert.equal(
    await page.$$eval('#gpt [data-figure="heads"] .head-thumb', (heads) => heads.length),
    16,
    'its 4 × 4 learned heads',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hand-edited link with a trained head past the last (trainedHead=99) shows the last head, with no error', async () => {
  const { page, errors } = await openSite(shared, 'model=causal&trainedHead=99');
  await page.waitForSelector('attention-explorer [data-figure="attention-weights"]', { timeout: 30000 });
  const caption = await page.$eval(
    'attention-explorer',
    (el) => el.shadowRoot.querySelector('[data-figure="attention-weights"] figcaption').textContent,
  );
  assert.match(caption, /L4 H4/); // the decoder's last of 4 × 4
  assert.deepEqual(errors, []);
  await page.close();
});
