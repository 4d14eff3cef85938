// Embedding end to end in headless Chromium: dist/embed.html's three configured elements, attributes,
// the element's API and events, the embed code, and the single-file variant served alone.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { isElementReport, launchBrowser, serveDist, serveFolder } from './browser.js';

let server, browser;
before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `url`, records console errors and requested URLs, and waits until `count` explorers have a trace. */
async function open(url, count) {
  const page = await browser.context.newPage();
  const errors = [],
    requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('attention-explorer')].filter((el) => el.getTrace()).length === n,
    count,
    { timeout: 30000 },
  );
  return { page, errors, requests };
}

const tokensOf = (page, selector) => page.$eval(selector, (el) => el.getTrace().tokens.map((t) => t.text));

test('three differently configured elements render their own sentence, share one module, and change alone', async () => {
  const { page, errors, requests } = await open(`${server.url}embed.html`, 3);
  assert.deepEqual(await tokensOf(page, '#lesson-heads attention-explorer'), ['the', 'cat', 'sat', 'on', 'the', 'mat']);
  assert.equal((await tokensOf(page, '#lesson-positions attention-explorer')).length, 8);
  assert.equal((await tokensOf(page, '#lesson-attention attention-explorer'))[1], 'animal');
  // One .wasm and one embedding asset for all three.
  assert.equal(requests.filter((url) => url.endsWith('.wasm')).length, 1);
  assert.equal(requests.filter((url) => url.endsWith('embeddings.bin')).length, 1);

  // Attributes became state: designed heads with a causal mask; cividis; the chosen views only.
  const heads = await page.$eval('#lesson-heads attention-explorer', (el) => {
    const t = el.getTrace();
    return {
      kinds: t.heads.map((h) => [h.kind, h.offset]),
      causal: t.options.causal,
      upper: t.heads[1].weights.data[1],
    };
  });
  assert.deepEqual(heads, {
    kinds: [
      ['offset', -1],
      ['semantic', 0],
    ],
    causal: true,
    upper: 0,
  });
  const shown = (selector, inner) =>
    page.$eval(
      selector,
      (el, inner) => {
        const target = el.shadowRoot.querySelector(inner);
        return Boolean(target) && target.checkVisibility();
      },
      inner,
    );
  assert.equal(await shown('#lesson-heads attention-explorer', '[data-figure="heads"]'), true);
  assert.equal(
    await shown('#lesson-heads attention-explorer', 'textarea'),
    false,
    'controls="none" hides the sentence box',
  );
  assert.equal(
    await shown('#lesson-heads attention-explorer', '.slot-pipeline'),
    false,
    'views leave out the pipeline',
  );
  assert.equal(await shown('#lesson-attention attention-explorer', 'select[name="numHeads"]'), false);
  assert.equal(await shown('#lesson-attention attention-explorer', 'input[name="temperature"]'), true);
  assert.equal(await shown('#lesson-positions attention-explorer', '[data-figure="lab-encoding"]'), true);

  // Typing into one explorer changes it and leaves the others.
  const before = await tokensOf(page, '#lesson-heads attention-explorer');
  const box = page.locator('#lesson-positions attention-explorer textarea').first();
  await box.fill('alpha beta gamma');
  assert.deepEqual(await tokensOf(page, '#lesson-positions attention-explorer'), ['alpha', 'beta', 'gamma']);
  assert.deepEqual(await tokensOf(page, '#lesson-heads attention-explorer'), before);
  assert.equal((await tokensOf(page, '#lesson-attention attention-explorer'))[1], 'animal');
  assert.deepEqual(errors, []);
  await page.close();
});

