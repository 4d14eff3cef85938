// Context moves meaning, trained, in headless Chromium: with a trained model chosen, the "bank" comparison shows the
// model's own vectors for "bank" in both sentences, and the cosines it shows equal cosines recomputed here from
// core.languageModel(kind).run() (the word vector checked against core.embed, x + P against core.sinusoidalEncoding);
// leaving the comparison gives back the learner's sentence and settings. Screenshots in test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const OUTPUT = 'test-output';
const shared = distAndBrowser();
mkdirSync(OUTPUT, { recursive: true });

/** The learner's own sentence and settings before the comparison. */
const MINE = {
  sentence: 'my own words about a muddy shore',
  positionalEncoding: 'rope',
  projection: 'random',
  maskedPositions: [1],
};
const settings = (el) => ({
  sentence: el.state.sentence,
  positionalEncoding: el.state.positionalEncoding,
  projection: el.state.projection,
  maskedPositions: el.state.maskedPositions,
});

/** A screenshot of the section "Context moves meaning": its intro, the button and the figure. */
async function sectionShot(page, name) {
  const section = await page.evaluateHandle(() =>
    document.querySelector('attention-explorer').shadowRoot.querySelector('.slot-contextTrained').closest('section'),
  );
  await section.screenshot({ path: `${OUTPUT}/${name}.png` });
}

/** What the figure shows: each stage's cosine (its data and its text), the plotted points, the caption and notes. */
function shown(page) {
  return page.$eval('attention-explorer', (el) => {
    const figure = el.shadowRoot.querySelector('[data-figure="context-trained"]');
    return {
      cosines: [...figure.querySelectorAll('.stage-cosine')].map((g) => ({
        value: Number(g.dataset.cosine),
        text: g.querySelector('text').textContent,
      })),
      ticks: [...figure.querySelectorAll('.context-cosines .stage-axis .tick text')].map((t) => t.textContent),
      points: [0, 1].map((s) =>
        [...figure.querySelectorAll(`.sentence-${s} .stage-point`)].map((c) => [
          Number(c.getAttribute('cx')),
          Number(c.getAttribute('cy')),
        ]),
      ),
      labels: [...figure.querySelectorAll('.context-paths .point-label')].map((t) => t.textContent),
      text: figure.textContent,
      designedShown: el.shadowRoot.querySelector('[data-figure="projection"]')?.checkVisibility() ?? false,
    };
  });
}

/**
 * Recomputed in the page from the model's run, with the vectors checked against the core's word vectors and P:
 * for "bank" in both comparison sentences, cos at the word vector, x + P and each layer's output.
 */
function recomputed(page, kind) {
  return page.$eval(
    'attention-explorer',
    async (el, kind) => {
      const model = await el.core.languageModel(kind);
      const sentences = [el.state.sentence, el.state.compareSentence];
      const runs = sentences.map((s) => model.run(s, { k: 1 }));
      const at = runs.map((r) => r.tokens.findIndex((t) => t.text.toLowerCase() === 'bank'));
      const d = model.config.dModel;
      const row = (m, s) => Array.from(m.data.subarray(at[s] * d, (at[s] + 1) * d));
      let maxEmbedError = 0,
        maxInputError = 0;
      sentences.forEach((sentence, s) => {
        const glove = el.core.embed(sentence);
        const p = el.core.sinusoidalEncoding(runs[s].tokens.length, d);
        for (let j = 0; j < d; ++j) {
          maxEmbedError = Math.max(
            maxEmbedError,
            Math.abs(runs[s].embeddings.data[at[s] * d + j] - glove.data[at[s] * d + j]),
          );
          maxInputError = Math.max(
            maxInputError,
            Math.abs(runs[s].input.data[at[s] * d + j] - (glove.data[at[s] * d + j] + p.data[at[s] * d + j])),
          );
        }
      });
      const cos = (a, b) => {
        const dot = a.reduce((sum, x, j) => sum + x * b[j], 0);
        return dot / Math.hypot(...a) / Math.hypot(...b);
      };
      const stages = [
        runs.map((r, s) => row(r.embeddings, s)),
        runs.map((r, s) => row(r.input, s)),
        ...runs[0].hidden.map((_, l) => runs.map((r, s) => row(r.hidden[l], s))),
      ];
      return {
        at,
        cosines: stages.map(([a, b]) => cos(a, b)),
        maxEmbedError,
        maxInputError,
        layers: model.config.numLayers,
      };
    },
    kind,
  );
}

