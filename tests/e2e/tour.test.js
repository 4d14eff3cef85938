// The guided tour in headless Chromium: walk every step with Next and back with the keyboard (state,
// scrolled section, URL), a step's link in a fresh page, the `tour` attribute in an embedded element,
// an axe-core audit with the tour open, screenshots, and no console errors throughout.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TOUR_STEPS } from '../../web/src/explorer/tour-steps.js';
import { isElementReport, openExplorer, serveFolder } from './browser.js';

const OUTPUT = 'test-output';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let server, browser, page, consoleErrors;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  ({ server, browser, page, consoleErrors } = await openExplorer());
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(url) {
  await page.goto(url);
  await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
}

/**
 * What the explorer shows now: its tour step, the panel's text, the state, the URL hash, and where the
 * step's section is (its top against the visible area: the whole view beside the panel's rail, or
 * above the panel docked at the bottom).
 */
const shown = (p, selector = 'attention-explorer') =>
  p.$eval(
    selector,
    (el, steps) => {
      const root = el.shadowRoot;
      const panel = root.querySelector('.tour');
      const step = steps.find((s) => s.id === el.tour);
      const anchor =
        step &&
        (step.figure ? root.querySelector(`.slot-${step.figure}`) : root.querySelector(`[data-view="${step.view}"]`));
      const section = anchor?.closest('section').getBoundingClientRect();
      const box = el.hasAttribute('height') ? root.querySelector('.ae-root').getBoundingClientRect() : { top: 0 };
      return {
        tour: el.tour,
        panel: panel.checkVisibility()
          ? `${panel.querySelector('.tour-count').textContent}: ${panel.querySelector('.tour-title').textContent}`
          : null,
        state: el.state,
        hash: decodeURIComponent(location.hash),
        sectionTop: section && section.top - box.top,
        figureTop: step?.figure ? anchor.getBoundingClientRect().top - box.top : null,
        visibleHeight:
          section && panel.getBoundingClientRect().left >= section.right - 1
            ? el.hasAttribute('height')
              ? root.querySelector('.ae-root').clientHeight
              : innerHeight
            : panel.getBoundingClientRect().top - box.top,
        focus: root.activeElement?.className ?? null,
        controlShown: step?.control
          ? (root.querySelector(`[name="${step.control}"]`)?.checkVisibility() ?? false)
          : null,
      };
    },
    TOUR_STEPS.map(({ id, view, figure, control }) => ({ id, view, figure, control })),
  ); // what the page needs (a step's text may be a function)

/** Checks that the explorer shows step k (0-based) of the whole tour. */
function assertStep(view, k, { hash = true } = {}) {
  const step = TOUR_STEPS[k];
  assert.equal(view.tour, step.id);
  assert.equal(view.panel, `Step ${k + 1} of ${TOUR_STEPS.length}: ${step.title}`);
  for (const [key, value] of Object.entries(step.state))
    assert.deepEqual(view.state[key], value, `${step.id}: state.${key}`);
  if (hash) assert.match(view.hash, new RegExp(`(^#|&)tour=${step.id}($|&)`), `${step.id}: the hash names the step`);
  if (step.control)
    assert.equal(view.controlShown, true, `${step.id}: the setting its text points at (${step.control}) is on screen`);
  // The section's start in view, or, for a figure far down its section, the figure's (tour.js fitInView).
  const inView = (top) => top !== null && top >= -2 && top < view.visibleHeight - 100;
  assert.ok(
    inView(view.sectionTop) || inView(view.figureTop),
    `${step.id}: its section (top ${view.sectionTop} px) or its figure (${view.figureTop}) starts in view, panel from ${view.visibleHeight} px`,
  );
}

