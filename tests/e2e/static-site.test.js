// The element on a static site with directory URLs, built by a real site generator: docs/embedding.md's
// MkDocs recipe, read from the docs verbatim (its shell steps, mkdocs.yml and page), built with Debian's
// MkDocs into a temporary folder, served, and opened in headless Chromium at a nested page
// (/lessons/attention/) and at the site's root, where the element must render inside the theme's content
// column without overflowing it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, serveFolder } from './browser.js';
import { fencedBlocks, recipeSection } from './recipes.js';

const OUTPUT = 'test-output';

let browser, host, site;
before(async () => {
  const recipe = fencedBlocks(recipeSection('5. A static site with directory URLs'));
  const project = mkdtempSync(join(tmpdir(), 'ae-mkdocs-'));
  // The recipe's shell steps, with its placeholder path pointing at this build's dist/.
  const steps = recipe.sh.replaceAll('path/to/dist', resolve('dist'));
  execFileSync('bash', ['-euo', 'pipefail', '-c', steps], { cwd: project });
  writeFileSync(join(project, 'mkdocs.yml'), recipe.yaml);
  mkdirSync(join(project, 'docs/lessons'), { recursive: true });
  writeFileSync(join(project, 'docs/lessons/attention.md'), recipe.markdown);
  // The same page at the site's root: the root path works at any depth.
  writeFileSync(join(project, 'docs/index.md'), recipe.markdown);
  execFileSync('mkdocs', ['build', '--quiet', '--site-dir', 'site'], { cwd: project });
  site = project;
  host = await serveFolder(join(project, 'site'));
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await host?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

/**
 * Opens `path` of the site and waits for the explorer's first trace; returns the page and what went wrong with our
 * files: console errors from them and failed requests for them (the theme's own, such as Debian's MkDocs linking
 * highlight.js from a CDN, are not ours to judge).
 */
async function open(path) {
  const page = await browser.context.newPage();
  const errors = [];
  const ours = (url) => new URL(url, host.url).pathname.startsWith('/attention-explorer/');
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

for (const [path, name] of [
  ['lessons/attention/', 'a nested page'],
  ['', "the site's root"],
]) {
  test(`MkDocs (directory URLs, readthedocs theme): the element renders at ${name} within the content column`, async () => {
    const { page, errors } = await open(path);
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
      await page.screenshot({ path: join(OUTPUT, 'mkdocs-nested-page.png'), fullPage: false });
    }
    await page.close();
  });
}

test('a wrong assets-base is named in the element with the URL it tried', async () => {
  const { page } = await open('lessons/attention/');
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
