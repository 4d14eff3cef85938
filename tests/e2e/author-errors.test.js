// Errors where course authors look: a message the element shows also goes to the console once, prefixed
// "attention-explorer:", and as an `error` event naming the attribute; a wrong assets-base, set right
// afterwards, loads from the new folder. A page with bad attributes and a wrong folder, in headless Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, serveElementPage } from './browser.js';
/* global events -- the page's list of the error events it heard, read inside page.evaluate() */

const BODY = `<attention-explorer id="bad" mask="casual" heads="7" model="gpt3"></attention-explorer>
<attention-explorer id="moved" assets-base="/nowhere/"></attention-explorer>
<script>
  // Listening before the element is defined, as an author's page script would.
  window.events = [];
  for (const element of document.querySelectorAll('attention-explorer'))
    element.addEventListener('error', (event) => events.push({ id: element.id, ...event.detail }));
</script>`;

let browser, host;
before(async () => {
  host = await serveElementPage('errors', BODY);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await host?.close();
});

async function open() {
  const page = await browser.context.newPage();
  const said = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().startsWith('attention-explorer:')) said.push(message.text());
  });
  await page.goto(host.url);
  await page.waitForFunction(() => document.querySelector('#bad').getTrace?.(), null, { timeout: 30000 });
  return { page, said };
}

const shown = (page, id, selector) =>
  page.$eval(`#${id}`, (el, selector) => el.shadowRoot.querySelector(selector)?.textContent ?? '', selector);

test('bad attributes: each message shown is said once on the console and fired as an error event naming the attribute', async () => {
  const { page, said } = await open();
  const inElement = await shown(page, 'bad', '.config-errors');
  for (const attribute of ['mask', 'heads', 'model']) {
    assert.match(inElement, new RegExp(`Attribute ${attribute}="`), `the element names ${attribute}`);
    const lines = said.filter((line) => line.startsWith(`attention-explorer: Attribute ${attribute}="`));
    assert.equal(lines.length, 1, `${attribute}: said once on the console (${said.join(' | ')})`);
  }
  const events = await page.evaluate(() => events.filter((event) => event.id === 'bad'));
  assert.deepEqual(events.map((event) => event.attribute).sort(), ['heads', 'mask', 'model']);
  for (const event of events) assert.ok(inElement.includes(event.message), `the event's message is the one shown`);
  // Shown again (another attribute changes), said no more.
  await page.$eval('#bad', (el) => el.setAttribute('sentence', 'the cat sat'));
  await page.waitForFunction(() => document.querySelector('#bad').getTrace()?.tokens.length === 3);
  assert.equal(said.filter((line) => line.includes('Attribute mask=')).length, 1);
  await page.close();
});

test('a wrong assets-base is said where authors look; setting the right one loads from there', async () => {
  const { page, said } = await open();
  await page.waitForFunction(
    () => document.querySelector('#moved').shadowRoot.querySelector('.status.error')?.textContent,
    null,
    { timeout: 30000 },
  );
  assert.match(await shown(page, 'moved', '.status'), /Could not load the attention core: .*\/nowhere\//);
  assert.ok(said.some((line) => /^attention-explorer: Could not load the attention core: .*\/nowhere\//.test(line)));
  const [event] = await page.evaluate(() => events.filter((event) => event.id === 'moved'));
  assert.match(event.message, /\/nowhere\//);
  // The folder the package's core lives in holds every file the element needs.
  await page.$eval('#moved', (el) => el.setAttribute('assets-base', '/core/'));
  await page.waitForFunction(() => document.querySelector('#moved').getTrace?.()?.tokens.length > 0, null, {
    timeout: 30000,
  });
  assert.equal(await shown(page, 'moved', '.status.error'), '', 'the error is gone');
  await page.close();
});
