// The web code's imports run one way: explorer → lessons → models → {settings, views, core}; views and
// settings → core; never back up, never sideways from one chapter (lessons/<chapter>/) into another,
// never in a circle. Read from the source text: every static import or re-export, dynamic import() and
// worker URL (new URL('…', import.meta.url)) under web/src; type-only JSDoc import('…') in comments is no
// runtime import and is left out.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/src');

/** The layers, and the layers each may import (besides itself). page.js is the site's entry, above them all. */
export const MAY_IMPORT = {
  page: ['explorer', 'lessons', 'models', 'settings', 'views', 'core'],
  explorer: ['lessons', 'models', 'settings', 'views', 'core'],
  lessons: ['models', 'settings', 'views', 'core'],
  models: ['settings', 'views', 'core'],
  settings: ['core'],
  views: ['core'],
  core: [],
};

/** The layer of a file under web/src: its first folder, or 'page' for the files at the top. */
export function layerOf(file) {
  const [first, ...rest] = file.split('/');
  return rest.length ? first : 'page';
}

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The relative specifiers a module's text imports (bare package names are left out: they are not ours). */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, // import … from '…', export … from '…'
    /\bimport\s*['"]([^'"]+)['"]/g, // import '…' (side effects)
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, // import('…')
    /\bnew\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g, // a worker's (or asset's) URL
  ];
  const found = patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]));
  return [
    ...new Set(
      found.filter((specifier) => specifier.startsWith('.')).map((specifier) => specifier.replace(/\?.*$/, '')),
    ),
  ];
}

/** The graph: file (relative to web/src) → the files it imports (relative to web/src; outside it: '../…'). */
export function importGraph(files) {
  return new Map(
    files.map(([file, text]) => [
      file,
      importsOf(text).map((specifier) => relative(SRC, resolve(SRC, dirname(file), specifier))),
    ]),
  );
}

/** The chapter of a file: its folder under lessons/ ('' for lessons/chapters.js, which assembles them), else null. */
export function chapterOf(file) {
  const parts = file.split('/');
  if (parts[0] !== 'lessons') return null;
  return parts.length > 2 ? parts[1] : '';
}

/**
 * Imports that break the layers: [from, to] pairs. Within lessons/, a chapter imports only its own folder: what two
 * chapters share lives in models/, views/ or settings/ (lessons/chapters.js, above the chapters, imports them all).
 */
export function layerViolations(graph) {
  const bad = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (to.startsWith('..')) continue; // the build's output (the wasm module), not a layer
      const a = layerOf(from),
        b = layerOf(to);
      if (a !== b && !MAY_IMPORT[a].includes(b)) bad.push([from, to]);
      else if (a === 'lessons' && b === 'lessons' && chapterOf(from) !== '' && chapterOf(from) !== chapterOf(to))
        bad.push([from, to]);
    }
  }
  return bad;
}

/** The first import cycle found (a list of files, the first repeated at the end), or null. */
export function findCycle(graph) {
  const state = new Map(); // file → 'open' while on the path, 'done' after
  const path = [];
  const visit = (file) => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

const graph = importGraph(sourceFiles(SRC).map((path) => [relative(SRC, path), readFileSync(path, 'utf8')]));

test('the import reader finds every kind of import in web/src', () => {
  const text =
    "import { a,\n  b } from './x.js';\nimport './y.css?inline';\nexport { c } from '../z.js';\n" +
    "// import { d } from './commented.js';\nconst w = new Worker(new URL('./worker.js', import.meta.url));\nimport('./lazy.js');\nimport 'd3-scale';\n" +
    "/** @param {import('../types.js').Run} run  type-only, in a comment */\n/** @type {import('./other.js').T} */ const t = 1;";
  assert.deepEqual(importsOf(text).sort(), ['../z.js', './lazy.js', './worker.js', './x.js', './y.css'].sort());
  assert.ok(graph.size > 50, `read ${graph.size} modules`);
  assert.ok(
    graph.get('page.js').some((to) => to.startsWith('explorer/')),
    'page.js imports the explorer',
  );
});

test('imports run explorer → lessons → models → {settings, views, core}; views and settings → core; no chapter imports another', () => {
  const bad = layerViolations(graph);
  assert.deepEqual(
    bad.map(([from, to]) => `${from} imports ${to}`),
    [],
    'imports against the layers',
  );
});

test('no import cycle in web/src', () => {
  const cycle = findCycle(graph);
  assert.equal(cycle, null, cycle && `import cycle: ${cycle.join(' → ')}`);
});

test('the checks catch a cycle and an import back into the explorer', () => {
  const made = new Map([
    ['explorer/a.js', ['lessons/b.js']],
    ['lessons/b.js', ['explorer/a.js']],
  ]);
  assert.deepEqual(findCycle(made), ['explorer/a.js', 'lessons/b.js', 'explorer/a.js']);
  assert.deepEqual(layerViolations(made), [['lessons/b.js', 'explorer/a.js']]);
});

test('the checks catch a chapter importing another chapter, and models importing a chapter or looping back', () => {
  // Deliberate faults added to the real graph: each is caught, and the real graph alone has none.
  const made = new Map(graph);
  made.set('lessons/inside-head/chapter.js', [
    ...graph.get('lessons/inside-head/chapter.js'),
    'lessons/attention/mix-view.js',
  ]);
  made.set('models/run.js', [...graph.get('models/run.js'), 'lessons/attention/chapter.js']);
  assert.deepEqual(
    layerViolations(made).map(([from, to]) => `${from} → ${to}`),
    ['lessons/inside-head/chapter.js → lessons/attention/mix-view.js', 'models/run.js → lessons/attention/chapter.js'],
  );
  // Its own folder, the layers below and lessons/chapters.js's assembling of the chapters stay allowed.
  assert.deepEqual(
    layerViolations(
      new Map([
        ['lessons/chapters.js', ['lessons/attention/chapter.js', 'settings/state.js']],
        ['lessons/attention/chapter.js', ['lessons/attention/tour.js', 'models/run.js', 'views/layout.js']],
      ]),
    ),
    [],
  );
  // A cycle through the models layer.
  const looped = new Map([
    ['models/a.js', ['models/b.js']],
    ['models/b.js', ['models/a.js']],
  ]);
  assert.deepEqual(findCycle(looped), ['models/a.js', 'models/b.js', 'models/a.js']);
});
