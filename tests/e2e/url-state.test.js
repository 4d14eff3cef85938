// The demo page's state in the URL: changes are written to the hash, and a link restores the view.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openExplorer } from './browser.js';

let server, browser, page, consoleErrors;

before(async () => {
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

const view = () =>
  page.$eval('attention-explorer', (el) => ({
    sentence: el.shadowRoot.querySelector('textarea').value,
    shape: el.getTrace().weights.shape,
    positionalEncoding: el.getTrace().options.positionalEncoding,
    temperature: el.getTrace().options.temperature,
  }));

test('a changed view is in the hash, and opening that link restores it', async () => {
  await open(server.url);
  assert.equal(new URL(page.url()).hash, '');
  await page.fill('attention-explorer textarea', 'the cat sat on the mat & more');
  await page.selectOption('select[name="numHeads"]', '2');
  await page.selectOption('select[name="positionalEncoding"] >> nth=0', 'rope');
  await page.fill('input[name="temperature"]', '0.5');
  const link = page.url();
  assert.match(new URL(link).hash, /numHeads=2/);
  const expected = await view();
  await open(server.url); // a fresh view, then the link
  assert.notDeepEqual(await view(), expected);
  await open(link);
  await page.reload();
  await page.waitForSelector('[data-figure="attention-weights"]');
  assert.deepEqual(await view(), expected);
  assert.deepEqual(expected, {
    sentence: 'the cat sat on the mat & more',
    shape: [2, 8, 8],
    positionalEncoding: 'rope',
    temperature: 0.5,
  });
});

test('typing: the hash follows once the keystrokes pause; "Copy link" gives the sentence typed just now', async () => {
  await open(server.url);
  await page.focus('attention-explorer textarea');
  await page.keyboard.press('End');
  await page.keyboard.type(' again', { delay: 20 });
  const sentence = () => new URLSearchParams(location.hash.slice(1)).get('sentence');
  await page.waitForFunction(`(${sentence})()?.endsWith('storm again')`, null, { timeout: 2000 });
  await page.keyboard.type(' and again');
  await page.click('text=Copy link to this view');
  assert.match(await page.evaluate(sentence), /storm again and again$/);
});

test('"Copy link" says what it did beside the buttons, and nothing on the page moves', async () => {
  await open(server.url);
  const top = () =>
    page.$eval('attention-explorer', (el) =>
      Math.round(el.shadowRoot.querySelector('[data-figure="attention-weights"]').getBoundingClientRect().top),
    );
  const before = await top();
  await page.click('text=Copy link to this view');
  // Copied, or (where the clipboard is refused, as in a headless browser) the link to copy by hand.
  const said = await page.waitForFunction(
    () => document.querySelector('attention-explorer').shadowRoot.querySelector('.share .share-note').textContent,
  );
  assert.match(await said.jsonValue(), /^Link to this view/);
  assert.equal(await top(), before, 'the weights stay where they were');
});

test('a hand-edited link: unknown keys and bad values are ignored, the rest applies', async () => {
  await open(`${server.url}#sentence=hello%20world&numHeads=lots&bogus=1`);
  assert.deepEqual((await view()).shape, [4, 2, 2]); // the four designed heads of the defaults
  assert.equal((await view()).sentence, 'hello world');
});

test("for iframes, the query sets the element's attributes and chrome=none drops the page header", async () => {
  await page.goto(
    `${server.url}?views=positional&controls=sentence&chrome=none&heads=previous,semantic#sentence=one%20two%20three`,
  );
  await page.waitForSelector('[data-figure="lab-encoding"]', { timeout: 20000 });
  const shown = await page.$eval('attention-explorer', (el) => ({
    tokens: el.getTrace().tokens.map((t) => t.text),
    kinds: el.getTrace().heads.map((h) => h.kind),
    attention: el.shadowRoot.querySelector('.slot-attention').checkVisibility(),
    heads: el.shadowRoot.querySelector('select[name="numHeads"]').checkVisibility(),
    header: document.querySelector('header').checkVisibility(),
  }));
  assert.deepEqual(shown, {
    tokens: ['one', 'two', 'three'],
    kinds: ['offset', 'semantic'],
    attention: false,
    heads: false,
    header: false,
  });
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