test('el.sentence, attribute changes and the change event', async () => {
  const { page, errors } = await open(`${server.url}embed.html`, 3);
  const result = await page.$eval('#lesson-attention attention-explorer', async (el) => {
    const events = [];
    el.addEventListener('change', (event) => events.push(event.detail));
    el.sentence = 'dogs chase cats';
    const afterSentence = el.getTrace().tokens.map((t) => t.text);
    el.setAttribute('temperature', '0.5');
    el.setAttribute('heads', '4');
    const trace = el.getTrace();
    el.setAttribute('heads', '3'); // not a divisor of d_model: named, and nothing changes
    const error = el.shadowRoot.querySelector('.config-errors').textContent;
    return {
      afterSentence,
      events: events.map((e) => [e.sentence, e.temperature, e.numHeads]),
      temperature: trace.options.temperature,
      numHeads: trace.heads.length,
      headsAfterBad: el.getTrace().heads.length,
      error,
      property: el.sentence,
    };
  });
  assert.deepEqual(result.afterSentence, ['dogs', 'chase', 'cats']);
  assert.deepEqual(result.events, [
    ['dogs chase cats', 1, 4],
    ['dogs chase cats', 0.5, 4],
    ['dogs chase cats', 0.5, 4],
  ]); // four designed heads by default, then four projected
  assert.equal(result.temperature, 0.5);
  assert.equal(result.numHeads, 4);
  assert.equal(result.headsAfterBad, 4);
  assert.match(result.error, /Attribute heads="3": the number of heads must divide d_model = 100/);
  assert.equal(result.property, 'dogs chase cats');

  // views re-render on change; readonly blocks edits from inside.
  await page.$eval('#lesson-attention attention-explorer', (el) => el.setAttribute('views', 'positional'));
  await page.waitForSelector('#lesson-attention attention-explorer [data-figure="lab-encoding"]');
  const readonly = await page.$eval('#lesson-heads attention-explorer', (el) => {
    el.setAttribute('controls', 'sentence');
    const box = el.shadowRoot.querySelector('textarea');
    return { readOnly: box.readOnly, visible: box.checkVisibility() };
  });
  assert.deepEqual(readonly, { readOnly: true, visible: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('el.change() and the setters check values as the attributes do: a bad one throws, is shown, and changes nothing', async () => {
  const { page, errors } = await open(server.url, 1);
  const attempt = (change) =>
    page.$eval(
      'attention-explorer',
      (el, change) => {
        const before = JSON.stringify(el.state);
        try {
          el.change(change);
          return { thrown: null };
        } catch (error) {
          return {
            thrown: `${error.name}: ${error.message}`,
            shown: el.shadowRoot.querySelector('.status').textContent,
            same: JSON.stringify(el.state) === before,
          };
        }
      },
      change,
    );
  for (const [change, message] of [
    [{ temperature: NaN }, 'RangeError: temperature = NaN: must be a number from 0.05 to 5'],
    [{ temperature: '0.5' }, 'TypeError: temperature must be a number, got string'],
    [{ temperature: 99 }, 'RangeError: temperature = 99: must be a number from 0.05 to 5'],
    [
      { numHeads: 3 },
      /^RangeError: numHeads = 3, headKinds = .*: the number of heads must divide d_model = 100: one of 1, 2, 4, 5, 10, 20, 25, 50, 100$/,
    ],
    [{ bogus: 1 }, /^RangeError: unknown setting 'bogus' \(known: sentence, /],
    [{ mask: 'sideways' }, 'RangeError: mask = "sideways": must be one of bidirectional, causal, padding'],
    [{ sentence: 42 }, 'TypeError: sentence must be a string, got number'],
    [{ lineThreshold: 'high' }, 'TypeError: lineThreshold must be a number, got string'],
  ]) {
    const result = await attempt(change);
    if (typeof message === 'string') assert.equal(result.thrown, message);
    else assert.match(result.thrown, message);
    assert.equal(result.shown, result.thrown.replace(/^\w+: /, ''), 'the same message in the element');
    assert.equal(result.same, true, 'nothing changed');
  }
  assert.deepEqual(
    await page.$eval('attention-explorer', (el) => {
      try {
        el.sentence = null;
      } catch (e) {
        return [e.name, e.message, el.state.sentence];
      }
      return null;
    }),
    ['TypeError', 'sentence must be a string, got null', 'The river bank was muddy after the storm'],
  );
  await page.$eval('attention-explorer', (el) => el.change({ temperature: 0.5, numHeads: 4, headKinds: ['semantic'] }));
  assert.equal(await page.$eval('attention-explorer', (el) => el.state.temperature), 0.5);
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Copy embed code" gives a tag that reproduces the view', async () => {
  const { page, errors } = await open(server.url, 1);
  await page.$eval('attention-explorer', (el) =>
    el.change({
      sentence: 'the quick brown fox',
      numHeads: 4,
      headKinds: [undefined, 'next'],
      temperature: 0.5,
      positionalEncoding: 'rope',
      projection: 'random',
      seed: 11,
      mask: 'causal',
      lineThreshold: 0.2,
    }),
  );
  await page.click('attention-explorer .share-button:has-text("Copy embed code")');
  const snippet = await page.textContent('attention-explorer .embed-code');
  const [script, code] = snippet.split('\n');
  assert.equal(script, `<script type="module" src="${server.url}element/attention-explorer.js"></script>`);
  assert.match(
    code,
    /^<attention-explorer sentence="the quick brown fox" heads="projected,next,projected,projected" projection="random" seed="11" mask="causal" positional-encoding="rope" temperature="0.5" state="lineThreshold=0.2"><\/attention-explorer>$/,
  );
  const original = await page.$eval('attention-explorer', (el) => ({
    state: { ...el.state, headKinds: 0 },
    weights: Array.from(el.getTrace().heads[1].weights.data),
  }));
  const same = await page.evaluate(async (code) => {
    const host = document.createElement('div');
    host.innerHTML = code;
    document.body.append(host);
    const copy = host.firstElementChild;
    while (!copy.getTrace()) await new Promise((resolve) => setTimeout(resolve, 20));
    const original = document.querySelector('attention-explorer');
    const a = original.getTrace(),
      b = copy.getTrace();
    const options = (t) => JSON.stringify({ ...t.options, heads: t.heads.map((h) => [h.kind, h.offset]) });
    return (
      options(a) === options(b) &&
      a.heads.every((h, k) => h.weights.data.every((w, i) => w === b.heads[k].weights.data[i])) &&
      JSON.stringify({ ...copy.state, headKinds: 0 }) === JSON.stringify({ ...original.state, headKinds: 0 })
    );
  }, code);
  assert.equal(same, true, 'same options, weights and state');
  assert.deepEqual(errors, []);
  await page.close();

  // The whole snippet pasted alone into an empty page (the same origin, as on a course's own site) shows the same view.
  const empty = await browser.context.newPage();
  const emptyErrors = [];
  empty.on('pageerror', (error) => emptyErrors.push(error.message));
  empty.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) emptyErrors.push(message.text());
  });
  await empty.route(`${server.url}lesson/empty.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>A lesson</title>' }),
  );
  await empty.goto(`${server.url}lesson/empty.html`);
  await empty.setContent(`<!doctype html><title>A lesson</title><body>${snippet}</body>`);
  await empty.waitForFunction(() => document.querySelector('attention-explorer')?.getTrace?.(), null, {
    timeout: 30000,
  });
  const pasted = await empty.$eval('attention-explorer', (el) => ({
    state: { ...el.state, headKinds: 0 },
    weights: Array.from(el.getTrace().heads[1].weights.data),
  }));
  assert.deepEqual(pasted, original);
  assert.deepEqual(emptyErrors, []);
  await empty.close();
});

test('a .wasm that is not there: the element names the URL, the HTTP status and what to check, with no Emscripten hint', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route(`${server.url}lesson/missing.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body:
        '<!doctype html><title>A lesson</title><script type="module" src="../element/attention-explorer.js"></script>' +
        '<attention-explorer assets-base="../nowhere/"></attention-explorer>',
    }),
  );
  const loadError = async () => {
    await page.goto(`${server.url}lesson/missing.html`);
    const status = page.locator('attention-explorer .status.error');
    await status.waitFor({ timeout: 20000 });
    return status.textContent();
  };
  const before = `^Could not load the attention core: WebAssembly module attn_core(\\.relaxed)?\\.wasm could not be loaded from ${server.url}nowhere/attn_core(\\.relaxed)?\\.wasm: `;
  // A server that answers 404
  await page.route(`${server.url}nowhere/embeddings.bin`, (route) =>
    route.fulfill({ path: 'dist/core/embeddings.bin' }),
  );
  await page.route(`${server.url}nowhere/*.wasm`, (route) =>
    route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
  );
  const missing = await loadError();
  assert.match(
    missing,
    new RegExp(`${before}HTTP 404 Not Found: check the path \\(the element's assets-base, or wasmUrl\\)$`),
  );
  assert.doesNotMatch(missing, /Aborted|ASSERTIONS/);
  assert.ok(errors.length <= 1, `at most the browser's own line for the 404: ${errors.join(' | ')}`);
  // A server that answers every path with its index page (as this preview server does)
  await page.unroute(`${server.url}nowhere/*.wasm`);
  assert.match(await loadError(), new RegExp(`${before}not a WebAssembly file \\(it starts with "<!doctype html>`));
  await page.close();
});

