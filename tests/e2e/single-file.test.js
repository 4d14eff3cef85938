// The single file (dist/single/attention-explorer.js) as course authors host it: alone on a plain page,
// served by a static server whose RESPONSE HEADER sets a strict Content-Security-Policy (no blob:, no
// data:, no inline script). Its figures draw, its Learn chapter trains, its vocabulary covers every word
// of the page's own example sentences and of the examples in README.md and docs/, and a sentence of made-up words is
// named as such in the element. Headless Chromium.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { exampleTexts } from '../../scripts/example-texts.mjs';
import { launchBrowser } from './browser.js';
import { blocksOf, recipeSection } from './recipes.js';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
/** Under /no-workers/: a policy that refuses every worker (training falls back to the page's thread). */
const NO_WORKERS = `${CSP}; worker-src 'none'`;
/** Under /no-wasm/: a policy that forbids compiling WebAssembly. */
const NO_WASM = "default-src 'self'; script-src 'self'";
const POLICIES = { 'no-workers': NO_WORKERS, 'no-wasm': NO_WASM };
// docs/embedding.md's recipes for the models beside the single file, verbatim: the page with its script tag, and the
// tag naming models-base (pointed here at this server's folder of models).
const [BESIDE, ELSEWHERE] = blocksOf(recipeSection('3. Single file'), 'html').slice(0, 2);
const ELSEWHERE_HERE = ELSEWHERE.replace('/course-files/models/', '/models/');

/** A course page holding the single file beside it, with `element` in its body. */
const pageWith = (element) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course page</title>' +
  `<script type="module" src="attention-explorer.js"></script></head><body>${element}</body></html>`;
const PAGE = pageWith('<attention-explorer></attention-explorer>');

let server, url, browser;

