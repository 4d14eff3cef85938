// The demo page end to end in headless Chromium: type sentences, read the figures back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flush } from './browser.js';
import { OUTPUT, demoPage } from './demo-page.js';
import { formSettings } from '../../web/src/explorer/settings-form.js';

let server, browser, page, consoleErrors, foreignRequests;
const { typeSentence, showSlot } = demoPage(
  (demo) => ({ server, browser, page, consoleErrors, foreignRequests } = demo),
);

async function readHeatmap(name) {
  await showSlot(name === 'lab-encoding' ? 'labEncoding' : 'attention');
  return page.$eval(`[data-figure="${name}"]`, (figure) => ({
    rows: Number(figure.dataset.rows),
    cols: Number(figure.dataset.cols),
    rowLabels: [...figure.querySelectorAll('.axis-rows .tick text')].map((t) => t.textContent),
    colLabels: [...figure.querySelectorAll('.axis-cols .tick text')].map((t) => t.textContent),
  }));
}

async function tokenTexts() {
  return page.$$eval('[data-figure="tokens"] .token-text', (items) => items.map((item) => item.textContent));
}

test('typing two sentences redraws the heatmaps with the tokens as labels', async () => {
  for (const [sentence, expected] of [
    ['The river bank was muddy after the storm', ['The', 'river', 'bank', 'was', 'muddy', 'after', 'the', 'storm']],
    ['She deposited money at the bank.', ['She', 'deposited', 'money', 'at', 'the', 'bank', '.']],
  ]) {
    await typeSentence(sentence);
    assert.deepEqual(await tokenTexts(), expected);
    const attention = await readHeatmap('attention-weights');
    assert.equal(attention.rows, expected.length);
    assert.equal(attention.cols, expected.length);
    assert.deepEqual(attention.rowLabels, expected);
    assert.deepEqual(attention.colLabels, expected);
    const positional = await readHeatmap('lab-encoding');
    assert.equal(positional.rows, expected.length);
    assert.equal(positional.cols, 100);
    assert.deepEqual(
      positional.rowLabels,
      expected.map((t, i) => `${i} ${t}`),
    );
  }
  await typeSentence('The river bank was muddy after the storm');
  await page.screenshot({ path: `${OUTPUT}/river-bank.png`, fullPage: true });
});

test("contractions become GloVe's chips (did + n't, all with vectors); an unknown word is dashed and says why", async () => {
  await typeSentence("The animal didn't cross the street because it's blorptastic");
  const chips = await page.$$eval('[data-figure="tokens"] .token', (items) =>
    items.map((item) => ({
      text: item.querySelector('.token-text').textContent,
      oov: item.classList.contains('oov'),
      title: item.title,
      start: Number(item.dataset.start),
      end: Number(item.dataset.end),
    })),
  );
  assert.deepEqual(
    chips.map((c) => c.text),
    ['The', 'animal', 'did', "n't", 'cross', 'the', 'street', 'because', 'it', "'s", 'blorptastic'],
  );
  assert.deepEqual(
    chips.filter((c) => c.oov).map((c) => c.text),
    ['blorptastic'],
  );
  assert.deepEqual([chips[3].start, chips[3].end], [14, 17]);
  const unknown = chips.at(-1);
  assert.match(unknown.title, /not in the 25,477-word GloVe vocabulary: a stand-in vector hashed from the word/);
  assert.equal(
    await page.$eval('[data-figure="tokens"] .token.oov', (item) => getComputedStyle(item).borderStyle),
    'dashed',
  );
  await typeSentence('The river bank was muddy after the storm'); // the tests below read this sentence
});

test('the trace behind the figures: rows sum to 1, causal upper triangle exactly 0', async () => {
  await page.selectOption('select[name="mask"]', 'causal');
  const { weights, n } = await page.$eval('attention-explorer', (el) => {
    const t = el.getTrace();
    return { weights: Array.from(t.weights.data), n: t.tokens.length };
  });
  for (let i = 0; i < n; i++) {
    const row = weights.slice(i * n, (i + 1) * n);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    for (let j = i + 1; j < n; j++) assert.equal(row[j], 0, `weight (${i}, ${j})`);
  }
  await page.selectOption('select[name="mask"]', 'bidirectional');
});

