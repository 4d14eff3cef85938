// The page as chapters, end to end in headless Chromium: the first screen (weights large and the mix,
// at most six settings in view) at 1440×900 and on a 390 px phone, each chapter by link, the tour
// giving back the learner's state, an embedded heatmap inside its fixed-height box, and the theme.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { isElementReport, launchBrowser, serveDist } from './browser.js';

const OUTPUT = 'test-output';
const CHAPTERS = ['attention', 'inside-head', 'positions', 'lenses', 'learn'];
let server, browser;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await serveDist();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash = '', viewport = { width: 1440, height: 900 }) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isElementReport(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize(viewport);
  await page.goto(`${server.url}${hash ? `#${hash}` : ''}`);
  await page.waitForFunction(() => document.querySelector('attention-explorer')?.getRun?.(), null, { timeout: 30000 });
  return { page, errors };
}

/** The open chapter's figures are drawn (the slots near the viewport are fresh). */
async function settled(page) {
  await page.waitForTimeout(300);
  await page.waitForFunction(() => {
    const root = document.querySelector('attention-explorer').shadowRoot;
    const open = root.querySelector('.chapter:not(.closed)');
    return open && open.querySelector('figure, [data-figure]');
  });
}

const box = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });

test('first screen at 1440×900: the weights wholly in view, ≤ 6 settings, and typing a word changes the figure', async () => {
  const { page, errors } = await open();
  await settled(page);
  const figure = await box(page, 'attention-explorer [data-figure="attention-weights"]');
  assert.ok(figure.top >= 0 && figure.bottom <= 900 && figure.right <= 1440, `heatmap at ${JSON.stringify(figure)}`);
  const mix = await box(page, 'attention-explorer [data-figure="mix"]');
  assert.ok(mix.top < 900 && mix.right <= 1440, `mix at ${JSON.stringify(mix)}`);
  // Setting controls in the first viewport (the sentence box is the input, not a setting).
  const settings = await page.$eval('attention-explorer', (el) =>
    [...el.shadowRoot.querySelectorAll('select, input')]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return c.checkVisibility() && r.bottom > 0 && r.top < innerHeight;
      })
      .map((c) => c.name),
  );
  assert.ok(settings.length <= 6, `settings in view: ${settings.join(', ')}`);
  // A pattern a learner can name: designed heads, each with its line.
  const heads = await page.$$eval('attention-explorer .head-thumb .head-does', (lines) =>
    lines.map((l) => l.textContent),
  );
  assert.deepEqual(heads.length, 4);
  assert.ok(
    heads.some((line) => /1 word back/.test(line)),
    heads.join(' | '),
  );
  await page.screenshot({ path: `${OUTPUT}/chapter-attention-desktop.png` });

  const before = await page.$eval('attention-explorer [data-figure="attention-weights"]', (f) => [
    f.dataset.rows,
    f.querySelector('canvas').toDataURL(),
  ]);
  await page.focus('attention-explorer textarea');
  await page.keyboard.press('End');
  await page.keyboard.type(' today');
  await page.waitForFunction(
    (rows) =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="attention-weights"]')
        ?.dataset.rows !== rows,
    before[0],
  );
  const afterTyping = await page.$eval('attention-explorer [data-figure="attention-weights"]', (f) => [
    f.dataset.rows,
    f.querySelector('canvas').toDataURL(),
  ]);
  assert.equal(Number(afterTyping[0]), Number(before[0]) + 1);
  assert.notEqual(afterTyping[1], before[1], 'the drawn weights changed');
  const stillInView = await box(page, 'attention-explorer [data-figure="attention-weights"]');
  assert.ok(stillInView.bottom <= 900, 'still wholly in view after typing');
  assert.deepEqual(errors, []);
  await page.close();
});

