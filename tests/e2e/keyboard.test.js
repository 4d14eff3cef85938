// Keyboard only, in headless Chromium: acting on a control keeps focus on it (a redraw must not drop
// focus to the top of the page), and the stepper of "Inside one head" is a tab list with arrow keys,
// Home and End (WAI-ARIA Authoring Practices, Tabs pattern, automatic activation).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const site = distAndBrowser();
const open = (hash = '') => openSite(site, hash);

/** What has keyboard focus inside the explorer: its class, data-index / data-step, and the page's scroll. */
const focused = (page) =>
  page.$eval('attention-explorer', (el) => {
    const active = el.shadowRoot.activeElement;
    return {
      className: active?.className ?? null,
      index: active?.dataset.index ?? null,
      step: active?.dataset.step ?? null,
      role: active?.getAttribute('role') ?? null,
      selected: active?.getAttribute('aria-selected') ?? null,
      scrollY: window.scrollY,
    };
  });

test('Enter on a word chip masks it and focus stays on that chip', async () => {
  const { page, errors } = await open();
  // From the sentence box, Tab walks the chips in order: the third is "bank".
  await page.locator('attention-explorer textarea, attention-explorer input[type="text"]').first().focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('Tab');
  assert.equal((await focused(page)).index, '2', 'three Tabs from the sentence box reach chip 2');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-explorer').state.maskedPositions.includes(2));
  const after = await focused(page);
  assert.equal(after.index, '2', `focus went to ${JSON.stringify(after)}`);
  assert.match(after.className, /\bmasked\b/);
  await page.keyboard.press('Enter'); // and again, from the same chip: restored
  await page.waitForFunction(() => document.querySelector('attention-explorer').state.maskedPositions.length === 0);
  assert.equal((await focused(page)).index, '2');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the stepper is a tab list: arrows, Home and End move selection and focus; Enter keeps focus', async () => {
  const { page, errors } = await open('chapter=inside-head');
  await page.waitForSelector('attention-explorer [data-figure="pipeline"]');
  const roles = await page.$eval('attention-explorer', (el) => {
    const stepper = el.shadowRoot.querySelector('.stepper');
    const tabs = [...stepper.querySelectorAll('.step-number')];
    const panel = el.shadowRoot.querySelector('[data-figure="pipeline"] .step');
    return {
      list: stepper.getAttribute('role'),
      tabs: tabs.map((t) => t.getAttribute('role')),
      tabIndex: tabs.map((t) => t.tabIndex),
      panel: panel.getAttribute('role'),
      labelledBy: panel.getAttribute('aria-labelledby'),
      controls: tabs[0].getAttribute('aria-controls'),
      firstId: tabs[0].id,
      panelId: panel.id,
      steps: tabs.length,
    };
  });
  assert.equal(roles.list, 'tablist');
  assert.ok(roles.tabs.every((r) => r === 'tab'));
  assert.deepEqual(
    roles.tabIndex,
    roles.tabIndex.map((_, i) => (i === 0 ? 0 : -1)),
    'roving tabindex: only the selected tab is in the tab order',
  );
  assert.equal(roles.panel, 'tabpanel');
  assert.equal(roles.labelledBy, roles.firstId);
  assert.equal(roles.controls, roles.panelId);
  const step = () => page.$eval('attention-explorer [data-figure="pipeline"]', (p) => Number(p.dataset.step));

  // Keyboard only from the sentence's last word chip: Tab reaches the stepper once, on its selected tab.
  await page.locator('attention-explorer .token[data-index="7"]').focus();
  let reached = null;
  for (let presses = 0; presses < 60 && !reached?.role; presses++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (/step-/.test(now.className ?? '')) reached = { ...now, presses };
  }
  assert.ok(reached, 'Tab reaches the stepper');
  assert.deepEqual(
    [reached.role, reached.step, reached.selected],
    ['tab', '1', 'true'],
    `Tab lands on ${JSON.stringify(reached)}`,
  );
  const expectations = [
    ['ArrowRight', 2],
    ['ArrowRight', 3],
    ['ArrowLeft', 2],
    ['End', roles.steps],
    ['ArrowRight', 1],
    ['ArrowLeft', roles.steps],
    ['Home', 1],
  ];
  for (const [key, expected] of expectations) {
    await page.keyboard.press(key);
    await page.waitForFunction(
      (n) =>
        document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').dataset
          .step === String(n),
      expected,
    );
    const now = await focused(page);
    assert.deepEqual(
      [now.role, now.step, now.selected],
      ['tab', String(expected), 'true'],
      `after ${key}: ${JSON.stringify(now)}`,
    );
  }
  // Enter on the "Next" thumbnail: focus stays on that control (now one step on), the page does not jump.
  await page.locator('attention-explorer .step-next').focus();
  const before = await focused(page);
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () =>
      document.querySelector('attention-explorer').shadowRoot.querySelector('[data-figure="pipeline"]').dataset.step ===
      '2',
  );
  const afterNext = await focused(page);
  assert.match(afterNext.className ?? '', /step-next/, `focus went to ${JSON.stringify(afterNext)}`);
  assert.equal(afterNext.step, '3', 'the new "next" button, one step on');
  assert.ok(
    Math.abs(afterNext.scrollY - before.scrollY) < 2,
    `the page scrolled from ${before.scrollY} to ${afterNext.scrollY}`,
  );
  assert.equal(await step(), 2);
  assert.deepEqual(errors, []);
  await page.close();
});
