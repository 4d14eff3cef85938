// Inside one head with a trained model, end to end in headless Chromium: every value the stepper shows for the
// selected trained head (queries, keys, values, scores, weights, the head's output, W_O, Add & Norm, the
// feed-forward layer, the block's output) equals the block recomputed here, in double, from the model's
// parameters() and its input: the word vectors core.embed() gives plus core.sinusoidalEncoding()'s P. The
// Attention chapter's mix of the trained head is checked against the same recomputation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';

const shared = distAndBrowser();
const TOLERANCE = 1e-4; // float32 in the page against double here (measured: ≤ 4e-6)

/** y [T, n] = x [T, m] W [m, n] + b */
function affine(x, T, m, W, b, n) {
  const y = new Float64Array(T * n);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < n; o++) {
      let sum = b[o];
      for (let i = 0; i < m; i++) sum += x[t * m + i] * W[i * n + o];
      y[t * n + o] = sum;
    }
  }
  return y;
}

/** γ ⊙ (x − μ) / √(σ² + 10⁻⁵) + β, row by row (Ba et al. 2016; ε as the core's kLayerNormEpsilon). */
function layerNorm(x, T, d, gamma, beta) {
  const y = new Float64Array(T * d);
  for (let t = 0; t < T; t++) {
    const row = x.subarray(t * d, (t + 1) * d);
    const mean = row.reduce((a, b) => a + b, 0) / d;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / d;
    for (let j = 0; j < d; j++) y[t * d + j] = (gamma[j] * (row[j] - mean)) / Math.sqrt(variance + 1e-5) + beta[j];
  }
  return y;
}

/** Columns [first, first + width) of x [T, stride]. */
function columns(x, T, stride, first, width) {
  const y = new Float64Array(T * width);
  for (let t = 0; t < T; t++) for (let c = 0; c < width; c++) y[t * width + c] = x[t * stride + first + c];
  return y;
}

/**
 * One post-LN block (Vaswani et al. 2017 §3.1–3.3) on x [T, d], every step by the stepper's names, for head `head`.
 * p: the layer's tensors by their names after "layers.<l>." (attention.w_q, …).
 */
function block(x, { T, d, H, dFF, causal }, p, head) {
  const dK = d / H;
  const q = affine(x, T, d, p['attention.w_q'], p['attention.b_q'], d);
  const k = affine(x, T, d, p['attention.w_k'], p['attention.b_k'], d);
  const v = affine(x, T, d, p['attention.w_v'], p['attention.b_v'], d);
  const concat = new Float64Array(T * d);
  const steps = { input: x };
  for (let h = 0; h < H; h++) {
    const scores = new Float64Array(T * T),
      weights = new Float64Array(T * T),
      out = new Float64Array(T * dK);
    for (let i = 0; i < T; i++) {
      for (let j = 0; j < T; j++) {
        let dot = 0;
        for (let c = 0; c < dK; c++) dot += q[i * d + h * dK + c] * k[j * d + h * dK + c];
        scores[i * T + j] = causal && j > i ? -Infinity : dot / Math.sqrt(dK);
      }
      const row = scores.subarray(i * T, (i + 1) * T);
      const max = Math.max(...row);
      const total = row.reduce((a, s) => a + Math.exp(s - max), 0);
      for (let j = 0; j < T; j++) {
        weights[i * T + j] = Math.exp(row[j] - max) / total;
        for (let c = 0; c < dK; c++) out[i * dK + c] += weights[i * T + j] * v[j * d + h * dK + c];
      }
      for (let c = 0; c < dK; c++) concat[i * d + h * dK + c] = out[i * dK + c];
    }
    if (h === head) {
      Object.assign(steps, {
        queries: columns(q, T, d, h * dK, dK),
        keys: columns(k, T, d, h * dK, dK),
        values: columns(v, T, d, h * dK, dK),
        scores,
        weights,
        headOutput: out,
      });
    }
  }
  steps.concat = concat;
  steps.attentionOutput = affine(concat, T, d, p['attention.w_o'], p['attention.b_o'], d);
  steps.residual1 = x.map((value, i) => value + steps.attentionOutput[i]);
  steps.norm1 = layerNorm(steps.residual1, T, d, p['norm1.gamma'], p['norm1.beta']);
  steps.ffHidden = affine(steps.norm1, T, d, p['feed_forward.w_1'], p['feed_forward.b_1'], dFF).map((u) =>
    Math.max(u, 0),
  );
  steps.ffOutput = affine(steps.ffHidden, T, dFF, p['feed_forward.w_2'], p['feed_forward.b_2'], d);
  steps.residual2 = steps.norm1.map((value, i) => value + steps.ffOutput[i]);
  steps.output = layerNorm(steps.residual2, T, d, p['norm2.gamma'], p['norm2.beta']);
  return steps;
}