for (const kind of ['masked', 'causal']) {
  test(`#model=${kind}: the comparison shows ${kind === 'masked' ? 'the encoder' : 'the decoder'}'s "bank" at each stage with the recomputed cosines, and gives back the learner's settings`, async () => {
    const { page, errors } = await openSite(shared, `model=${kind}`);
    await page.$eval('attention-explorer', (el, change) => el.change(change), MINE);
    await showSlot(page, 'contextTrained');
    assert.match((await shown(page)).text, /Compare “bank”/, 'before the comparison: what the button does');
    await page.click('attention-explorer .compare-button');
    await page.waitForSelector('attention-explorer [data-figure="context-trained"] .stage-cosine', { timeout: 30000 });
    await showSlot(page, 'contextTrained');
    const view = await shown(page);
    const expected = await recomputed(page, kind);

    // The model's input rows are the core's GloVe vectors, and x + P their sum with the core's sinusoidal P.
    assert.equal(expected.maxEmbedError, 0, 'word vector = core.embed row');
    assert.ok(
      expected.maxInputError < 1e-6,
      `x + P = embed + sinusoidalEncoding (max error ${expected.maxInputError})`,
    );
    assert.deepEqual(expected.at, [2, 5], '"bank" is token 2 and token 5');
    assert.equal(view.cosines.length, 2 + expected.layers, 'word vector, x + P, one per layer');
    assert.deepEqual(view.ticks, [
      'x',
      'x + P',
      ...Array.from({ length: expected.layers }, (_, l) => `layer ${l + 1}`),
    ]);
    view.cosines.forEach(({ value, text }, k) => {
      assert.ok(
        Math.abs(value - expected.cosines[k]) < 1e-9,
        `stage ${k}: shown ${value}, recomputed ${expected.cosines[k]}`,
      );
      assert.equal(text, expected.cosines[k].toFixed(2), `stage ${k}'s label`);
    });
    assert.equal(view.cosines[0].text, '1.00', 'before attention and position: the same word vector');
    assert.ok(Math.abs(view.cosines[0].value - 1) < 1e-12);
    assert.ok(view.cosines[1].value < 1, 'x + P: the positions differ');
    // The word vector is one point for both sentences; every later stage is two.
    assert.deepEqual(view.points[0][0], view.points[1][0]);
    for (let k = 1; k < view.points[0].length; ++k)
      assert.notDeepEqual(view.points[0][k], view.points[1][k], `stage ${k}`);
    assert.ok(view.labels.includes('x (both)'), view.labels.join(' | '));
    assert.match(
      view.text,
      /Our [24]-layer (encoder|decoder), trained on [\d.]+ M tokens/,
      'says which model and how much it read',
    );
    assert.match(view.text, new RegExp(`through the trained ${kind === 'masked' ? 'encoder' : 'decoder'}`));
    if (kind === 'causal') assert.match(view.text, /sees only “the river bank” and “she deposited money at the bank”/);
    assert.equal(view.designedShown, false, "the designed heads' projection steps aside");
    await sectionShot(page, `context-trained-${kind}`);
    if (kind === 'masked') {
      await page.setViewportSize({ width: 390, height: 844 });
      await showSlot(page, 'contextTrained');
      await sectionShot(page, 'context-trained-masked-phone');
      const width = await page.$eval(
        'attention-explorer',
        (el) => el.shadowRoot.querySelector('[data-figure="context-trained"]').scrollWidth,
      );
      assert.ok(width <= 390, `fits a 390 px phone (${width} px)`);
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    await page.click('attention-explorer .compare-button');
    await showSlot(page, 'contextTrained');
    assert.deepEqual(
      await page.$eval('attention-explorer', settings),
      MINE,
      "the learner's sentence and settings are back",
    );
    assert.equal(
      await page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('textarea').value),
      MINE.sentence,
    );
    assert.match((await shown(page)).text, /Compare “bank”/);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
