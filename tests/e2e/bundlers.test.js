// The npm package in a bundled app, as docs/embedding.md's recipes write it: `npm pack`, then a Vite app and a
// webpack 5 app, each made of the files the recipe names (read from the docs verbatim), the tarball installed
// into it (`npm install --offline`: the package has no dependencies, so no registry and no cache is needed),
// built with this repository's Vite and webpack, served, and opened in headless Chromium with the trained
// decoder on (model="causal"): the bundler must have emitted the .wasm, the word vectors and the model file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, serveFolder } from './browser.js';
import { namedFiles, recipeSection } from './recipes.js';

const BIN = resolve('node_modules/.bin');

/** Each app: its folder in the recipe, how it is built, and the folder then served. */
const APPS = {
  'vite-app': { build: [join(BIN, 'vite'), ['build', '--logLevel', 'error']], served: 'dist' },
  'webpack-app': {
    build: [join(BIN, 'webpack'), ['--config', 'webpack.config.cjs', '--stats', 'errors-only']],
    served: '.',
  },
};

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let browser, folder;
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ae-bundlers-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', folder], process.cwd()));
  const tarball = join(folder, packed.filename);
  const files = namedFiles(recipeSection('6. In a bundled app'));
  for (const app of Object.keys(APPS)) {
    const names = Object.keys(files).filter((path) => path.startsWith(`${app}/`));
    assert.ok(names.length >= 3, `the recipe names the files of ${app}: ${names.join(', ')}`);
    for (const path of names) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), files[path]);
    }
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], join(folder, app));
  }
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

for (const [app, { build, served }] of Object.entries(APPS)) {
  test(`${app}: built from the packed tarball, the element runs the trained decoder with no console errors`, async () => {
    const cwd = join(folder, app);
    run(build[0], build[1], cwd);
    const server = await serveFolder(join(cwd, served));
    const page = await browser.context.newPage();
    const errors = [],
      foreign = [];
    // The browser's own request for /favicon.ico is the app's business, not the element's.
    const ours = (url) => new URL(url).pathname !== '/favicon.ico';
    page.on('console', (message) => {
      if (message.type() === 'error' && ours(message.location().url || server.url)) errors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && ours(response.url())) errors.push(`${response.status()} ${response.url()}`);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on(
      'request',
      (request) => new URL(request.url()).origin !== new URL(server.url).origin && foreign.push(request.url()),
    );
    try {
      await page.goto(server.url);
      await page.waitForSelector('attention-explorer [data-figure="predictions"] section', { timeout: 60000 });
      const words = await page.$$eval('attention-explorer [data-figure="predictions"] section li', (items) =>
        items.map((item) => item.textContent.trim()),
      );
      assert.ok(words.length >= 5, `the decoder's next words are listed: ${words.slice(0, 5).join(' | ')}`);
      const model = await page.$eval('attention-explorer', (el) => el.state.model);
      assert.equal(model, 'causal');
      // "Copy embed code" in the app: the package's import (the app's own bundle would load the whole app), and the
      // element's attributes kept.
      const code = await page.$eval('attention-explorer', (el) => {
        for (const [name, value] of Object.entries({ task: 'sort', autoplay: '', height: '640', controls: 'none' }))
          el.setAttribute(name, value);
        el.setAttribute('views', 'attention,predictions');
        return el.embedCode();
      });
      const lines = code.split('\n');
      assert.equal(lines[2], "  import 'attention-explorer/element';", code);
      assert.doesNotMatch(code, /src=|\.js"/, 'no script of the app bundle');
      for (const attribute of ['model="causal"', 'task="sort"', ' autoplay', 'height="640"', 'controls="none"'])
        assert.ok(lines.at(-1).includes(attribute), `${attribute} kept: ${lines.at(-1)}`);
      assert.match(lines.at(-1), /views="attention,predictions"/);
      assert.deepEqual(errors, []);
      assert.deepEqual(foreign, [], 'nothing loaded from another origin');
    } finally {
      await page.close();
      await server.close();
    }
  });
}