test('assets-base: the element and core modules in one folder, the .wasm and word vectors in another', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'ae-assets-'));
  for (const sub of ['lesson/element', 'lesson/core', 'shared-assets'])
    mkdirSync(join(folder, sub), { recursive: true });
  copyFileSync('dist/element/attention-explorer.js', join(folder, 'lesson/element/attention-explorer.js'));
  copyFileSync('dist/core/index.js', join(folder, 'lesson/core/index.js'));
  for (const asset of [
    'attn_core.wasm',
    'attn_core.relaxed.wasm',
    'embeddings.bin',
    'causal.safetensors',
    'masked.safetensors',
  ]) {
    copyFileSync(`dist/core/${asset}`, join(folder, 'shared-assets', asset));
  }
  writeFileSync(
    join(folder, 'lesson/index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>assets-base</title>' +
      '<link rel="icon" href="data:,"><script type="module" src="element/attention-explorer.js"></script></head>' +
      '<body><attention-explorer sentence="a lesson page" assets-base="../shared-assets/"></attention-explorer></body></html>',
  );
  const host = await serveFolder(folder);
  try {
    const { page, errors, requests } = await open(`${host.url}lesson/`, 1);
    assert.deepEqual(await tokensOf(page, 'attention-explorer'), ['a', 'lesson', 'page']);
    const fetched = requests.map((url) => new URL(url).pathname);
    // Chromium runs relaxed SIMD: the element picks that build
    assert.ok(
      fetched.includes('/shared-assets/attn_core.relaxed.wasm') && fetched.includes('/shared-assets/embeddings.bin'),
      fetched.join(' '),
    );
    assert.ok(!fetched.includes('/shared-assets/attn_core.wasm'), 'one .wasm is fetched');
    // The trained decoder loads from the same folder when the page is first idle (trained-models.js preload).
    await page.evaluate(async () => {
      await document.querySelector('attention-explorer').core.languageModel('causal');
    });
    assert.ok(
      requests.map((url) => new URL(url).pathname).includes('/shared-assets/causal.safetensors'),
      'the decoder from assets-base',
    );
    assert.equal(await page.$eval('attention-explorer', (el) => el.core.kernels), 'relaxed-simd');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await host.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the single-file variant works from a static server with no other files beside it', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'ae-single-'));
  copyFileSync('dist/single/attention-explorer.js', join(folder, 'attention-explorer.js'));
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>single file</title>' +
      '<link rel="icon" href="data:,"><script type="module" src="attention-explorer.js"></script></head>' +
      '<body><attention-explorer sentence="the cat sat on the mat" views="attention"></attention-explorer></body></html>',
  );
  const alone = await serveFolder(folder);
  try {
    const { page, errors, requests } = await open(alone.url, 1);
    assert.deepEqual(await tokensOf(page, 'attention-explorer'), ['the', 'cat', 'sat', 'on', 'the', 'mat']);
    // The 5,000 most frequent words, the few more the examples use (tests/e2e/single-file.test.js checks which) and the
    // ~11,700 more the language models predict (their 8,191 and 16,383 output words), out of the asset's 25,477.
    const vocabSize = await page.$eval('attention-explorer', (el) => el.core.vocabSize);
    assert.ok(vocabSize > 16000 && vocabSize < 17500, `vocabulary of ${vocabSize} words`);
    assert.equal(
      await page.$eval('attention-explorer', (el) => el.core.kernels),
      'simd128',
      'it inlines only attn_core.wasm',
    );
    const fetched = requests
      .filter((url) => url.startsWith('http'))
      .map((url) => new URL(url).pathname)
      .sort();
    assert.deepEqual(fetched, ['/', '/attention-explorer.js']);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await alone.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