/** A static server of one page and the single file, every response carrying the policy (another one under POLICIES' folders). */
function serve() {
  const single = readFileSync('dist/single/attention-explorer.js');
  const model = (kind) => ['application/octet-stream', readFileSync(`dist/core/${kind}.safetensors`)];
  const files = {
    '/': ['text/html', PAGE],
    '/attention-explorer.js': ['text/javascript', single],
    '/favicon.ico': ['image/x-icon', ''],
    // The models uploaded beside the single file.
    '/with-models/': [
      'text/html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course page</title></head><body>${BESIDE}</body></html>`,
    ],
    '/with-models/attention-explorer.js': ['text/javascript', single],
    '/with-models/causal.safetensors': model('causal'),
    '/with-models/masked.safetensors': model('masked'),
    // The models in a folder of their own, named by models-base.
    '/elsewhere/': ['text/html', pageWith(ELSEWHERE_HERE)],
    '/elsewhere/attention-explorer.js': ['text/javascript', single],
    '/models/causal.safetensors': model('causal'),
    '/models/masked.safetensors': model('masked'),
    '/language/': ['text/html', pageWith('<attention-explorer views="learn" task="language"></attention-explorer>')],
    '/language/attention-explorer.js': ['text/javascript', single],
  };
  server = createServer((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const [, folder, rest] = path.match(/^\/([^/]+)(\/.*)$/) ?? [];
    const file = files[POLICIES[folder] ? rest : path];
    const policy = POLICIES[folder] ?? CSP;
    response.writeHead(file ? 200 : 404, {
      'content-type': file?.[0] ?? 'text/plain',
      'content-security-policy': policy,
    });
    response.end(file?.[1] ?? 'not found');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/`)),
  );
}

before(async () => {
  url = await serve();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page of the course site; problems: console errors (CSP violations among them) and uncaught exceptions. */
async function open(path = '', ready = 'attention-explorer [data-figure="attention-weights"]') {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${url}${path}`);
  await page.waitForSelector(ready, { timeout: 30000 });
  return { page, problems };
}

test('under a strict CSP response header the single file draws its figures and its Learn chapter trains', async () => {
  const { page, problems } = await open();
  await page.fill('attention-explorer textarea', 'policy holds');
  await page.$eval('attention-explorer', (el) => {
    el.getTrace();
  });
  assert.equal(await page.getAttribute('attention-explorer [data-figure="attention-weights"]', 'data-rows'), '2');
  await page.click('attention-explorer [data-chapter-tab="learn"]');
  await page.waitForSelector('attention-explorer .learn-readout[data-step="0"]', { timeout: 30000 });
  await page.click('attention-explorer [data-action="step"]');
  await page.waitForSelector('attention-explorer .learn-readout[data-step="1"]', { timeout: 30000 });
  // Running trains on, and the explorer still answers while it does.
  await page.click('attention-explorer [data-action="train"]');
  await page.waitForFunction(
    () =>
      Number(document.querySelector('attention-explorer').shadowRoot.querySelector('.learn-readout').dataset.step) >=
      20,
    null,
    { timeout: 30000 },
  );
  // In a worker: the policy lets the file start itself (the note says when training falls back to the page's thread).
  assert.equal(
    await page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('.learn-thread').hidden),
    true,
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test("where the policy refuses every worker, the Learn chapter trains on the page's thread and names the directive", async () => {
  const { page, problems } = await open('no-workers/');
  await page.click('attention-explorer [data-chapter-tab="learn"]');
  await page.click('attention-explorer [data-action="train"]');
  await page.waitForFunction(
    () =>
      Number(document.querySelector('attention-explorer').shadowRoot.querySelector('.learn-readout')?.dataset.step) >=
      20,
    null,
    { timeout: 30000 },
  );
  const note = await page.$eval('attention-explorer', (el) => {
    const p = el.shadowRoot.querySelector('.learn-thread');
    return { hidden: p.hidden, text: p.textContent };
  });
  assert.equal(note.hidden, false);
  assert.match(note.text, /on the page's thread.*\(worker-src\) refused it; add worker-src 'self' blob:/);
  // Typing still draws while it trains.
  await page.click('attention-explorer [data-chapter-tab="attention"]');
  await page.fill('attention-explorer textarea', 'typing while training');
  await page.$eval('attention-explorer', (el) => {
    el.getTrace();
  });
  assert.equal(await page.getAttribute('attention-explorer [data-figure="attention-weights"]', 'data-rows'), '3');
  // The browser's own report of the refused worker is the only console error.
  assert.deepEqual(
    problems.filter(
      (p) => !/Creating a worker from .* violates the following Content Security Policy directive/.test(p),
    ),
    [],
  );
  await page.close();
});
test("a policy without 'wasm-unsafe-eval': the element names the directive to add", async () => {
  const { page } = await open('no-wasm/', 'attention-explorer .status.error');
  assert.match(await page.textContent('attention-explorer .status'), /add 'wasm-unsafe-eval' to script-src/);
  await page.close();
});

test("the single file knows every word of the default sentences, the tour and the documentation's examples; made-up words are named", async () => {
  const { page, problems } = await open();
  const texts = exampleTexts();
  assert.ok(
    texts.some((t) => /muddy/.test(t)) && texts.some((t) => /deposited/.test(t)) && texts.some((t) => /tired/.test(t)),
    texts.join(' | '),
  );
  const unknown = await page.$eval(
    'attention-explorer',
    (el, texts) =>
      texts.flatMap((text) =>
        el.core
          .tokenize(text)
          .filter((token) => token.oov)
          .map((token) => `${token.text} (in "${text}")`),
      ),
    texts.filter((t) => !/Flussufer/.test(t)),
  );
  assert.deepEqual(unknown, []);
  assert.equal(await page.textContent('attention-explorer .notice'), '', 'no notice for the default sentence');
  const madeUp = 'the blorfin zendrak vlimmed over a snarfle with flimbo';
  await page.fill('attention-explorer textarea', madeUp);
  await page.$eval('attention-explorer', (el) => {
    el.getTrace();
  });
  const { vocabSize, oov } = await page.$eval(
    'attention-explorer',
    (el, text) => ({ vocabSize: el.core.vocabSize, oov: el.core.tokenize(text).filter((token) => token.oov).length }),
    madeUp,
  );
  assert.equal(oov, 5, 'blorfin, zendrak, vlimmed, snarfle and flimbo are no words');
  assert.match(
    await page.textContent('attention-explorer .notice'),
    new RegExp(
      `5 of 9 words are not in this build's vocabulary \\(it carries ${vocabSize.toLocaleString('en-US')} words\\); they get stand-in vectors`,
    ),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

/** The URLs a page requested, as paths. */
function requests(page) {
  const paths = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/** The decoder's next words and the encoder's heads, once a trained model has run. */
const trainedRun = (page) =>
  page.$eval('attention-explorer', (el) => {
    const run = el.getRun();
    return {
      model: run.model,
      status: run.status ?? 'ready',
      heads: run.heads.length,
      top: run.predictions?.[0]?.top?.[0]?.word,
    };
  });

for (const [folder, models] of [
  ['with-models/', '/with-models/'],
  ['elsewhere/', '/models/'],
]) {
  test(`under the strict CSP the single file runs the trained models from ${models} (${folder}), its .wasm and word vectors inlined`, async () => {
    const page = await browser.context.newPage();
    const problems = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const paths = requests(page);
    await page.goto(`${url}${folder}`);
    await page.waitForSelector('attention-explorer [data-figure="predictions"] section li', { timeout: 60000 });
    const decoder = await trainedRun(page);
    assert.deepEqual([decoder.model, decoder.status, decoder.heads], ['causal', 'ready', 16]); // 4 layers × 4 heads
    assert.ok(decoder.top, 'a next word is predicted');
    await page.$eval('attention-explorer', (el) => el.change({ model: 'masked' }));
    await page.waitForFunction(
      () => {
        const run = document.querySelector('attention-explorer').getRun();
        return run.model === 'masked' && (run.status ?? 'ready') === 'ready' && run.heads.length > 0;
      },
      null,
      { timeout: 30000 },
    );
    assert.equal((await trainedRun(page)).heads, 16, "the encoder's 4 layers × 4 heads");
    assert.deepEqual(
      paths.filter((path) => !path.startsWith(`/${folder}`)),
      folder === 'elsewhere/' ? ['/models/causal.safetensors', '/models/masked.safetensors'] : [],
      'only the models are fetched from models-base',
    );
    assert.ok(
      !paths.some((path) => /\.wasm$|embeddings/.test(path)),
      `the .wasm and word vectors are inlined: ${paths}`,
    );
    assert.equal(
      await page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('.model-note').hidden),
      true,
    );
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('the single file without its models: choosing one says which file to upload, and where', async () => {
  const { page, problems } = await open();
  await page.$eval('attention-explorer', (el) => el.change({ model: 'causal' }));
  await page.waitForSelector('attention-explorer .model-note:not([hidden])', { timeout: 30000 });
  const note = await page.textContent('attention-explorer .model-note');
  assert.match(
    note,
    /needs its file, causal\.safetensors \(in the npm package's dist\/core\/\).*models-base attribute/,
  );
  // The figures name the address it was looked for at.
  const figure = await page.$eval(
    'attention-explorer',
    (el) => el.shadowRoot.querySelector('.chapters .status.error')?.textContent ?? '',
  );
  assert.match(figure, new RegExp(`${url}causal\\.safetensors: HTTP 404`), figure);
  assert.match(figure, /causal\.safetensors ships in the npm package's dist\/core\/: put it at that address/);
  // The browser's own report of the 404 is the only console error.
  assert.deepEqual(
    problems.filter((p) => !/Failed to load resource: .*404/.test(p)),
    [],
  );
  await page.close();
});

test('the single file\'s Learn language task opens on "your own text" (it carries no sample of the corpus)', async () => {
  const { page, problems } = await open('language/', 'attention-explorer .language-lesson');
  const lesson = await page.$eval('attention-explorer', (el) => {
    const root = el.shadowRoot;
    const source = root.querySelector('select[name="languageSource"]');
    return {
      source: source.value,
      sampleOffered: !source.options[0].disabled,
      ownTextShown: root.querySelector('.own-text').checkVisibility(),
      readout: root.querySelector('.language-lesson .learn-readout').textContent,
    };
  });
  assert.deepEqual(
    { source: lesson.source, sampleOffered: lesson.sampleOffered, ownTextShown: lesson.ownTextShown },
    { source: 'own', sampleOffered: false, ownTextShown: true },
  );
  assert.match(lesson.readout, /paste English text above/);
  assert.deepEqual(problems, []);
  await page.close();
});
