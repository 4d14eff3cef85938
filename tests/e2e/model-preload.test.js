// Switching between the trained models does no file work at the click: once the learner shows one trained model, the
// page loads the others while it is idle (models/trained-models.js preload), so the encoder's first Run after the
// click is ready and its file is not fetched again. (Loading it at the click was a 130–210 ms task; the click took
// ~330 ms to the encoder's first frame, ~20–40 ms with the file preloaded: scripts/bench/model-switch.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';

const HOST = 'attention-explorer';
const shared = distAndBrowser();

test("on the trained decoder the encoder's file loads while idle; switching to it finds it ready and fetches nothing", async () => {
  const fetched = [];
  const { page: site, errors } = await openSite(shared, 'model=causal');
  site.on('request', (request) => {
    if (/\.safetensors$/.test(new URL(request.url()).pathname)) fetched.push(new URL(request.url()).pathname);
  });
  await site.waitForSelector(`${HOST} [data-figure="predictions"] section`, { timeout: 30000 });
  // The encoder, loaded while the page is idle (requestIdleCallback, within its 2 s timeout).
  await site.waitForFunction(
    () => performance.getEntriesByType('resource').some((entry) => /\/masked[^/]*\.safetensors$/.test(entry.name)),
    null,
    { timeout: 10000 },
  );
  await flush(site);
  await site.waitForTimeout(500); // the file read and checked
  const before = fetched.length;
  const first = await site.evaluate(
    (host) =>
      new Promise((resolve) => {
        const el = document.querySelector(host);
        el.shadowRoot.querySelector('.model-option[data-model="masked"]').click();
        const wait = () => {
          const run = el.getRun();
          if (run?.model === 'masked') resolve(run.status);
          else requestAnimationFrame(wait);
        };
        wait();
      }),
    HOST,
  );
  assert.equal(first, 'ready', "the encoder's first Run after the click");
  await flush(site);
  assert.equal(fetched.length, before, `nothing fetched at the click: ${fetched.join(', ')}`);
  assert.deepEqual(errors, []);
  await site.close();
});