test('the settings form holds the controls the state schema describes, no other, in its order and places', async () => {
  const shown = await page.$eval('attention-explorer', (el) =>
    [...el.shadowRoot.querySelector('form[aria-label="Attention settings"]').elements]
      .filter((control) => control.name)
      .map((control) => [control.name, control.closest('.more-settings') ? 'more' : 'view']),
  );
  assert.deepEqual(
    shown,
    formSettings().map(({ name, setting }) => [name, setting.control.place]),
  );
});

test('changing the number of heads offers that many heads and redraws the chosen one', async () => {
  await page.selectOption('select[name="numHeads"]', '4');
  assert.equal(await page.$$eval('select[name="head"] option', (o) => o.length), 4);
  await showSlot('heads');
  assert.equal(await page.$$eval('[data-figure="heads"] .head-thumb', (b) => b.length), 4);
  await page.selectOption('select[name="projection"]', 'random');
  await page.selectOption('select[name="head"]', '2');
  const caption = await page.textContent('[data-figure="attention-weights"] figcaption');
  assert.match(caption, /L1 H3 \(/);
  const shape = await page.$eval('attention-explorer', (el) => el.getTrace().weights.shape);
  assert.deepEqual(shape, [4, 8, 8]);
});

test('hovering a cell shows its exact value', async () => {
  await page.locator('[data-figure="attention-weights"] canvas').scrollIntoViewIfNeeded();
  const box = await page.$eval('[data-figure="attention-weights"] canvas', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width };
  });
  const cell = box.w / 8;
  await page.mouse.move(box.x + cell * 2.5, box.y + cell * 1.5); // query 1 "river", key 2 "bank"
  const text = await page.textContent('[data-figure="attention-weights"] .tooltip');
  assert.match(text, /query "river" \(1\) → key "bank" \(2\): weight 0\.\d{4}/);
});

test('empty text shows an empty state; too long text is cut with a notice', async () => {
  await typeSentence('   ');
  assert.equal(await page.isVisible('.empty-state'), true);
  assert.equal(await page.isVisible('[data-figure="attention-weights"]'), false);
  await page.fill('attention-explorer textarea', 'word '.repeat(300));
  await flush(page);
  assert.match(await page.textContent('.notice'), /first 256 of 300 tokens/);
  assert.equal((await readHeatmap('attention-weights')).rows, 256);
  await typeSentence('The river bank was muddy after the storm');
});

test('an invalid setting shows its message and keeps the last good figures', async () => {
  // From JavaScript: refused before it reaches the core (3 does not divide 100), shown and thrown
  const thrown = await page.$eval('attention-explorer', (el) => {
    try {
      el.change({ numHeads: 3 });
    } catch (error) {
      return error.message;
    }
    return null;
  });
  assert.match(thrown, /^numHeads = 3, headKinds = .*: the number of heads must divide d_model = 100/);
  assert.equal(await page.textContent('attention-explorer .status'), thrown);
  assert.equal((await readHeatmap('attention-weights')).rows, 8);
  await page.$eval('attention-explorer', (el) => el.change({ numHeads: 2 }));
  assert.equal(await page.textContent('attention-explorer .status'), '');
  // From a link edited by hand (in a page of its own): the core refuses it, with its own message
  const linked = await browser.context.newPage();
  await linked.goto(`${server.url}#numHeads=3`);
  await linked.waitForFunction(() =>
    /numHeads must divide d_model = 100, got 3/.test(
      document.querySelector('attention-explorer')?.shadowRoot.querySelector('.status')?.textContent,
    ),
  );
  await linked.close();
});

