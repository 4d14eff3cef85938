// Where a keystroke's time goes, for a developer (not part of `npm run bench`): the page served by Vite's dev
// server (unbundled modules, so functions keep their names), real key presses in the sentence box, and for them
// Chromium's CPU profile (self time per function) and trace (the main thread's own work: script, style, layout,
// paint), per keystroke.
//   node scripts/bench/keystroke-profile.mjs [--tokens 32] [--model designed|causal|masked|bare] [--presses 40] [--out file.json]
//     [--hide heads,mix] [--css 'rules'] [--layers]
// (bare: a bare textarea typed the same way, the floor; --hide: figures (data-figure names) not shown, to see what
// each one costs; --css: style rules added to the explorer's shadow root, to try a change before making it; --layers:
// the composited layers after the keystrokes, by Chromium's reason, since Layerize and Commit grow with their number)
// Needs build/wasm/ (scripts/build-wasm.sh). --out also writes the CPU profile (.cpuprofile: open it in DevTools).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createServer } from 'vite';
import { launchBrowser } from '../../tests/e2e/browser.js';
import { mainThreadSelfTimes, profileSelfTimes } from './trace-times.js';

const { values: args } = parseArgs({
  options: {
    tokens: { type: 'string', default: '32' },
    model: { type: 'string', default: 'designed' },
    presses: { type: 'string', default: '40' },
    out: { type: 'string' },
    hide: { type: 'string' },
    css: { type: 'string', default: '' },
    layers: { type: 'boolean', default: false },
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

const top = (table, count) =>
  Object.entries(table)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);

/** The page's composited layers, counted by their compositing reasons, with every element of each kind. */
async function printLayers(cdp) {
  let layers = [];
  cdp.on('LayerTree.layerTreeDidChange', (e) => (layers = e.layers ?? layers));
  await cdp.send('DOM.enable');
  await cdp.send('LayerTree.enable');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const byReason = {};
  for (const layer of layers) {
    const { compositingReasonIds: ids } = await cdp.send('LayerTree.compositingReasons', { layerId: layer.layerId });
    const reason = ids.join(',') || '(none)';
    const entry = (byReason[reason] ??= { count: 0, nodes: [] });
    entry.count += 1;
    if (layer.backendNodeId) {
      const { node } = await cdp.send('DOM.describeNode', { backendNodeId: layer.backendNodeId });
      entry.nodes.push(`${node.nodeName.toLowerCase()} ${(node.attributes ?? []).slice(0, 4).join(' ')}`.slice(0, 70));
    }
  }
  console.log(`composited layers: ${layers.length}`);
  for (const [reason, { count, nodes }] of Object.entries(byReason)) {
    console.log(`  ${String(count).padStart(4)}  ${reason.padEnd(32)} ${nodes[0] ?? ''}`);
    for (const node of nodes.slice(1)) console.log(`  ${''.padStart(4)}  ${''.padEnd(32)} ${node}`);
  }
}

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
  const hidden = (args.hide?.split(',') ?? []).map((n) => `[data-figure="${n}"] { display: none !important; }`);
  if (!bare && (hidden.length || args.css)) {
    await page.evaluate(
      (rules) => {
        const style = document.createElement('style');
        style.textContent = rules;
        document.querySelector('attention-explorer').shadowRoot.append(style);
      },
      [...hidden, args.css].join('\n'),
    );
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
  if (args.layers) await printLayers(cdp);
  if (args.out) {
    writeFileSync(args.out, JSON.stringify({ tokens, model: args.model, presses, groups, self }, null, 2));
    writeFileSync(args.out.replace(/\.json$/, '') + '.cpuprofile', JSON.stringify(profile));
  }
} finally {
  await browser.close();
  await server.close();
}
