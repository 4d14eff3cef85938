// The element on static sites with directory URLs, built by real site generators: docs/embedding.md's MkDocs,
// Sphinx (dirhtml, as Jupyter Book builds) and Hugo recipes, read from the docs verbatim (their shell steps,
// configuration and page), built with Debian's MkDocs, Sphinx and Hugo into temporary folders, served, and opened in
// headless Chromium at a nested page (/lessons/attention/) — and for MkDocs at the site's root too —, where the
// element must render inside the content column without overflowing it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, serveFolder } from './browser.js';
import { fencedBlocks, recipeSection, subsection } from './recipes.js';

const OUTPUT = 'test-output';
const SECTION = recipeSection('5. A static site with directory URLs');

/** Hugo renders a page through its theme's layout: this stands in for one, with a 700 px content column. */
const HUGO_LAYOUT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body style="margin: 0"><main style="max-width: 700px; margin: 0 auto; padding: 0 16px">
<h1>{{ .Title }}</h1>{{ .Content }}</main></body></html>`;

/**
 * Each generator: its recipe (a subsection of the docs), the files it is made of (path → the recipe's block, or a file
 * of the test's own where the recipe leaves it to the author), its build command and the folder it publishes.
 */
const GENERATORS = {
  MkDocs: (r) => ({
    files: { 'mkdocs.yml': r.yaml, 'docs/lessons/attention.md': r.markdown, 'docs/index.md': r.markdown },
    build: ['mkdocs', ['build', '--quiet', '--site-dir', 'site']],
    site: 'site',
  }),
  Sphinx: (r) => ({
    files: {
      'conf.py': r.python,
      'lessons/attention.rst': r.rst,
      'index.rst': 'A course\n========\n\n.. toctree::\n\n   lessons/attention\n',
    },
    build: ['sphinx-build', ['-b', 'dirhtml', '-q', '.', '_build']],
    site: '_build',
  }),
  Hugo: (r) => ({
    files: {
      'hugo.toml': r.toml,
      'content/lessons/attention.md': r.markdown,
      'layouts/_default/single.html': HUGO_LAYOUT,
    },
    build: ['hugo', ['--quiet', '--destination', 'public']],
    site: 'public',
  }),
};

const sites = {};
let browser;
before(async () => {
  for (const [name, generator] of Object.entries(GENERATORS)) {
    const recipe = fencedBlocks(subsection(SECTION, name));
    const { files, build, site } = generator(recipe);
    const project = mkdtempSync(join(tmpdir(), `ae-${name.toLowerCase()}-`));
    // The recipe's shell steps, with its placeholder path pointing at this build's dist/.
    execFileSync('bash', ['-euo', 'pipefail', '-c', recipe.sh.replaceAll('path/to/dist', resolve('dist'))], {
      cwd: project,
    });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), text);
    }
    execFileSync(build[0], build[1], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    sites[name] = { project, host: await serveFolder(join(project, site)) };
  }
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  for (const { project, host } of Object.values(sites)) {
    await host.close();
    rmSync(project, { recursive: true, force: true });
  }
});

/**
 * Opens `path` of a generator's site and waits for the explorer's first trace; returns the page and what went wrong
 * with our files: console errors from them and failed requests for them (the theme's own, such as Debian's MkDocs
 * linking highlight.js from a CDN, are not ours to judge).
 */
async function open(generator, path) {
  const { host } = sites[generator];
  const page = await browser.context.newPage();
  const errors = [];
  const ours = (url) => /^(\/_static)?\/attention-explorer\//.test(new URL(url, host.url).pathname);
  page.on('console', (message) => {
    if (message.type() === 'error' && ours(message.location().url || host.url)) errors.push(message.text());
  });
  page.on('pageerror', (error) => /attention-explorer/.test(error.stack ?? '') && errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400 && ours(response.url())) errors.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${host.url}${path}`);
  await page.waitForFunction(() => document.querySelector('attention-explorer')?.getTrace?.(), null, {
    timeout: 30000,
  });
  return { page, errors };
}

/** The element's box, its content column's, and whether anything inside or on the page overflows. */
function layout(page) {
  return page.evaluate(() => {
    const element = document.querySelector('attention-explorer');
    const column = element.closest('[role="main"], .rst-content, main, article') ?? element.parentElement;
    const box = (el) => el.getBoundingClientRect().toJSON();
    const root = element.shadowRoot.querySelector('.ae-root');
    return {
      element: box(element),
      column: box(column),
      rootOverflow: root.scrollWidth - root.clientWidth,
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      tokens: element.getTrace().tokens.length,
    };
  });
}

for (const [generator, path, name] of [
  ['MkDocs', 'lessons/attention/', 'a nested page'],
  ['MkDocs', '', "the site's root"],
  ['Sphinx', 'lessons/attention/', 'a nested page'],
  ['Hugo', 'lessons/attention/', 'a nested page'],
]) {
  test(`${generator} (directory URLs): the element renders at ${name} within the content column`, async () => {
    const { page, errors } = await open(generator, path);
    const seen = await layout(page);
    assert.equal(seen.tokens, 12, 'the sentence of the recipe, traced');
    assert.ok(seen.column.width >= 600 && seen.column.width <= 800, `the theme's column: ${seen.column.width} px`);
    assert.ok(
      seen.element.width > 0 && seen.element.height > 200,
      `the element is drawn: ${JSON.stringify(seen.element)}`,
    );
    assert.ok(seen.element.left >= seen.column.left - 0.5, 'the element starts inside the column');
    assert.ok(
      seen.element.right <= seen.column.right + 0.5,
      `the element ends inside the column: ${seen.element.right} ≤ ${seen.column.right}`,
    );
    assert.ok(seen.rootOverflow <= 0, `nothing inside the element overflows it (${seen.rootOverflow} px)`);
    assert.ok(seen.pageOverflow <= 0, `the page does not scroll sideways (${seen.pageOverflow} px)`);
    assert.deepEqual(errors, []);
    if (path) {
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, `${generator.toLowerCase()}-nested-page.png`), fullPage: false });
    }
    await page.close();
  });
}

test('a wrong assets-base is named in the element with the URL it tried', async () => {
  const { page } = await open('MkDocs', 'lessons/attention/');
  const message = await page.evaluate(async () => {
    const element = document.createElement('attention-explorer');
    element.setAttribute('assets-base', '/nowhere/');
    document.querySelector('attention-explorer').after(element);
    const status = () => element.shadowRoot.querySelector('.status.error')?.textContent;
    for (let i = 0; i < 100 && !status(); i++) await new Promise((done) => setTimeout(done, 100));
    return status();
  });
  assert.match(message ?? '', /\/nowhere\/attn_core(\.relaxed)?\.wasm/);
  await page.close();
});
