// Headless Debian Chromium driven by playwright-core (no browser download), and the built site
// served by Vite's preview server on 127.0.0.1.
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether a console line is the element's own report of a message it shows (author-errors.js: "attention-explorer: …"),
 * which the tests of that message check where it is shown; the other console errors are what the tests guard against.
 */
export function isElementReport(text) {
  return text.startsWith('attention-explorer: ');
}

/** Launches Chromium with a fresh profile; close() removes it. */
export async function launchBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'ae-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Serves dist/ (built by `npm run build`) on 127.0.0.1; returns { url, close }. */
export function serveDist() {
  return serveFolder('dist');
}

/** A static server of `folder` (nothing else) on 127.0.0.1; returns { url, close }. */
export async function serveFolder(folder) {
  const server = await preview({
    root: dirname(resolve(folder)),
    logLevel: 'warn',
    configFile: false,
    build: { outDir: basename(folder) },
    preview: { host: '127.0.0.1', port: 4173, strictPort: false },
  });
  return { url: server.resolvedUrls.local[0], close: () => server.close() };
}

/** Serves a temporary `folder`; close() stops the server and removes the folder. */
async function serveTemporary(folder) {
  const server = await serveFolder(folder);
  return {
    url: server.url,
    close: async () => {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A temporary site holding dist/element/ and dist/core/ side by side (as docs/embedding.md's script-tag recipe copies
 * them: the element imports ../core/index.js) and an index.html whose body is `body`, the element's module loaded in its
 * head; served. close() stops the server and removes the folder.
 * @param {string} title  @param {string} body  HTML @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveElementPage(title, body) {
  const folder = mkdtempSync(join(tmpdir(), 'ae-page-'));
  for (const part of ['element', 'core']) cpSync(`dist/${part}`, join(folder, part), { recursive: true });
  writeFileSync(
    join(folder, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">` +
      `<script type="module" src="element/attention-explorer.js"></script></head><body>${body}</body></html>`,
  );
  return serveTemporary(folder);
}

/**
 * The single file alone in a temporary folder with an index.html whose body is `body`, served; close() stops the server
 * and removes the folder.
 * @param {string} body  HTML @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveSingleFile(body) {
  const folder = mkdtempSync(join(tmpdir(), 'ae-single-'));
  copyFileSync('dist/single/attention-explorer.js', join(folder, 'attention-explorer.js'));
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>single file</title>' +
      `<link rel="icon" href="data:,"><script type="module" src="attention-explorer.js"></script></head><body>${body}</body></html>`,
  );
  return serveTemporary(folder);
}

/**
 * Serves dist/, opens the explorer in a fresh Chromium and waits for its first figure.
 * @returns {Promise<{ server, browser, page, consoleErrors: string[] }>} consoleErrors collects
 *   console errors and uncaught exceptions from then on.
 */
export async function openExplorer() {
  const server = await serveDist();
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  const consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { server, browser, page, consoleErrors };
}

/**
 * Opens the chapter holding figure slot `slot` (by its tab, as a learner would) when it is closed,
 * scrolls the slot into view and waits until it is drawn and fresh.
 * @param {import('playwright-core').Page} page  @param {string} slot  a figure name (figures.js FIGURES)
 * @param {string} [host]  the explorer's selector (default: the first attention-explorer)
 */
export async function showSlot(page, slot, host = 'attention-explorer') {
  const chapter = await page.$eval(
    host,
    (el, slot) => el.shadowRoot.querySelector(`.slot-${slot}`)?.closest('[data-chapter]')?.dataset.chapter,
    slot,
  );
  if (
    chapter &&
    (await page.$eval(
      host,
      (el, chapter) => el.shadowRoot.querySelector(`[data-chapter="${chapter}"]`).classList.contains('closed'),
      chapter,
    ))
  ) {
    await page.click(`${host} [data-chapter-tab="${chapter}"]`);
  }
  // A figure folded away (the line view) is opened, as a learner would.
  await page.$eval(
    host,
    (el, slot) => {
      const details = el.shadowRoot.querySelector(`.slot-${slot}`)?.closest('details');
      if (details) details.open = true;
    },
    slot,
  );
  await page.locator(`${host} .slot-${slot}`).first().scrollIntoViewIfNeeded();
  await page.waitForSelector(`${host} .slot-${slot}:not([data-stale]) > *`);
}

/**
 * The settings these tests were written for: one projected head (the page opens on four designed
 * heads), and "More settings" open so every setting can be chosen.
 * @param {import('playwright-core').Page} page
 */
export async function oneProjectedHead(page) {
  await page.$eval('attention-explorer', (el) => {
    el.shadowRoot.querySelector('.more-settings').open = true;
    el.change({ numHeads: 1, headKinds: [] });
  });
}

/**
 * Waits for the update a keystroke scheduled: the explorer paints the typed text first and its
 * figures in the next frame; getTrace() runs a waiting update at once.
 * @param {import('playwright-core').Page} page  @param {string} [host]
 */
export async function flush(page, host = 'attention-explorer') {
  await page.$eval(host, (el) => {
    el.getTrace();
  });
}

/**
 * For a test file: serves dist/ and launches Chromium before its tests, closes both after them.
 * @returns {{ server?: { url: string }, browser?: { context } }} filled in once the tests start
 */
export function distAndBrowser() {
  const shared = {};
  before(async () => {
    shared.server = await serveDist();
    shared.browser = await launchBrowser();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}

/**
 * A new page of the served site at `hash`, in a viewport, once the explorer has its first Run (any model).
 * @param {{ server, browser }} shared  distAndBrowser()'s @param {string} [hash] @param {{ width: number, height: number }} [viewport]
 * @param {() => void} [initScript]  run in the page before its own scripts (to record what it draws)
 * @returns {Promise<{ page, errors: string[] }>} errors: console errors and uncaught exceptions from then on
 */
export async function openSite(shared, hash = '', viewport = { width: 1440, height: 900 }, initScript) {
  const page = await shared.browser.context.newPage();
  if (initScript) await page.addInitScript(initScript);
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize(viewport);
  await page.goto(`${shared.server.url}${hash ? `#${hash}` : ''}`);
  await page.waitForFunction(() => document.querySelector('attention-explorer')?.getRun?.(), null, { timeout: 30000 });
  return { page, errors };
}
