// Hostile input, faults and a long soak in headless Chromium: the page keeps working, says what is
// wrong, runs under a strict Content-Security-Policy, and does not leak.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, serveDist, flush } from './browser.js';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
let server, browser;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh page; `alter(route)` may answer some requests differently. Collects errors and dialogs. */
async function openPage({ alter, csp = false } = {}) {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', async (d) => {
    problems.push(`dialog: ${d.message()}`);
    await d.dismiss();
  });
  await page.route('**/*', async (route) => {
    if (alter && (await alter(route))) return;
    const response = await route.fetch();
    const headers = { ...response.headers() };
    if (csp && route.request().resourceType() === 'document') headers['content-security-policy'] = CSP;
    await route.fulfill({ response, headers });
  });
  await page.goto(server.url);
  return { page, problems };
}

async function waitForFigures(page) {
  await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
}

test('script and HTML text is shown as text, never run; huge pastes are cut with a notice', async () => {
  const { page, problems } = await openPage();
  await waitForFigures(page);
  await page.fill('attention-explorer textarea', '<img src=x onerror=alert(1)> <script>alert(2)</script>');
  await flush(page); // the figures follow the keystrokes in the next frame
  const texts = await page.$$eval('[data-figure="tokens"] .token-text', (items) => items.map((i) => i.textContent));
  assert.deepEqual(texts.slice(0, 4), ['<', 'img', 'src', '=']);
  assert.equal(await page.$$eval('attention-explorer img, attention-explorer script', (e) => e.length), 0);
  await page.fill('attention-explorer textarea', 'lorem ipsum '.repeat(8334)); // 100,008 characters
  await flush(page);
  assert.match(await page.textContent('attention-explorer .notice'), /first 256 of 16668 tokens/);
  await page.fill('attention-explorer textarea', '👩‍👩‍👧‍👦 שלום مرحبا 注意力 Cafe\u0301 \u0000\u0007');
  await flush(page);
  assert.ok((await page.$$eval('[data-figure="tokens"] .token', (t) => t.length)) >= 5);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a missing, truncated, corrupted or wrong-version asset, or a missing .wasm: a clear message', async () => {
  const faults = {
    'missing embeddings': [/embeddings.*\.bin/, (r) => r.fulfill({ status: 404, body: 'not found' }), /HTTP 404/],
    'truncated embeddings': [
      /embeddings.*\.bin/,
      async (r) => r.fulfill({ body: (await (await r.fetch()).body()).subarray(0, 1000) }),
      /truncated/,
    ],
    'corrupted embeddings': [
      /embeddings.*\.bin/,
      async (r) => {
        const b = Buffer.from(await (await r.fetch()).body());
        b[5000] ^= 1;
        return r.fulfill({ body: b });
      },
      /checksum/,
    ],
    'wrong-version embeddings': [
      /embeddings.*\.bin/,
      async (r) => {
        const b = Buffer.from(await (await r.fetch()).body());
        b[4] = 2;
        return r.fulfill({ body: b });
      },
      /version 2/,
    ],
    'missing wasm': [/\.wasm$/, (r) => r.fulfill({ status: 404, body: 'not found' }), /attn_core(\.relaxed)?\.wasm/],
  };
  for (const [name, [pattern, answer, reason]] of Object.entries(faults)) {
    const { page } = await openPage({
      alter: async (route) => {
        if (!pattern.test(new URL(route.request().url()).pathname)) return false;
        await answer(route);
        return true;
      },
    });
    await page.waitForSelector('attention-explorer .status.error', { timeout: 20000 });
    const message = await page.textContent('attention-explorer .status');
    assert.match(message, /Could not load the attention core/, name);
    assert.match(message, reason, `${name}: ${message}`);
    await page.close();
  }
});

test('works under a strict Content-Security-Policy', async () => {
  const { page, problems } = await openPage({ csp: true });
  await waitForFigures(page);
  await page.fill('attention-explorer textarea', 'policy holds');
  await flush(page);
  assert.equal(await page.getAttribute('[data-figure="attention-weights"]', 'data-rows'), '2');
  // A formula is typeset when its chapter opens (views/formulas.js): KaTeX's MathML needs no inline style.
  await page.click('attention-explorer [data-chapter-tab="positions"]');
  await page.waitForSelector('attention-explorer [data-formula="positional"] math');
  // The Learn chapter's worker (a same-origin script) trains under the policy too.
  await page.click('attention-explorer [data-chapter-tab="learn"]');
  await page.waitForSelector('attention-explorer .learn-readout[data-step="0"]');
  await page.click('attention-explorer [data-action="step"]');
  await page.waitForSelector('attention-explorer .learn-readout[data-step="1"]');
  assert.deepEqual(problems, []);
  await page.close();
});

