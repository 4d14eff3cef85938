// Every figure tells the truth, end to end in headless Chromium: what a caption, note or legend claims
// is checked against the trace behind it — a row the causal mask leaves with only its own position,
// the d_k a designed head really uses, the scale between the raw and the scaled scores, the heads'
// blocks in their concatenation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite, showSlot } from './browser.js';

const site = distAndBrowser();

/** The page at `hash`, with `change` applied (el.change), and the figure slot `slot` drawn. */
async function open({ hash = '', change, slot }) {
  const { page, errors } = await openSite(site, hash);
  if (change) await page.$eval('attention-explorer', (el, change) => el.change(change), change);
  await flush(page);
  if (slot) await showSlot(page, slot);
  return { page, errors };
}

test('causal mask + semantic head: the first word attends to itself and says so; a padding row is labelled empty', async () => {
  const { page, errors } = await open({ change: { mask: 'causal', lineQuery: 0 }, slot: 'mix' });
  const trace = await page.$eval('attention-explorer', (el) => {
    const t = el.getTrace(),
      n = t.tokens.length,
      h = t.heads[0];
    return {
      n,
      kind: h.kind,
      masksOwn: h.masksOwnPosition,
      weights: Array.from(h.weights.data),
      values: Array.from(h.values.data.subarray(0, h.values.shape[1])),
    };
  });
  assert.equal(trace.kind, 'semantic');
  assert.equal(trace.masksOwn, true);
  // "The" may see only itself: weight 1 there, and every row a distribution.
  assert.equal(trace.weights[0], 1);
  for (let i = 0; i < trace.n; i++) {
    const sum = trace.weights.slice(i * trace.n, (i + 1) * trace.n).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
  }
  for (let i = 1; i < trace.n; i++)
    assert.equal(trace.weights[i * trace.n + i], 0, `row ${i} still skips its own position`);
  // The heatmap draws that cell as a weight (not masked) and its note says why.
  const heat = await page.$eval('attention-explorer [data-figure="attention-weights"]', (f) => ({
    masked: Array.from(f.exportData.masked),
    caption: f.querySelector('figcaption').textContent,
    note: f.querySelector('.head-explanation').textContent,
  }));
  assert.equal(heat.masked[0], 0);
  assert.equal(heat.masked[trace.n + 1], 1);
  assert.match(heat.note, /“The” has no other word it may see, so it attends to itself/);
  assert.match(heat.caption, /each row sums to 1/);
  // The mix of "The" is its own value vector, and its legend has a real range.
  const mix = await page.$eval('attention-explorer [data-figure="mix"]', (f) => ({
    output: Array.from(f.mix.output),
    ticks: [...f.querySelectorAll('.legend .tick text')].map((t) => Number(t.textContent.replace('−', '-'))),
  }));
  mix.output.forEach((v, c) =>
    assert.ok(Math.abs(v - trace.values[c]) < 1e-6, `z_0[${c}] = ${v}, v_0[${c}] = ${trace.values[c]}`),
  );
  assert.ok(Math.max(...mix.ticks) - Math.min(...mix.ticks) > 0.1, `legend ticks ${mix.ticks}`);

  // Cross-attention's step 1 (the target under the causal mask, the same semantic head): "Das" → "Das" is 1.
  await showSlot(page, 'cross');
  const cross = await page.$eval('attention-explorer [data-figure="cross-self-attention"]', (f) => ({
    values: Array.from(f.exportData.values),
    masked: Array.from(f.exportData.masked),
    t: f.exportData.shape[0],
    label: f.exportData.rowLabels[0],
    text: f.textContent,
  }));
  assert.equal(cross.label, 'Das');
  assert.equal(cross.values[0], 1);
  assert.equal(cross.masked[0], 0);
  assert.equal(cross.masked[cross.t + 1], 1, 'the own position of later words is drawn masked');
  assert.match(cross.text, /“Das” has no other word it may see, so it attends to itself/);
  // The section does not claim the target translates the learner's sentence: it is the box's, and says so.
  const intro = await page.$eval(
    'attention-explorer [data-figure="cross-self-attention"]',
    (f) => f.closest('section').textContent,
  );
  assert.doesNotMatch(intro, /translation of your sentence/);
  assert.match(intro, /it does not follow yours/);

  // A padding mask of valid length 0 leaves no key at all: those rows are empty and say so.
  await page.click('attention-explorer [data-chapter-tab="attention"]');
  await page.$eval('attention-explorer', (el) => el.change({ mask: 'padding', validLength: 0, lineQuery: 1 }));
  await flush(page);
  await showSlot(page, 'mix');
  const padded = await page.$eval('attention-explorer [data-figure="attention-weights"]', (f) => ({
    caption: f.querySelector('figcaption').textContent,
    notes: [...f.querySelectorAll('.row-notes text')].map((t) => t.textContent),
  }));
  assert.doesNotMatch(padded.caption, /each row sums to 1/);
  assert.match(padded.caption, /8 rows have no key to attend to \(padding\): all 0/);
  assert.deepEqual(padded.notes, Array(trace.n).fill('no key'));
  const emptyMix = await page.$eval('attention-explorer [data-figure="mix"]', (f) => ({
    text: f.textContent,
    legends: f.querySelectorAll('.legend').length,
  }));
  assert.match(emptyMix.text, /“river ·pad” has no key to attend to \(padding\): its weights are all 0 and z_1 = 0/);
  assert.equal(emptyMix.legends, 0, 'no colour scale for an empty mix');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Opens step `step` of the pipeline (1-based) by its number, as a learner would, and reads its figure. */
async function pipelineStep(page, step) {
  await page.click(`attention-explorer [data-figure="pipeline"] .step-number[data-step="${step}"]`);
  await page.waitForSelector(
    `attention-explorer [data-figure="pipeline"][data-step="${step}"] [data-figure="step-${step}"]`,
  );
  return page.$eval(`attention-explorer [data-figure="step-${step}"]`, (f) => {
    const canvas = f.querySelector('canvas');
    return {
      title: f.closest('.step').querySelector('h3').textContent,
      caption: f.querySelector('figcaption').textContent,
      legend: f.querySelector('.legend').getAttribute('aria-label'),
      values: Array.from(f.exportData.values),
      pixels: Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data),
      cellWidth: parseFloat(canvas.style.width) / canvas.width,
      colGroups: f.exportData.colGroups,
      rules: [...f.querySelectorAll('.col-groups .group-rule')].map((line) => Number(line.getAttribute('x1'))),
      labels: [...f.querySelectorAll('.col-groups .group-label')].map((text) => text.firstChild.textContent),
    };
  });
}

test('QKᵀ and ÷ √d_k·τ share one colour scale: the division visibly shrinks the scores, and the factor is on the figure', async () => {
  const { page, errors } = await open({ hash: 'chapter=inside-head', slot: 'pipeline' });
  const raw = await pipelineStep(page, 7);
  const scaled = await pipelineStep(page, 8);
  const masked = await pipelineStep(page, 9);
  assert.match(raw.title, /Dot products/);
  assert.match(scaled.title, /Scaled/);
  // The default semantic head: queries and keys of d_k = 100, τ = 1, so the scores are the dot products ÷ 10.
  raw.values.forEach((v, k) =>
    assert.ok(Math.abs(scaled.values[k] - v / 10) < 1e-4, `cell ${k}: ${v} / 10 ≠ ${scaled.values[k]}`),
  );
  assert.equal(scaled.legend, raw.legend, 'one colour scale');
  assert.equal(masked.legend, raw.legend, 'the masked scores too');
  assert.match(
    scaled.caption,
    /one colour scale for steps 7–9, ±100: ÷ 10 \(√100 · τ = 10 · 1\): every score 10× smaller/,
  );
  // The strongest dot product is drawn ten times paler once divided: compare its pixel's distance from white.
  const strongest = raw.values.reduce((best, v, k) => (Math.abs(v) > Math.abs(raw.values[best]) ? k : best), 0);
  const ink = (pixels) => 765 - pixels[strongest * 4] - pixels[strongest * 4 + 1] - pixels[strongest * 4 + 2];
  assert.ok(ink(raw.pixels) > 300, `raw cell ink ${ink(raw.pixels)}`);
  assert.ok(
    ink(scaled.pixels) < ink(raw.pixels) / 3,
    `scaled cell ink ${ink(scaled.pixels)} vs raw ${ink(raw.pixels)}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Concatenate all heads" marks and labels each head\'s block of columns', async () => {
  const { page, errors } = await open({ hash: 'chapter=inside-head', slot: 'pipeline' });
  const concat = await pipelineStep(page, 12);
  assert.match(concat.title, /All heads, side by side/);
  assert.match(concat.caption, /\[8, 100\]; 4 blocks of d_v = 25 columns, one per head/);
  assert.deepEqual(
    concat.colGroups,
    [0, 1, 2, 3].map((h) => ({ label: `head ${h + 1}`, start: 25 * h, end: 25 * (h + 1) })),
  );
  assert.deepEqual(
    concat.rules,
    [25, 50, 75].map((j) => j * concat.cellWidth),
    'a rule between blocks',
  );
  assert.deepEqual(concat.labels, ['head 1', 'head 2', 'head 3', 'head 4']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('designed heads show the d_k they use; the heads menu names what every head shares, d_v', async () => {
  const { page, errors } = await open({ slot: 'attention' });
  const heads = await page.$eval('attention-explorer', (el) =>
    el.getTrace().heads.map((h) => ({ dK: h.queries.shape[1], keys: h.keys.shape[1], dV: h.values.shape[1] })),
  );
  // The default heads: semantic (whole word vectors) and three positional heads (encodings of even width).
  assert.deepEqual(heads, [
    { dK: 100, keys: 100, dV: 25 },
    { dK: 26, keys: 26, dV: 25 },
    { dK: 26, keys: 26, dV: 25 },
    { dK: 26, keys: 26, dV: 25 },
  ]);
  const lines = await page.$$eval('attention-explorer .head-thumb .head-dims', (spans) =>
    spans.map((s) => s.textContent),
  );
  assert.deepEqual(
    lines,
    heads.map(({ dK, dV }) => `d_k = ${dK} · d_v = ${dV}`),
  );
  const option = await page.$eval(
    'attention-explorer select[name="numHeads"]',
    (s) => s.selectedOptions[0].textContent,
  );
  assert.equal(option, '4 (d_v = 25)');
  assert.match(
    await page.textContent('attention-explorer [data-figure="attention-weights"] .head-explanation'),
    /whole word vectors \(d_k = 100 ≠ d_v = 25\)/,
  );
  await page.$eval('attention-explorer', (el) => el.change({ head: 1 }));
  await flush(page);
  await showSlot(page, 'attention');
  assert.match(
    await page.textContent('attention-explorer [data-figure="attention-weights"] .head-explanation'),
    /positional encodings \(d_k = 26: d_v = 25 rounded up to even\)/,
  );
  // Inside one head, the semantic head's queries say their width where they are drawn.
  await page.$eval('attention-explorer', (el) => el.change({ head: 0 }));
  await page.click('attention-explorer [data-chapter-tab="inside-head"]');
  await showSlot(page, 'pipeline');
  const queries = await pipelineStep(page, 4);
  assert.match(queries.title, /Queries of head 1/);
  assert.equal(queries.caption, "[8, 100]; d_k = 100, not this head's d_v = 25: whole word vectors");
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * The heads figure's thumbnails as drawn (one canvas over the grid, views/cell-atlas.js): per head, how many of its
 * cells the canvas shows in the head's colour at the cell's centre over its place, how many it shows grey and faded
 * (a switched-off head), and how many masked cells it leaves clear for the hatch; with the figure's canvas count.
 */
function drawnThumbnails() {
  const figure = document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="heads"]');
  const atlas = figure.querySelector('canvas.cell-atlas');
  const box = atlas.getBoundingClientRect();
  const ratio = atlas.width / box.width;
  const shown = atlas.getContext('2d').getImageData(0, 0, atlas.width, atlas.height).data;
  const heads = [...figure.querySelectorAll('.head-cells')].map((place) => {
    const { exportCells: cells } = place;
    const T = cells.width;
    const own = cells.getContext('2d').getImageData(0, 0, T, T).data;
    const r = place.getBoundingClientRect();
    const count = {
      off: place.parentElement.hasAttribute('data-off'),
      cells: 0,
      same: 0,
      grey: 0,
      masked: 0,
      clear: 0,
    };
    for (let i = 0; i < T; i++)
      for (let j = 0; j < T; j++) {
        const x = Math.floor((r.left - box.left + ((j + 0.5) * r.width) / T) * ratio);
        const y = Math.floor((r.top - box.top + ((i + 0.5) * r.height) / T) * ratio);
        const [a, o] = [(y * atlas.width + x) * 4, (i * T + j) * 4];
        if (own[o + 3] === 0) {
          count.masked += 1;
          if (shown[a + 3] === 0) count.clear += 1;
          continue;
        }
        count.cells += 1;
        const near = (k) => Math.abs(shown[a + k] - own[o + k]) <= 2;
        if (shown[a + 3] === 255 && near(0) && near(1) && near(2)) count.same += 1;
        const flat = Math.max(...shown.subarray(a, a + 3)) - Math.min(...shown.subarray(a, a + 3)) <= 2;
        if (flat && Math.abs(shown[a + 3] - 0.3 * 255) <= 2) count.grey += 1;
      }
    return count;
  });
  return { canvases: figure.querySelectorAll('canvas').length, ratio, heads };
}

test('the heads: one canvas shows every head its own cells over its place, after a keystroke, a knockout, a resize, at 2× pixels', async () => {
  const { page, errors } = await open({ hash: 'model=causal', slot: 'heads' });
  await page.waitForSelector('attention-explorer [data-figure="heads"] .head-switch');
  const settle = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
  const check = async (what) => {
    await settle();
    const { canvases, ratio, heads } = await page.evaluate(drawnThumbnails);
    assert.equal(canvases, 1, `${what}: the heads' canvases`);
    assert.equal(ratio, await page.evaluate(() => devicePixelRatio), `${what}: the canvas in device pixels`);
    assert.equal(heads.length, 16, what);
    heads.forEach((h, k) => {
      assert.ok(h.cells > 0 && h.masked > 0, `${what}, head ${k}: the causal mask leaves cells on both sides`);
      assert.equal(h.clear, h.masked, `${what}, head ${k}: masked cells left clear`);
      assert.equal(
        h.off ? h.grey : h.same,
        h.cells,
        `${what}, head ${k}${h.off ? ' (off)' : ''}: ${JSON.stringify(h)}`,
      );
    });
    return heads;
  };
  await check('first draw');
  await page.$eval('attention-explorer', (el) => el.change({ sentence: 'the old man carried a leather bag . inside' }));
  await flush(page);
  await check('another sentence');
  await page.click(
    'attention-explorer [data-figure="heads"] li:has(> .head-thumb[data-layer="1"][data-head="0"]) .head-switch',
  );
  await flush(page);
  const heads = await check('head L2 H1 off');
  assert.deepEqual(
    heads.map((h) => h.off),
    Array.from({ length: 16 }, (_, k) => k === 4),
  );
  // A narrow window: the grid's columns shrink and its labels wrap onto more lines, so the thumbnails move within it
  // (a layout change with no keystroke): each must follow its place.
  const places = () =>
    page.$eval('attention-explorer', (el) =>
      [...el.shadowRoot.querySelectorAll('[data-figure="heads"] .head-cells')].map((p) => {
        const r = p.getBoundingClientRect();
        const box = p.closest('.head-box').getBoundingClientRect();
        return `${r.left - box.left},${r.top - box.top}`;
      }),
    );
  const wide = await places();
  await page.setViewportSize({ width: 390, height: 900 });
  await check('a narrow window');
  const narrow = await places();
  assert.ok(
    narrow.some((at, k) => at !== wide[k]),
    `the thumbnails moved within the grid: ${wide.join(' ')} → ${narrow.join(' ')}`,
  );
  // A screen of twice the pixels, the layout unchanged: the next draw redraws the canvas at the new ratio.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: 390,
    height: 900,
    deviceScaleFactor: 2,
    mobile: false,
  });
  await page.$eval('attention-explorer', (el) =>
    el.change({ sentence: 'the old man carried a leather bag . inside the' }),
  );
  await flush(page);
  await showSlot(page, 'heads');
  await check('twice the pixels');
  assert.deepEqual(errors, []);
  await page.close();
});