/** What the page's core gives for `kind` on its sentence: the layers' parameters, the input's two terms, the tokens. */
function modelInputs(page, kind) {
  return page.$eval(
    'attention-explorer',
    async (el, kind) => {
      const model = await el.core.languageModel(kind);
      const { tokens } = model.run(el.sentence, { k: 1, positions: [] });
      const T = tokens.length,
        d = model.config.dModel;
      const layers = Object.entries(model.parameters())
        .filter(([name]) => name.startsWith('layers.'))
        .map(([name, t]) => [name, Array.from(t.data)]);
      return {
        config: {
          T,
          d,
          H: model.config.numHeads,
          L: model.config.numLayers,
          dFF: model.config.dFF,
          causal: model.config.objective === 'causal',
        },
        oov: tokens.filter((t) => t.oov || t.mask).length,
        wordVectors: Array.from(el.core.embed(el.sentence).data),
        positional: Array.from(el.core.sinusoidalEncoding(T, d).data),
        layers: Object.fromEntries(layers),
      };
    },
    kind,
  );
}

/** Every step of (layer, head) recomputed: the input X + P through the blocks before it, then that block. */
function reference({ config, wordVectors, positional, layers }, layer, head) {
  const x0 = Float64Array.from(wordVectors, (w, i) => w + positional[i]);
  const of = (l) =>
    Object.fromEntries(
      Object.entries(layers)
        .filter(([name]) => name.startsWith(`layers.${l}.`))
        .map(([name, data]) => [name.slice(`layers.${l}.`.length), data]),
    );
  let x = x0;
  for (let l = 0; l < layer; l++) x = block(x, config, of(l), 0).output;
  return { wordVectors, positional, ...block(x, config, of(layer), head) };
}

/**
 * The block's steps as the page shows them: each of the first `count` steps opened by its number, its title and the
 * values drawn (the output layer's steps follow them: output-layer.test.js checks those).
 */
async function shownSteps(page, count) {
  const steps = [];
  for (let step = 1; step <= count; step++) {
    await page.click(`attention-explorer [data-figure="pipeline"] .step-number[data-step="${step}"]`);
    await page.waitForSelector(
      `attention-explorer [data-figure="pipeline"][data-step="${step}"] [data-figure="step-${step}"]`,
    );
    steps.push(
      await page.$eval(`attention-explorer [data-figure="step-${step}"]`, (f) => ({
        title: f.closest('.step').querySelector('h3').textContent,
        values: Array.from(f.exportData.values),
        shape: f.exportData.shape,
      })),
    );
  }
  return steps;
}

/** The largest |a − b| (a −∞ must meet a −∞). */
function maxDifference(shown, expected) {
  assert.equal(shown.length, expected.length, 'sizes');
  let worst = 0;
  shown.forEach((value, i) => {
    if (value === -Infinity || expected[i] === -Infinity) assert.equal(value, expected[i], `entry ${i}: both masked`);
    else worst = Math.max(worst, Math.abs(value - expected[i]));
  });
  return worst;
}

/** The steps in the stepper's order, by the reference's names. */
function stepNames(layer) {
  return [
    ...(layer === 0 ? ['wordVectors', 'positional'] : []),
    'input',
    'queries',
    'keys',
    'values',
    'scores',
    'weights',
    'headOutput',
    'concat',
    'attentionOutput',
    'residual1',
    'norm1',
    'ffHidden',
    'ffOutput',
    'residual2',
    'output',
  ];
}

