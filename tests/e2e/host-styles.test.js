// The element keeps its own text styles inside a page that sets odd inherited ones (reveal.js centres its
// slides; course themes set letter-spacing, uppercase headings, serif fonts): the shadow root resets every
// inherited text property, and only the documented custom properties reach in. Headless Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, serveElementPage } from './browser.js';

/** The inherited properties a host page is most likely to set, each set oddly on the parent of the second element. */
const ODD = {
  'text-align': 'center',
  'line-height': '3',
  'letter-spacing': '4px',
  'font-style': 'italic',
  'text-transform': 'uppercase',
  'white-space': 'pre',
  color: 'rgb(255, 0, 255)',
  'font-family': 'cursive',
};
const oddStyle = Object.entries(ODD)
  .map(([name, value]) => `${name}: ${value}`)
  .join('; ');

/** Inside the shadow root: a caption, a hint, a token chip, a chapter's takeaway, a control's label. */
const INSIDE = ['figcaption', '.hint', '.token', '.takeaway', '.control label', '.status', '.chapter-title'];

let browser, host;
before(async () => {
  host = await serveElementPage(
    'host styles',
    `<div id="plain"><attention-explorer sentence="The river bank was muddy"></attention-explorer></div>
<div id="odd" style="${oddStyle}"><attention-explorer sentence="The river bank was muddy"></attention-explorer></div>
<div id="opted" style="${oddStyle}; --attention-explorer-font-family: Georgia, serif; --attention-explorer-ink: rgb(0, 0, 128)">
<attention-explorer sentence="The river bank was muddy"></attention-explorer></div>`,
  );
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await host?.close();
});

/** The computed ODD properties of each INSIDE element of the explorer under `#id`: selector → property → value. */
function stylesIn(page, id) {
  return page.evaluate(
    ({ id, selectors, names }) => {
      const root = document.querySelector(`#${id} attention-explorer`).shadowRoot;
      return Object.fromEntries(
        selectors.map((selector) => {
          const element = root.querySelector(selector);
          if (!element) return [selector, null];
          const style = getComputedStyle(element);
          return [selector, Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]))];
        }),
      );
    },
    { id, selectors: INSIDE, names: Object.keys(ODD) },
  );
}

test("a parent's odd inherited text styles do not reach inside; the documented custom properties do", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(host.url);
  // Ready when each has a trace and has drawn its figures from it (the scheduler draws after the trace arrives: on a
  // loaded machine the first figure can come a frame or two later)
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('attention-explorer')].every(
        (el) => el.getTrace?.() && el.shadowRoot.querySelector('figcaption'),
      ),
    null,
    { timeout: 30000 },
  );
  const plain = await stylesIn(page, 'plain');
  const odd = await stylesIn(page, 'odd');
  for (const selector of INSIDE) assert.ok(plain[selector], `the explorer has a ${selector}`);
  // The check can fail: the odd parent's own styles are what the test says they are.
  const parent = await page.$eval('#odd', (el) => getComputedStyle(el).textAlign);
  assert.equal(parent, 'center');
  assert.deepEqual(odd, plain, 'computed styles inside the element under the odd parent');
  for (const selector of INSIDE) {
    for (const [name, value] of Object.entries(ODD)) {
      assert.notEqual(odd[selector][name], value, `${selector} ${name} is not the parent's ${value}`);
    }
  }
  const opted = await stylesIn(page, 'opted');
  assert.match(opted.figcaption['font-family'], /^Georgia, serif$/);
  assert.equal(opted['.takeaway'].color, 'rgb(0, 0, 128)');
  assert.equal(opted.figcaption['text-align'], plain.figcaption['text-align'], 'only the custom properties opt in');
  assert.deepEqual(errors, []);
  await page.close();
});