test('the demo offers the tour without starting it; Next walks every step, the keyboard walks back, Escape closes', async () => {
  await open(server.url);
  let view = await shown(page);
  assert.equal(view.tour, '');
  assert.equal(view.panel, null, 'not started by default');
  assert.equal(view.hash, '');
  await page.click('attention-explorer .share-button:has-text("Take the guided tour")');
  view = await shown(page);
  assertStep(view, 0);
  assert.equal(view.focus, 'tour-title', 'focus moves to the step, for screen readers');
  assert.equal(
    await page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('.tour-main').getAttribute('aria-live')),
    'polite',
  );
  for (let k = 1; k < TOUR_STEPS.length; k++) {
    await page.click('attention-explorer .tour-next');
    assertStep(await shown(page), k);
    if (TOUR_STEPS[k].id === 'designed-heads') await page.screenshot({ path: `${OUTPUT}/tour-step.png` });
  }
  assert.equal(await page.textContent('attention-explorer .tour-next'), 'Finish');
  await page.keyboard.press('ArrowRight'); // keys never finish the tour
  assertStep(await shown(page), TOUR_STEPS.length - 1);
  for (let k = TOUR_STEPS.length - 2; k >= 0; k--) {
    await page.keyboard.press(k % 2 ? 'ArrowLeft' : 'PageUp');
    assertStep(await shown(page), k);
  }
  await page.keyboard.press('ArrowLeft'); // nothing before the first step
  assertStep(await shown(page), 0);
  await page.keyboard.press('PageDown');
  assertStep(await shown(page), 1);
  await page.keyboard.press('Escape');
  view = await shown(page);
  assert.equal(view.tour, '');
  assert.equal(view.panel, null);
  assert.doesNotMatch(view.hash, /tour=/);
  assert.match(view.focus, /tour-start/, 'focus returns to the tour button');
  assert.equal(
    await page.$eval('attention-explorer', (el) => el.shadowRoot.activeElement.textContent),
    'Take the guided tour',
  );
});

test('Finish on the last step closes the tour; the change event carries the step', async () => {
  await open(server.url);
  const events = await page.$eval(
    'attention-explorer',
    (el, last) => {
      const seen = [];
      el.addEventListener('change', (event) => seen.push(event.detail.tour));
      el.tour = last; // a step number, as the attribute takes
      el.shadowRoot.querySelector('.tour-next').click();
      return seen;
    },
    TOUR_STEPS.length,
  );
  assert.deepEqual(events, [TOUR_STEPS.at(-1).id, '']);
  assert.equal((await shown(page)).panel, null);
});