// npm test soaks 1,000 updates; `npm run soak` the full 10,000 (SOAK_UPDATES), with the same checks.
const SOAK_UPDATES = Number(process.env.SOAK_UPDATES ?? 1000);

test(`soak: ${SOAK_UPDATES.toLocaleString('en')} random edits and control changes, no errors, no growth`, async () => {
  const { page, problems } = await openPage();
  await waitForFigures(page);
  const cdp = await page.context().newCDPSession(page);
  const settle = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    const heap = await page.evaluate(() => document.querySelector('attention-explorer').core.heapInUse());
    return { nodes, heap };
  };
  // Edits arrive in tasks of CHUNK, as keystrokes do (one event each): the browser collects the garbage of
  // finished tasks between them. (10,000 redraws inside one task pile up ~10 GB of canvases and detached
  // nodes that no user could produce.) The generator's state and the text carry over from task to task.
  const CHUNK = 100;
  const chunk = (job) =>
    page.evaluate(({ count, seed }) => {
      const el = document.querySelector('attention-explorer');
      let state = seed;
      const random = (n) => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return (state >>> 8) % n;
      };
      const words = ['the', 'river', 'bank', 'was', 'muddy', 'money', '😀', 'zyxq', ',', '.', '<b>', 'שלום'];
      const changes = [
        () => ({ numHeads: [1, 2, 4, 5, 10][random(5)] }),
        () => ({ projection: random(2) ? 'random' : 'identity', seed: random(1000) }),
        () => ({ mask: ['bidirectional', 'causal', 'padding'][random(3)], validLength: random(12) }),
        () => ({ temperature: 0.05 + random(100) / 20 }),
        () => ({ headKinds: [['projected', 'semantic', 'previous', 'next', 'offset', 'first', 'uniform'][random(7)]] }),
        () => ({
          positionalEncoding: ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5'][random(6)],
          scoreFunction: ['scaledDot', 'dot', 'additive'][random(3)],
        }),
        () => ({ maskedPositions: random(3) ? [] : [random(10)] }),
        () => ({
          simplexScores: [random(9) - 4, random(9) - 4, random(9) - 4],
          crossTarget: words.slice(random(12)).join(' '),
        }),
      ];
      let text = el.state.sentence;
      for (let k = 0; k < count; k++) {
        if (random(4) === 0) {
          el.change(changes[random(changes.length)]());
        } else if (random(3) === 0 && text.length > 0) {
          const at = random(text.length);
          text = text.slice(0, at) + text.slice(at + 1 + random(5));
          el.change({ sentence: text });
        } else {
          const at = random(text.length + 1);
          text = `${text.slice(0, at)} ${words[random(words.length)]}${text.slice(at)}`.slice(0, 200);
          el.change({ sentence: text });
        }
      }
      return { seed: state, status: el.shadowRoot.querySelector('.status').textContent };
    }, job);
  const run = async (count) => {
    let seed = 12345,
      status = '';
    for (let done = 0; done < count && status === ''; done += CHUNK) {
      ({ seed, status } = await chunk({ count: Math.min(CHUNK, count - done), seed }));
    }
    return status;
  };
  await run(500); // warm up: caches, pools and the largest shapes
  const start = await settle();
  const status = await run(SOAK_UPDATES);
  const end = await settle();
  console.log(`soak: wasm heap in use ${start.heap} → ${end.heap} bytes, DOM nodes ${start.nodes} → ${end.nodes}`);
  assert.equal(status, '', 'no error message after the soak');
  assert.ok(end.heap - start.heap <= 1 << 20, `wasm heap grew by ${end.heap - start.heap} bytes`);
  assert.ok(end.nodes - start.nodes <= 2000, `DOM nodes grew by ${end.nodes - start.nodes}`);
  assert.deepEqual(problems, []);
  await page.close();
});