test('small multiples: one per head; clicking one selects it', async () => {
  await page.selectOption('select[name="numHeads"]', '5');
  await showSlot('heads');
  assert.equal(await page.$$eval('[data-figure="heads"] .head-thumb', (b) => b.length), 5);
  await page.click('[data-figure="heads"] .head-thumb[data-head="3"]');
  assert.equal(await page.inputValue('select[name="head"]'), '3');
  assert.match(await page.textContent('[data-figure="attention-weights"] figcaption'), /L1 H4 \(/);
  await page.selectOption('select[name="numHeads"]', '1');
});

test('line view: clicking a query shows exactly its row of weights above the threshold', async () => {
  await showSlot('lines');
  await page.click('[data-figure="line-view"] .queries text[data-index="2"]');
  const { visible, expected } = await page.evaluate(() => {
    const trace = document.querySelector('attention-explorer').getTrace();
    const n = trace.tokens.length;
    const row = Array.from(trace.heads[0].weights.data.subarray(2 * n, 3 * n));
    const lines = [
      ...document.querySelector('attention-explorer').shadowRoot.querySelectorAll('[data-figure="line-view"] line'),
    ].filter((l) => l.getAttribute('display') !== 'none');
    return {
      visible: lines.map((l) => [Number(l.dataset.query), Number(l.dataset.key)]),
      expected: row
        .map((w, j) => [w, j])
        .filter(([w]) => w >= 0.05)
        .map(([, j]) => [2, j]),
    };
  });
  assert.deepEqual(visible, expected);
  assert.equal(await page.getAttribute('[data-figure="line-view"]', 'data-query'), '2');
  await page.click('[data-figure="line-view"] .queries text[data-index="2"]'); // unpin
  assert.equal(await page.getAttribute('[data-figure="line-view"]', 'data-query'), '');
});

test("designed heads: a previous-token head puts every row's maximum on the previous token", async () => {
  await page.selectOption('select[name="headKind"]', 'previous');
  const argmaxes = await page.$eval('attention-explorer', (el) => {
    const t = el.getTrace();
    const n = t.tokens.length,
      w = t.heads[0].weights.data;
    return Array.from({ length: n }, (_, i) => {
      const row = Array.from(w.subarray(i * n, (i + 1) * n));
      return row.indexOf(Math.max(...row));
    });
  });
  assert.deepEqual(
    argmaxes.slice(1),
    argmaxes.slice(1).map((_, i) => i),
  );
  assert.match(await page.textContent('[data-figure="attention-weights"] figcaption'), /previous token/);
  assert.match(await page.textContent('[data-figure="attention-weights"] .head-explanation'), /1 position before it/);
  await page.selectOption('select[name="headKind"]', 'projected');
});

test('clicking a word masks it; padding keys get exactly 0', async () => {
  await page.click('[data-figure="tokens"] .token[data-index="2"]');
  assert.equal(await page.textContent('[data-figure="tokens"] .token[data-index="2"] .token-text'), '[MASK]');
  assert.ok((await readHeatmap('attention-weights')).rowLabels.includes('[MASK]'));
  await page.click('[data-figure="tokens"] .token[data-index="2"]');
  assert.equal(await page.textContent('[data-figure="tokens"] .token[data-index="2"] .token-text'), 'bank');
  await page.selectOption('select[name="mask"]', 'padding');
  await page.fill('input[name="validLength"]', '3');
  const { n, weights } = await page.$eval('attention-explorer', (el) => ({
    n: el.getTrace().tokens.length,
    weights: Array.from(el.getTrace().weights.data),
  }));
  for (let i = 0; i < n; i++) for (let j = 3; j < n; j++) assert.equal(weights[i * n + j], 0);
  assert.equal(await page.$$eval('[data-figure="tokens"] .token.padding', (t) => t.length), n - 3);
  await page.selectOption('select[name="mask"]', 'bidirectional');
});

test('the pipeline is a stepper over every step, each with its shape; screenshot', async () => {
  await page.selectOption('select[name="numHeads"]', '4');
  await page.selectOption('select[name="headKind"]', 'projected');
  await showSlot('pipeline');
  const titles = () => page.$$eval('[data-figure="pipeline"] .step-number', (buttons) => buttons.map((b) => b.title));
  const steps = await titles();
  assert.equal(steps.length, 19);
  /** Opens step `pattern`'s card and reads its title and shape. */
  const open = async (pattern) => {
    const index = (await titles()).findIndex((title) => pattern.test(title));
    await page.click(`[data-figure="pipeline"] .step-number[data-step="${index + 1}"]`);
    await page.waitForSelector(`[data-figure="pipeline"][data-step="${index + 1}"]`);
    return page.$eval('[data-figure="pipeline"] .step', (card) => ({
      title: card.querySelector('h3').textContent,
      caption: card.querySelector('figcaption').textContent,
    }));
  };
  assert.equal((await open(/Queries of head 1/)).caption, '[8, 25]');
  assert.equal((await open(/Feed-forward hidden/)).caption, '[8, 400]');
  await page.selectOption('select[name="scoreFunction"]', 'dot');
  await showSlot('pipeline');
  assert.ok((await titles()).some((t) => /Not scaled/.test(t)));
  await page.selectOption('select[name="scoreFunction"]', 'scaledDot');
  await open(/Attention weights/);
  await page.locator('[data-figure="pipeline"]').screenshot({ path: `${OUTPUT}/pipeline.png` });
  await page.click('[data-chapter-tab="attention"]');
  await page.selectOption('select[name="numHeads"]', '1');
});

test('every positional encoding can be chosen; the caption says how it is used', async () => {
  for (const [kind, words] of [
    ['rope', /RoPE rotates/],
    ['alibi', /ALiBi biases/],
    ['t5', /T5 buckets/],
    ['learned', /learned positional table/],
    ['none', /no position information/],
    ['sinusoidal', /added to the word vectors/],
  ]) {
    await page.selectOption('select[name="positionalEncoding"]', kind);
    await showSlot('labEncoding');
    assert.match(await page.textContent('[data-figure="lab-encoding"] figcaption'), words, kind);
    assert.equal(await page.$eval('attention-explorer', (el) => el.getTrace().options.positionalEncoding), kind);
  }
});

test('editing the sentence outlines the weights that changed by more than 0.05', async () => {
  await showSlot('attention');
  await typeSentence('The river bank was muddy after the storm');
  // Identity projections, one head: each word's query is its own key (earlier tests left other settings).
  await page.$eval('attention-explorer', (el) => el.change({ projection: 'identity', numHeads: 1, headKinds: [] }));
  // One edit, as one change (a fill may send an empty text first, and an empty sentence leaves nothing to
  // compare with): "river" again, so the first "river" (whose query is its own key, identity
  // projections) splits its weight in two.
  await page.$eval('attention-explorer', (el) => {
    el.sentence = 'The river bank was muddy after the storm river';
  });
  // The figure drawn for the edit outlines the cells that moved (wait for that draw; a later redraw
  // of the same state has nothing new to outline).
  const outlined = await page.waitForFunction(
    () =>
      document
        .querySelector('attention-explorer')
        .shadowRoot.querySelector('[data-figure="attention-weights"] path.changed')?.dataset.cells > 0,
    null,
    { timeout: 5000 },
  );
  assert.ok(await outlined.jsonValue());
});

test('no console errors and nothing loaded from another origin', () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
});

test('the normalizer control: sparsemax gives exact zeros in the drawn weights and names itself', async () => {
  await showSlot('attention');
  await page.selectOption('select[name="normalizer"]', 'sparsemax');
  const { normalizer, zeros, sums } = await page.$eval('attention-explorer', (el) => {
    const t = el.getTrace(),
      n = t.tokens.length,
      w = t.heads[0].weights.data;
    const rows = Array.from({ length: n }, (_, i) => Array.from(w.subarray(i * n, (i + 1) * n)));
    return {
      normalizer: t.options.normalizer,
      zeros: w.filter((x) => x === 0).length,
      sums: rows.map((r) => r.reduce((a, b) => a + b, 0)),
    };
  });
  assert.equal(normalizer, 'sparsemax');
  assert.ok(zeros > 0, 'sparse weights are exactly 0');
  for (const sum of sums) assert.ok(Math.abs(sum - 1) < 1e-5);
  assert.match(await page.textContent('[data-figure="attention-weights"] figcaption'), /sparsemax\(QKᵀ\/√d_k\)/);
  await page.selectOption('select[name="normalizer"]', 'softmax');
});