test("the mix: its bars are the weights row, its stacked sum the head's output row; hovering a row moves it", async () => {
  const { page, errors } = await open();
  await settled(page);
  const read = () =>
    page.$eval('attention-explorer', (el) => {
      const figure = el.shadowRoot.querySelector('[data-figure="mix"]');
      const trace = el.getTrace();
      const { head, query } = { head: Number(figure.dataset.head), query: Number(figure.dataset.query) };
      const n = trace.tokens.length,
        { weights, output } = trace.heads[head];
      const dV = output.shape[1];
      return {
        query,
        bars: [...figure.mix.weights],
        row: [...weights.data.slice(query * n, (query + 1) * n)],
        stacked: [...figure.mix.output],
        output: [...output.data.slice(query * dV, (query + 1) * dV)],
      };
    });
  const first = await read();
  assert.equal(first.query, 2, 'the default query is the third word ("bank")');
  assert.deepEqual(first.bars, first.row);
  const maxDiff = Math.max(...first.stacked.map((v, c) => Math.abs(v - first.output[c])));
  assert.ok(maxDiff < 1e-5, `Σ_j a_ij v_j vs the core's output row: max |difference| ${maxDiff}`);
  // Hover the row of "muddy" (position 4) in the weights.
  const canvas = page.locator('attention-explorer [data-figure="attention-weights"] canvas').first();
  const { height } = await canvas.boundingBox();
  const rows = Number(await page.$eval('attention-explorer [data-figure="attention-weights"]', (f) => f.dataset.rows));
  await canvas.hover({ position: { x: 5, y: (4.5 * height) / rows } });
  await page.waitForFunction(
    () =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="mix"]').dataset.query ===
      '4',
  );
  const hovered = await read();
  assert.deepEqual(hovered.bars, hovered.row);
  assert.ok(Math.max(...hovered.stacked.map((v, c) => Math.abs(v - hovered.output[c]))) < 1e-5);
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone 390×844: no sideways overflow, the weights within the first 1.5 screens', async () => {
  const { page, errors } = await open('', { width: 390, height: 844 });
  await settled(page);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no horizontal overflow');
  const figure = await box(page, 'attention-explorer [data-figure="attention-weights"]');
  assert.ok(figure.top < 1.5 * 844, `heatmap starts at ${figure.top}px`);
  await page.screenshot({ path: `${OUTPUT}/chapter-attention-phone.png`, fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('each chapter opens by link and by its tab, and draws its own figures; screenshots at both sizes', async () => {
  const figureOf = {
    attention: 'attention-weights',
    'inside-head': 'pipeline',
    positions: 'lab-encoding',
    lenses: 'projection',
    learn: 'learn-heads',
  };
  const slotOf = { attention: 'attention', 'inside-head': 'pipeline', positions: 'labEncoding', lenses: 'projection' };
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    for (const chapter of CHAPTERS) {
      const { page, errors } = await open(`chapter=${chapter}`, viewport);
      // Figures draw when they come near the screen: on a phone the chapter's first may start below it.
      if (slotOf[chapter]) await page.locator(`attention-explorer .slot-${slotOf[chapter]}`).scrollIntoViewIfNeeded();
      await page.waitForSelector(
        `attention-explorer [data-chapter="${chapter}"]:not(.closed) [data-figure="${figureOf[chapter]}"]`,
        { timeout: 20000 },
      );
      const selected = await page.$eval(
        'attention-explorer',
        (el) => el.shadowRoot.querySelector('[role="tab"][aria-selected="true"]').dataset.chapterTab,
      );
      assert.equal(selected, chapter);
      const laidOut = await page.$eval('attention-explorer', (el) =>
        [...el.shadowRoot.querySelectorAll('.chapter')]
          .filter((c) => c.checkVisibility())
          .map((c) => c.dataset.chapter),
      );
      assert.deepEqual(laidOut, [chapter], 'only the open chapter is laid out');
      await page.screenshot({ path: `${OUTPUT}/chapter-${chapter}-${viewport.width}.png`, fullPage: true });
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
  // A link naming no chapter shows the first, and says so.
  const unknown = await open('chapter=bogus');
  await unknown.page.waitForSelector(
    'attention-explorer [data-chapter="attention"]:not(.closed) [data-figure="attention-weights"]',
  );
  assert.match(
    await unknown.page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('.notice').textContent),
    /There is no chapter “bogus” \(chapters: attention, inside-head, positions, lenses, learn\); showing the first\./,
  );
  await unknown.page.close();
  // By tab: the URL follows.
  const { page } = await open();
  await page.click('attention-explorer [data-chapter-tab="positions"]');
  await page.waitForSelector('attention-explorer [data-chapter="positions"]:not(.closed) [data-figure="lab-encoding"]');
  assert.match(await page.evaluate(() => location.hash), /chapter=positions/);
  await page.close();
});

test('inside one head: one step at a time, next and previous move it, the step is in the URL', async () => {
  const { page, errors } = await open('chapter=inside-head');
  await page.waitForSelector('attention-explorer [data-figure="pipeline"]');
  const state = () =>
    page.$eval('attention-explorer [data-figure="pipeline"]', (p) => ({
      step: Number(p.dataset.step),
      steps: Number(p.dataset.steps),
      large: p.querySelectorAll('.step').length,
      title: p.querySelector('.step h3').textContent,
    }));
  const first = await state();
  assert.deepEqual([first.step, first.large, first.title], [1, 1, '1. Word vectors']);
  await page.click('attention-explorer .step-next');
  await page.waitForFunction(
    () =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').dataset.step ===
      '2',
  );
  await page.click(`attention-explorer .step-number[data-step="${first.steps}"]`);
  await page.waitForFunction(
    (n) =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').dataset.step ===
      String(n),
    first.steps,
  );
  assert.match(await page.evaluate(() => location.hash), new RegExp(`step=${first.steps}`));
  await page.click('attention-explorer .step-previous');
  await page.waitForFunction(
    (n) =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').dataset.step ===
      String(n - 1),
    first.steps,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("the tour: a #tour link applies its step; Escape gives back the learner's sentence and heads", async () => {
  const { page, errors } = await open('tour=causal-mask');
  await page.waitForSelector('attention-explorer .tour:not([hidden])');
  assert.equal(
    await page.$eval('attention-explorer', (el) => el.getTrace().options.causal),
    true,
    '#tour=causal-mask shows the causal mask',
  );
  await page.close();

  const second = await open('tour=5');
  assert.equal(
    await second.page.$eval('attention-explorer', (el) => el.state.tour),
    'causal-mask',
    'a step number works in the hash',
  );
  await second.page.close();

  const { page: p } = await open();
  await p.fill('attention-explorer textarea', 'my own words about a bank');
  await p.selectOption('attention-explorer select[name="numHeads"]', '2');
  await p.click('attention-explorer .tour-start');
  await p.waitForSelector('attention-explorer .tour:not([hidden])');
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('ArrowRight');
  // The tour keeps the learner's sentence (a step offers its own as an example: tour-learner.test.js).
  assert.equal(await p.$eval('attention-explorer', (el) => el.state.sentence), 'my own words about a bank');
  assert.notEqual(await p.$eval('attention-explorer', (el) => el.state.numHeads), 2, 'the step sets its heads');
  // The rail never covers the heatmap it talks about.
  const panel = await box(p, 'attention-explorer .tour');
  const heatmap = await box(p, 'attention-explorer [data-figure="attention-weights"]');
  assert.ok(
    panel.left >= heatmap.right || panel.top >= heatmap.bottom,
    `panel ${JSON.stringify(panel)} vs heatmap ${JSON.stringify(heatmap)}`,
  );
  await p.keyboard.press('Escape');
  await p.waitForSelector('attention-explorer .tour', { state: 'hidden' });
  const back = await p.$eval('attention-explorer', (el) => ({
    sentence: el.state.sentence,
    numHeads: el.state.numHeads,
    tour: el.state.tour,
  }));
  assert.deepEqual(back, { sentence: 'my own words about a bank', numHeads: 2, tour: '' });
  assert.deepEqual(errors, []);
  await p.close();
});

test('embedded views="attention" height="560" in a 740 px column: the heatmap inside the box; theme="dark"', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}embed.html`);
  await page.evaluate(() => {
    document.body.innerHTML =
      '<div style="width: 740px; margin: 0 auto"><attention-explorer id="fixed" sentence="The animal didn\'t cross the street because it was too tired" ' +
      'views="attention,lines" controls="sentence,temperature" height="560"></attention-explorer>' +
      '<attention-explorer id="dark" sentence="the cat sat" views="attention" theme="dark"></attention-explorer></div>';
  });
  await page.waitForFunction(
    () => [...document.querySelectorAll('attention-explorer')].every((el) => el.getTrace()),
    null,
    { timeout: 30000 },
  );
  await page.waitForSelector('#fixed [data-figure="attention-weights"] canvas');
  const result = await page.$eval('#fixed', (el) => {
    const host = el.shadowRoot.querySelector('.ae-root').getBoundingClientRect();
    const canvas = el.shadowRoot.querySelector('[data-figure="attention-weights"] canvas').getBoundingClientRect();
    const shown = (selector) => [...el.shadowRoot.querySelectorAll(selector)].filter((x) => x.checkVisibility()).length;
    return {
      host: [host.top, host.bottom, host.height],
      canvas: [canvas.top, canvas.bottom],
      tabs: shown('[role="tab"]'),
      mix: shown('[data-figure="mix"]'),
      settings: [...el.shadowRoot.querySelectorAll('select, input')]
        .filter((c) => c.checkVisibility())
        .map((c) => c.name),
    };
  });
  assert.equal(Math.round(result.host[2]), 560);
  assert.ok(
    result.canvas[0] >= result.host[0] && result.canvas[1] <= result.host[1],
    `heatmap ${result.canvas} inside the box ${result.host}`,
  );
  assert.equal(result.tabs, 0, 'one chapter: no tabs');
  assert.equal(result.mix, 0, 'views leave out the mix');
  assert.deepEqual(result.settings, ['temperature']);
  const dark = await page.$eval(
    '#dark',
    (el) => getComputedStyle(el.shadowRoot.querySelector('.ae-root')).backgroundColor,
  );
  assert.equal(dark, 'rgb(23, 24, 26)', 'theme="dark" whatever the OS says');
  await page.screenshot({ path: `${OUTPUT}/embed-740.png`, fullPage: true });
  await page.close();
});