async function checkStepper(kind, trainedHead, expectedName) {
  const { page, errors } = await openSite(shared, `model=${kind}&chapter=inside-head&trainedHead=${trainedHead}`);
  await page.waitForSelector('attention-explorer [data-figure="head-steps"]', { timeout: 30000 });
  const figure = await page.$eval('attention-explorer [data-figure="head-steps"]', (f) => ({
    layer: Number(f.dataset.layer),
    head: Number(f.dataset.head),
    caption: f.querySelector('figcaption').textContent,
    model: f.dataset.model,
  }));
  const inputs = await modelInputs(page, kind);
  const { H, dFF, T } = inputs.config;
  // The head is the grid's layer-major index: trainedHead = layer · numHeads + head.
  assert.deepEqual([figure.layer, figure.head], [Math.floor(trainedHead / H), trainedHead % H]);
  assert.match(
    figure.caption,
    new RegExp(`^${expectedName} of the trained ${kind === 'causal' ? 'decoder' : 'encoder'} .*d_k = 25\\)`),
  );
  assert.equal(figure.model, kind, "the stepper follows the trained model's head");
  assert.equal(inputs.oov, 0, "every word has its GloVe vector, so core.embed() gives the model's input rows");

  const names = stepNames(figure.layer);
  const count = Number(await page.$eval('attention-explorer [data-figure="pipeline"]', (s) => s.dataset.steps));
  const outputSteps = kind === 'causal' ? 4 : 0; // the encoder's output layer reads a blank: none in this sentence
  assert.equal(
    count,
    names.length + outputSteps,
    `${count} steps: the block's ${names.length}, then the output layer's`,
  );
  const steps = await shownSteps(page, names.length);
  assert.match(steps[names.indexOf('queries')].title, new RegExp(`Queries of ${expectedName}$`));
  const expected = reference(inputs, figure.layer, figure.head);
  const widths = { queries: 25, keys: 25, values: 25, headOutput: 25, scores: T, weights: T, ffHidden: dFF };
  const report = [];
  steps.forEach((step, i) => {
    const name = names[i];
    assert.deepEqual(step.shape, [T, widths[name] ?? 100], `${step.title}: shape`);
    const worst = maxDifference(step.values, expected[name]);
    report.push(`${name} ${worst.toExponential(1)}`);
    assert.ok(worst < TOLERANCE, `${step.title} (${name}): max |page − recomputed| ${worst}`);
  });
  console.log(`${kind} L${figure.layer + 1} H${figure.head + 1}: ${report.join(', ')}`);
  // The comparison tells heads apart: the next head's queries, or the same head a layer off, are far from those shown.
  const queries = steps[names.indexOf('queries')].values;
  const other = reference(inputs, figure.layer, (figure.head + 1) % H).queries;
  assert.ok(maxDifference(queries, other) > 0.1, "another head's queries differ from the ones shown");
  const otherLayer = reference(inputs, (figure.layer + 1) % inputs.config.L, figure.head).queries;
  assert.ok(maxDifference(queries, otherLayer) > 0.1, 'the same head of another layer differs');
  return { page, errors, inputs };
}

test('model=causal, L2 H2: every step of the trained stepper equals the block recomputed from parameters(), with the causal mask', async () => {
  const { page, errors } = await checkStepper('causal', 5, 'L2 H2');
  // Another head, picked in the stepper (L1 H2: not the decoder's first head, which a link leaves out): it follows it.
  await page.click('attention-explorer .head-picker button[data-focus-key="head-0-1"]');
  await page.waitForSelector('attention-explorer [data-figure="head-steps"][data-layer="0"][data-head="1"]');
  assert.match(page.url(), /head=0%2C1|head=0,1/);
  assert.doesNotMatch(page.url(), /trainedHead/, 'the link names the head once, as { layer, head }');
  await page.screenshot({ path: 'test-output/trained-stepper-causal.png' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('model=masked, L1 H1: word vectors, P and every step equal the recomputation, with no mask', async () => {
  const { page, errors } = await checkStepper('masked', 0, 'L1 H1');
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Attention chapter's mix with a trained model mixes the selected head's real value vectors", async () => {
  const { page, errors } = await openSite(shared, 'model=causal&trainedHead=6&lineQuery=3');
  await page.waitForSelector('attention-explorer [data-figure="mix"]', { timeout: 30000 });
  await flush(page);
  const mix = await page.$eval('attention-explorer [data-figure="mix"]', (f) => ({
    query: Number(f.dataset.query),
    head: Number(f.dataset.head),
    caption: f.querySelector('figcaption').textContent,
    weights: Array.from(f.mix.weights),
    scaled: Array.from(f.mix.scaled),
    output: Array.from(f.mix.output),
  }));
  const inputs = await modelInputs(page, 'causal');
  const { T } = inputs.config;
  const expected = reference(inputs, 1, 2); // trainedHead 6 = layer 1 · 4 + head 2
  assert.equal(mix.head, 6);
  assert.equal(mix.query, 3);
  assert.match(mix.caption, /\(L2 H3 of the trained decoder\).*\[d_v\] = \[25\].*v_j = x_j W_V \+ b_V/);
  assert.ok(maxDifference(mix.weights, expected.weights.subarray(3 * T, 4 * T)) < TOLERANCE, 'its row of weights');
  const scaled = Array.from(
    { length: T * 25 },
    (_, i) => expected.weights[3 * T + Math.floor(i / 25)] * expected.values[i],
  );
  assert.ok(maxDifference(mix.scaled, scaled) < TOLERANCE, 'a_3j · v_j');
  assert.ok(
    maxDifference(mix.output, expected.headOutput.subarray(3 * 25, 4 * 25)) < TOLERANCE,
    "z_3: the head's output row",
  );
  assert.ok(
    maxDifference(mix.output, reference(inputs, 1, 3).headOutput.subarray(3 * 25, 4 * 25)) > 0.01,
    "not another head's",
  );
  assert.deepEqual(errors, []);
  await page.close();
});