test('each step has a URL: opening it in a fresh page shows that step with its state', async () => {
  await open(server.url);
  await page.$eval('attention-explorer', (el) => {
    el.tour = 'shuffle';
  });
  const link = page.url();
  assert.match(link, /#.*tour=shuffle/);
  const fresh = await browser.context.newPage();
  const errors = [];
  fresh.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  fresh.on('pageerror', (error) => errors.push(error.message));
  await fresh.goto(link);
  await fresh.waitForFunction(() => document.querySelector('attention-explorer').getRun(), null, { timeout: 20000 });
  await fresh.waitForSelector('attention-explorer .tour:not([hidden])');
  await fresh.waitForTimeout(300); // the step's section is scrolled into view once the first figures are drawn
  const k = TOUR_STEPS.findIndex((step) => step.id === 'shuffle');
  assertStep(await shown(fresh), k);
  assert.equal(await fresh.$eval('attention-explorer', (el) => el.getTrace().options.positionalEncoding), 'none');
  // A step whose text points at a setting in More settings opens them from its link too.
  await fresh.goto(`${server.url}#tour=scaled-scores`);
  await fresh.waitForSelector('attention-explorer .tour:not([hidden])');
  await fresh.waitForTimeout(300);
  assertStep(
    await shown(fresh),
    TOUR_STEPS.findIndex((step) => step.id === 'scaled-scores'),
  );
  // A hand-edited link to an unknown step keeps the rest and opens no tour.
  await fresh.goto(`${server.url}#temperature=2&tour=nowhere`);
  await fresh.waitForFunction(() => document.querySelector('attention-explorer').getRun(), null, { timeout: 20000 });
  const view = await shown(fresh);
  assert.deepEqual([view.tour, view.panel, view.state.temperature], ['', null, 2]);
  assert.deepEqual(errors, []);
  await fresh.close();
});

test('the iframe query ?tour=3 starts the demo at step 3', async () => {
  await open(`${server.url}?tour=3`);
  await page.waitForSelector('attention-explorer .tour:not([hidden])');
  await page.waitForTimeout(300);
  assertStep(await shown(page), 2, { hash: false }); // the attribute's step is the default: not repeated in the hash
});

test('embedded: tour="3" starts at step 3 inside a scrolling element; a bad value is named; views limit the steps', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'ae-tour-'));
  for (const dir of ['element', 'core']) cpSync(`dist/${dir}`, join(folder, dir), { recursive: true });
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tour</title>' +
      '<link rel="icon" href="data:,"><script type="module" src="element/attention-explorer.js"></script></head><body><main>' +
      '<h1>A lesson</h1><attention-explorer id="full" tour="3" height="700"></attention-explorer>' +
      '<attention-explorer id="some" views="heads,attention" tour></attention-explorer></main></body></html>',
  );
  const host = await serveFolder(folder);
  const embedded = await browser.context.newPage();
  const errors = [],
    reports = [];
  embedded.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (isElementReport(message.text())) reports.push(message.text());
    else errors.push(message.text());
  });
  embedded.on('pageerror', (error) => errors.push(error.message));
  try {
    await embedded.setViewportSize({ width: 1100, height: 900 });
    await embedded.goto(host.url);
    await embedded.waitForFunction(
      () => [...document.querySelectorAll('attention-explorer')].every((el) => el.getTrace()),
      null,
      { timeout: 30000 },
    );
    // the first figures drawn, then step 3's section in view in the element's own box
    await embedded.waitForSelector('#full .tour:not([hidden])');
    await embedded.waitForTimeout(300);
    assertStep(await shown(embedded, '#full'), 2, { hash: false });
    assert.equal(await embedded.evaluate(() => location.hash), '', 'without url-state the page URL is left alone');
    assert.equal(
      await embedded.evaluate(() => scrollY),
      0,
      "opening at a step scrolls the element's own box, not the host page",
    );
    await embedded.screenshot({ path: `${OUTPUT}/tour-embedded.png` });

    const moved = await embedded.$eval('#full', (el) => {
      const seen = [];
      el.addEventListener('change', (event) => seen.push(event.detail.tour));
      el.shadowRoot.querySelector('.tour-next').click();
      el.setAttribute('tour', 'bogus');
      const error = el.shadowRoot.querySelector('.config-errors').textContent;
      const afterBad = el.tour;
      el.setAttribute('tour', 'causal-mask');
      const afterGood = el.tour;
      el.removeAttribute('tour');
      return {
        seen,
        error,
        afterBad,
        afterGood,
        closed: el.tour,
        button: el.shadowRoot.querySelector('.share-button').checkVisibility(),
      };
    });
    assert.deepEqual(moved.seen, [TOUR_STEPS[3].id, 'causal-mask', '']);
    assert.match(
      moved.error,
      /Attribute tour="bogus": must be empty, a step number from 1 to \d+, or a step id: attention-weights, /,
    );
    assert.deepEqual(
      [moved.afterBad, moved.afterGood, moved.closed, moved.button],
      [TOUR_STEPS[3].id, 'causal-mask', '', true],
    );

    const limited = TOUR_STEPS.filter((step) => ['heads', 'attention'].includes(step.view));
    const some = await shown(embedded, '#some');
    assert.equal(
      some.panel,
      `Step 1 of ${limited.length}: ${limited[0].title}`,
      'only the steps whose figures are shown',
    );
    assert.deepEqual(errors, []);
    // The bad value named in the element is said once on the console too (author-errors.js).
    assert.deepEqual(
      reports.map((line) => line.replace(/:.*/s, '')),
      ['attention-explorer'],
      `reports: ${reports.join(' | ')}`,
    );
    assert.match(reports[0], /^attention-explorer: Attribute tour="bogus": must be empty/);
  } finally {
    await embedded.close();
    await host.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('axe-core: no violations with the tour open (light and dark)', async () => {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await open(`${server.url}#tour=heads&numHeads=4&projection=random`);
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        count: v.nodes.length,
        target: v.nodes[0]?.target,
      })),
    );
    console.log(
      `axe (${colorScheme}, tour open): ${violations.map((v) => `${v.impact} ${v.id} (${v.count}) ${JSON.stringify(v.target)}`).join(', ') || 'no violations'}`,
    );
    assert.deepEqual(violations, []);
    assert.equal((await shown(page)).tour, 'heads');
    if (colorScheme === 'dark') await page.screenshot({ path: `${OUTPUT}/tour-dark.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
