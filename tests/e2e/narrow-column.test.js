// The element in a course page's content column (700 px, as MkDocs' or a Jupyter Book's), in headless
// Chromium: every view on its own, and with height="560", draws without scrolling sideways inside a
// figure (only a labelled scrolling region may: role=region, aria-label, tabindex=0), nothing sticks out
// of the column, and in a box of fixed height the weights show all their rows without scrolling it.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { VIEWS } from '../../web/src/explorer/attributes.js';
import { distAndBrowser, isElementReport } from './browser.js';

const COLUMN = 700;
const SHOTS = '/tmp/hosts-shots';
const site = distAndBrowser();

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,">
<script type="module" src="../element/attention-explorer.js"></script>
<style>body { margin: 0; font: 16px/1.5 serif; } main { width: ${COLUMN}px; margin: 1rem auto; }</style></head>
<body><main><h1>A lesson</h1><p>Some text before the explorer.</p><div id="here"></div><p>Some text after it.</p></main></body></html>`;

/** A page with the column; place() puts one element with `attributes` in it and waits until its figures are drawn. */
async function columnPage() {
  const page = await site.browser.context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  const url = `${site.server.url}lesson/column.html`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
  await page.goto(url);
  const place = async (attributes) => {
    await page.evaluate((attributes) => {
      const el = document.createElement('attention-explorer');
      for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
      document.querySelector('#here').replaceChildren(el);
    }, attributes);
    await page.waitForFunction(() => document.querySelector('#here attention-explorer')?.getTrace?.(), null, {
      timeout: 30000,
    });
    // Every figure drawn: folded ones opened, each scrolled into view in turn (only those on screen draw).
    await page.$eval('#here attention-explorer', async (el) => {
      for (const details of el.shadowRoot.querySelectorAll('.chapter:not(.closed) details.line-panel'))
        details.open = true;
      for (const slot of el.shadowRoot.querySelectorAll('.chapter:not(.closed) .slot')) {
        if (!slot.checkVisibility()) continue;
        slot.scrollIntoView();
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 60)));
      }
      el.shadowRoot.querySelector('.ae-root').scrollTop = 0;
      el.scrollIntoView();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)));
    });
  };
  return { page, errors, place };
}

/**
 * What is wrong with the element's layout: elements wider than their box (scrolling sideways, or sticking
 * out) other than labelled scrolling regions and what they hold; with a fixed height, weights rows below
 * the box's bottom or cut at its side.
 */
const layoutFaults = (page) =>
  page.$eval('#here attention-explorer', (el) => {
    const root = el.shadowRoot.querySelector('.ae-root');
    const name = (node) => `${node.tagName.toLowerCase()}${[...node.classList].map((c) => `.${c}`).join('')}`;
    const labelledRegion = (node) =>
      node.getAttribute('role') === 'region' && node.hasAttribute('aria-label') && node.tabIndex === 0;
    const faults = [];
    for (const node of [root, ...root.querySelectorAll('*')]) {
      if (
        !(node instanceof HTMLElement) ||
        !node.checkVisibility() ||
        node.closest('.tooltip') ||
        node.clientWidth <= 1
      )
        continue;
      let inRegion = false;
      for (let up = node.parentElement; up && up !== root; up = up.parentElement)
        if (labelledRegion(up)) inRegion = true;
      if (inRegion || labelledRegion(node)) continue;
      if (node.scrollWidth > node.clientWidth + 1)
        faults.push(`${name(node)} ${node.scrollWidth} px in ${node.clientWidth}`);
    }
    const box = root.getBoundingClientRect();
    if (box.width > el.parentElement.clientWidth + 1)
      faults.push(`the element is ${box.width} px wide in a ${el.parentElement.clientWidth} px column`);
    const weights = root.querySelector('.chapter:not(.closed) [data-figure="attention-weights"] canvas');
    if (weights && root.classList.contains('fixed-height')) {
      const cells = weights.getBoundingClientRect();
      if (cells.bottom > box.bottom + 1)
        faults.push(`weights' last row ends ${Math.round(cells.bottom - box.bottom)} px below the box`);
      if (cells.right > box.right + 1)
        faults.push(`weights' last column ends ${Math.round(cells.right - box.right)} px right of the box`);
    }
    return faults;
  });

/** The element in screenshots 1000 px tall (`${path}-1.png`, …): a taller one is too small to read when viewed whole. */
async function screenshots(page, path) {
  const box = await page.$eval('#here attention-explorer', (el) => {
    const { left, top, width, height } = el.getBoundingClientRect();
    return { x: left + scrollX, y: top + scrollY, width, height };
  });
  for (let part = 0; part * 1000 < box.height; part++) {
    const clip = { ...box, y: box.y + part * 1000, height: Math.min(1000, box.height - part * 1000) };
    await page.screenshot({ path: `${path}-${part + 1}.png`, clip, fullPage: true });
  }
}

/** The cases: every view alone, with and without a height, and the pairs a lesson puts side by side. */
const CASES = [
  ...VIEWS.flatMap((view) => [{ views: view }, { views: view, height: '560' }]),
  { views: 'attention,mix', height: '560' },
  { views: 'attention,mix' },
  { views: 'heads,attention,mix', height: '560' },
  { views: 'heads,attention,mix,lines', height: '560' },
  { views: 'positional,lab', height: '560' },
];

test(`in a ${COLUMN} px column, no view scrolls sideways outside a labelled region, and with a height the weights fit`, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page, errors, place } = await columnPage();
  const found = [];
  for (const attributes of CASES) {
    await place(attributes);
    const label = `${attributes.views}${attributes.height ? ` height=${attributes.height}` : ''}`;
    await screenshots(page, `${SHOTS}/${label.replace(/[ ,=]+/g, '-')}`);
    for (const fault of await layoutFaults(page)) found.push(`${label}: ${fault}`);
  }
  console.log(found.map((fault) => `# ${fault}`).join('\n'));
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await page.close();
});
