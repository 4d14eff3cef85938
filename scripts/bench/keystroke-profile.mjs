// Where a keystroke's time goes, for a developer (not part of `npm run bench`): the page served by Vite's dev
// server (unbundled modules, so functions keep their names), real key presses in the sentence box, and for them
// Chromium's CPU profile (self time per function) and trace (the main thread's own work: script, style, layout,
// paint), per keystroke.
//   node scripts/bench/keystroke-profile.mjs [--tokens 32] [--model designed|causal|masked|bare] [--presses 40] [--out file.json]
// (bare: a bare textarea typed the same way, the floor)
// Needs build/wasm/ (scripts/build-wasm.sh). --out also writes the CPU profile (.cpuprofile: open it in DevTools).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createServer } from 'vite';
import { launchBrowser } from '../../tests/e2e/browser.js';

const { values: args } = parseArgs({
  options: {
    tokens: { type: 'string', default: '32' },
    model: { type: 'string', default: 'designed' },
    presses: { type: 'string', default: '40' },
    out: { type: 'string' },
  },
});
const tokens = Number(args.tokens),
  presses = Number(args.presses);

/** Trace events of the main thread grouped as DevTools' summary groups them. */
const GROUPS = {
  script: ['FunctionCall', 'EvaluateScript', 'v8.compile', 'v8.execute', 'RunMicrotasks', 'TimerFire', 'EventDispatch'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ScheduleStyleRecalculation', 'InvalidateLayout'],
  layout: ['Layout', 'IntersectionObserverController::computeIntersections', 'HitTest'],
  paint: ['PrePaint', 'Paint', 'Layerize', 'Commit', 'UpdateLayer', 'PaintImage', 'RasterTask', 'CompositeLayers'],
  gc: ['MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'BlinkGC.AtomicPhase'],
};
const groupOf = Object.fromEntries(Object.entries(GROUPS).flatMap(([group, names]) => names.map((n) => [n, group])));

/** Self time (ms) per event name on the renderer's main thread, from complete ('X') and begin/end events. */
function mainThreadSelfTimes(events) {
  // The main thread: the one that ran the most layouts (its thread_name record is not always sent).
  const layouts = {};
  for (const e of events)
    if (e.name === 'Layout') layouts[`${e.pid}/${e.tid}`] = (layouts[`${e.pid}/${e.tid}`] ?? 0) + 1;
  const main = top(layouts, 1)[0]?.[0];
  const own = events
    .filter((e) => `${e.pid}/${e.tid}` === main && (e.ph === 'X' || e.ph === 'B' || e.ph === 'E'))
    .sort((a, b) => a.ts - b.ts);
  const spans = [];
  const open = [];
  for (const e of own) {
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0) });
    else if (e.ph === 'B') open.push(e);
    else {
      const begin = open.pop();
      if (begin) spans.push({ name: begin.name, start: begin.ts, end: e.ts });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const self = {};
  const stack = [];
  for (const span of spans) {
    while (stack.length && stack.at(-1).end <= span.start) stack.pop();
    const parent = stack.at(-1);
    const duration = span.end - span.start;
    self[span.name] = (self[span.name] ?? 0) + duration / 1000;
    if (parent) self[parent.name] -= Math.min(duration, parent.end - span.start) / 1000;
    stack.push(span);
  }
  return self;
}

/** Self time (ms) per function of a CPU profile: "name file:line". */
function profileSelfTimes({ nodes, samples, timeDeltas }) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const self = {};
  samples.forEach((id, k) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^.*\/(src|node_modules)\//, '$1/').replace(/\?.*$/, '');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    self[key] = (self[key] ?? 0) + (timeDeltas[k + 1] ?? 0) / 1000;
  });
  return self;
}

const top = (table, count) =>
  Object.entries(table)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);

const server = await createServer({ root: 'web', logLevel: 'warn', server: { host: '127.0.0.1', port: 5179 } });
await server.listen();
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const bare = args.model === 'bare';
  if (bare) {
    // The floor: a bare textarea typed the same way, what the browser costs a keystroke anyway.
    await page.setContent(
      '<!doctype html><html lang="en"><body><textarea rows="1" cols="80"></textarea></body></html>',
    );
  } else {
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForSelector('attention-explorer >> [data-figure="attention-weights"]', { timeout: 60000 });
  }
  if (!bare && args.model !== 'designed') {
    await page.evaluate(async (model) => {
      const el = document.querySelector('attention-explorer');
      await el.core.languageModel(model);
      el.change({ model });
    }, args.model);
    await page.waitForSelector('attention-explorer >> [data-figure="predictions"]', { timeout: 60000 });
  }
  const box = bare ? 'textarea' : 'attention-explorer textarea';
  const words = 'the river bank was muddy after the storm'.split(' ');
  const base = Array.from({ length: tokens - 1 }, (_, i) => words[i % words.length]).join(' ');
  await page.fill(box, `${base} cloud`);
  await page.focus(box);
  await page.keyboard.press('End');
  await page.waitForTimeout(1000);
  const cdp = await page.context().newCDPSession(page);
  const type = async () => {
    for (let k = 0; k < presses; k++) {
      await page.keyboard.press(k % 2 ? 'Backspace' : 's', { delay: 80 });
      await page.waitForTimeout(120);
    }
    await page.waitForTimeout(300);
  };
  // Two passes: the trace alone (the sampling profiler would add its own cost to every group), then the profile.
  const traced = [];
  cdp.on('Tracing.dataCollected', ({ value }) => traced.push(...value));
  const traceDone = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] },
    transferMode: 'ReportEvents',
  });
  await type();
  await cdp.send('Tracing.end');
  await traceDone;
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  await type();
  const { profile } = await cdp.send('Profiler.stop');

  const perKey = (ms) => (ms / presses).toFixed(2).padStart(7);
  const self = mainThreadSelfTimes(traced);
  const groups = {};
  for (const [name, ms] of Object.entries(self))
    groups[groupOf[name] ?? 'other'] = (groups[groupOf[name] ?? 'other'] ?? 0) + ms;
  console.log(`${presses} keystrokes at ${tokens} tokens, model ${args.model}: main thread, ms per keystroke`);
  for (const [group, ms] of top(groups, 10)) console.log(`  ${group.padEnd(8)} ${perKey(ms)}`);
  console.log('trace events (self time, ms per keystroke):');
  for (const [name, ms] of top(self, 18)) console.log(`  ${perKey(ms)}  ${name}`);
  console.log('functions (self time, ms per keystroke):');
  const functions = profileSelfTimes(profile);
  delete functions['(idle)'];
  for (const [name, ms] of top(functions, 30)) console.log(`  ${perKey(ms)}  ${name}`);
  if (args.out) {
    writeFileSync(args.out, JSON.stringify({ tokens, model: args.model, presses, groups, self }, null, 2));
    writeFileSync(args.out.replace(/\.json$/, '') + '.cpuprofile', JSON.stringify(profile));
  }
} finally {
  await browser.close();
  await server.close();
}
