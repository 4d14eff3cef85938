// How long the page freezes when the learner switches from the trained decoder to the encoder, fresh and after a
// session (sentences typed, chapters opened), for a developer (not part of `npm run bench`): Vite's dev server
// (unbundled modules, so functions keep their names), the model button clicked, and for that click the long tasks
// (PerformanceObserver 'longtask'), the time from the click to the first frame after the encoder's Run, and
// Chromium's CPU profile (self time per function).
//   node scripts/bench/model-switch.mjs [--sentences 6] [--out file.cpuprofile]
// Needs build/wasm/ (scripts/build-wasm.sh).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createServer } from 'vite';
import { launchBrowser, serveDist } from '../../tests/e2e/browser.js';
import { mainThreadSelfTimes, profileSelfTimes } from './trace-times.js';

const { values: args } = parseArgs({
  options: {
    sentences: { type: 'string', default: '6' },
    out: { type: 'string' },
    fresh: { type: 'boolean' },
    trace: { type: 'boolean' },
    preload: { type: 'boolean' },
    dist: { type: 'boolean' },
    clear: { type: 'boolean' },
    train: { type: 'string' },
  },
});
const HOST = 'attention-explorer';
const SENTENCES = [
  'the king of the land spoke to his people',
  'she deposited money at the bank before noon',
  'the river bank was muddy after the storm',
  'a cat sat on the mat and looked at the dog',
  'the children walked to school in the rain',
  'he wrote a letter to his mother every week',
  'the old man told a story about the sea',
  'we planted trees along the road last spring',
];
const CHAPTERS = ['inside-head', 'positions', 'lenses', 'learn', 'attention'];

/** The session: sentences typed key by key, each chapter opened, back to the first. */
async function session(page, count) {
  const box = `${HOST} textarea`;
  // One after another in the box, as a learner writes a paragraph (--clear: each replaces the one before).
  await page.click(box);
  await page.keyboard.press('End');
  for (const sentence of SENTENCES.slice(0, count)) {
    if (args.clear) await page.fill(box, '');
    await page.type(box, ` ${sentence} .`, { delay: 15 });
    await page.waitForTimeout(300);
  }
  if (args.train) {
    // The Learn chapter's language model trained for a while (its history stays in the page).
    await page.$eval(HOST, (el) => el.change({ chapter: 'learn', trainTask: 'language' }));
    await page.waitForSelector(`${HOST} .language-lesson [data-action="train"]:not([disabled])`, { timeout: 60000 });
    await page.click(`${HOST} .language-lesson [data-action="train"]`);
    await page.waitForTimeout(Number(args.train) * 1000);
    await page.click(`${HOST} .language-lesson [data-action="train"]`);
  }
  for (const chapter of CHAPTERS) {
    await page.$eval(HOST, (el, id) => el.change({ chapter: id }), chapter);
    await page.waitForTimeout(600);
    // Down the chapter and back: its figures draw as they come near the view.
    for (let y = 0; y < 12000; y += 700) {
      await page.mouse.wheel(0, 700);
      await page.waitForTimeout(120);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(600);
  }
}

/** Clicks the encoder's button; the long tasks and the time to the first frame once its Run is shown. */
async function switchToEncoder(page, cdp) {
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration))).observe({
      type: 'longtask',
    });
  });
  const traced = [];
  let traceDone = null;
  if (args.trace) {
    cdp.on('Tracing.dataCollected', ({ value }) => traced.push(...value));
    traceDone = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] },
      transferMode: 'ReportEvents',
    });
  } else if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
  }
  const ms = await page.evaluate(
    (host) =>
      new Promise((resolve) => {
        const el = document.querySelector(host);
        const start = performance.now();
        el.shadowRoot.querySelector('.model-option[data-model="masked"]').click();
        const wait = () => {
          const run = el.getRun();
          if (run?.model === 'masked' && run.status === 'ready')
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start)));
          else requestAnimationFrame(wait);
        };
        wait();
      }),
    HOST,
  );
  await page.waitForTimeout(500);
  if (args.trace) {
    await cdp.send('Tracing.end');
    await traceDone;
    const self = Object.entries(mainThreadSelfTimes(traced))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15);
    for (const [name, t] of self) console.log(`  trace ${t.toFixed(1).padStart(7)}  ${name}`);
    return { ms: 0, long: await page.evaluate(() => window.__long), profile: null };
  }
  const profile = cdp ? (await cdp.send('Profiler.stop')).profile : null;
  const long = await page.evaluate(() => window.__long);
  return { ms, long, profile };
}

// --dist: the built site (dist/, as learners get it; minified names), else Vite's dev server.
const server = args.dist
  ? await serveDist()
  : await createServer({ root: 'web', logLevel: 'warn', server: { host: '127.0.0.1', port: 5181 } });
if (!args.dist) await server.listen();
const url = args.dist ? server.url : server.resolvedUrls.local[0];
const browser = await launchBrowser();
try {
  for (const sentences of args.fresh ? [0, Number(args.sentences)] : [Number(args.sentences)]) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${url}#model=causal`);
    await page.waitForSelector(`${HOST} >> [data-figure="predictions"] section`, { timeout: 60000 });
    // The encoder's file loaded before the click, as the page preloads it when idle: what is timed is the switch.
    if (args.preload) await page.$eval(HOST, (el) => el.core.languageModel('masked'));
    await session(page, sentences);
    const cdp = await page.context().newCDPSession(page);
    const { ms, long, profile } = await switchToEncoder(page, cdp);
    console.log(
      `after ${sentences} sentences and ${sentences ? CHAPTERS.length : 0} chapters: click → frame ${ms.toFixed(0)} ms; ` +
        `long tasks ${long.map((d) => d.toFixed(0)).join(', ') || 'none'} ms`,
    );
    if (!profile) {
      await page.close();
      continue;
    }
    const functions = profileSelfTimes(profile);
    delete functions['(idle)'];
    const top = Object.entries(functions)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25);
    for (const [name, t] of top) console.log(`  ${t.toFixed(1).padStart(7)}  ${name}`);
    if (args.out) writeFileSync(args.out, JSON.stringify(profile));
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
