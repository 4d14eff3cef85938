// The demo page opened once for a test file's tests (page.test.js, context.test.js): the built site served, the
// explorer drawn with one projected head, the console's errors and any request to another origin recorded, and the
// two ways those tests act on it (typing a sentence key by key, bringing a figure on screen).
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { flush, oneProjectedHead, openExplorer, showSlot } from './browser.js';

export const OUTPUT = 'test-output';

/**
 * Registers the file's before/after hooks; `ready(demo)` runs at the end of the before hook (node:test does not wait
 * for one root hook before starting the next). @param {(demo: object) => void} [ready] @returns {{ server, browser, page, consoleErrors: string[],
 *   foreignRequests: string[], typeSentence: (text: string) => Promise<void>, showSlot: (slot: string) => Promise<void> }}
 *   server, browser, page and consoleErrors are set once the before hook has run
 */
export function demoPage(ready = () => {}) {
  const demo = { foreignRequests: [] };
  before(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const { server, browser, page, consoleErrors } = await openExplorer();
    Object.assign(demo, { server, browser, page, consoleErrors });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(server.url).origin)
        demo.foreignRequests.push(request.url());
    });
    await page.goto(server.url);
    await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
    await oneProjectedHead(page);
    ready(demo);
  });
  after(async () => {
    await demo.browser?.close();
    await demo.server?.close();
  });
  /** Replaces the sentence by typing it key by key (one update per keystroke). */
  demo.typeSentence = async (text) => {
    await demo.page.fill('attention-explorer textarea', '');
    await demo.page.focus('attention-explorer textarea');
    await demo.page.keyboard.type(text);
    await flush(demo.page); // the figures follow the keystrokes in the next frame
  };
  /** Figures off screen are drawn when they scroll in: scroll a slot into view and wait until it is fresh. */
  demo.showSlot = (slot) => showSlot(demo.page, slot);
  return demo;
}
