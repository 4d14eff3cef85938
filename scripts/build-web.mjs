#!/usr/bin/env node
// Builds dist/ for every host (the wasm module must be built first: scripts/build-wasm.sh):
//   dist/index.html, dist/assets/   the demo site
//   dist/core/                      the core for any page or Node: index.js (one self-contained ES module,
//                                   no bare imports), attn_core.wasm, attn_core.relaxed.wasm, embeddings.bin
//                                   (found beside it by relative URL), causal.safetensors and masked.safetensors
//                                   (the language models), gpt2-tokenizer.js (GPT-2's BPE, imported when a GPT-2
//                                   checkpoint loads), index.d.ts (+ trainer.d.ts, limits.d.ts, language-model.d.ts,
//                                   language-trainer.d.ts, head-measurement.d.ts, knockout.d.ts, gpt2.d.ts,
//                                   analyses.d.ts)
//   dist/element/                   the embeddable element: attention-explorer.js (one ES module that
//                                   imports ../core/index.js, so the core's files ship once), its .d.ts, and
//                                   assets/: the Learn chapter's training worker (the trainer's JS; it starts
//                                   the .wasm file the page's core runs, core.wasmUrl)
//   dist/single/attention-explorer.js  the single-file variant: attn_core.wasm and the vectors of the 5,000 most
//                                   frequent words and of every word in the examples (example-texts.mjs) inlined,
//                                   for hosts that accept only one file; it is its
//                                   own training worker (lessons/learn/self-worker.js); the language models
//                                   it finds beside itself (causal.safetensors, masked.safetensors) when uploaded
//   dist/single/attention-explorer.d.ts  its types (those of dist/element/)
//   dist/embed.html                 three configured elements side by side, using dist/element/
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { createAttentionCore } from '../web/src/core/index.js';
import { readLanguageModelFile } from '../web/src/core/language-model.js';
import { keptRows } from './embedding-asset.mjs';
import { exampleTexts } from './example-texts.mjs';

const SINGLE_FILE_WORDS = 5000;
const SUBSET = 'build/embeddings-single.bin';
const ENTRY = 'web/src/explorer/attention-explorer.js';
const CORE = resolve('web/src/core/index.js');
const TOKENIZER = resolve('web/src/core/gpt2-tokenizer.js');
const quiet = { configFile: false, logLevel: 'warn' };

/** `input` as one ES module `entry` in `outDir`, its assets beside it under their own names; `inline`: every asset inlined as a data: URL. */
function moduleBuild(input, entry, outDir, { inline = false, plugins = [], paths } = {}) {
  return {
    ...quiet,
    root: 'web',
    base: './',
    publicDir: false,
    plugins,
    worker: WORKER,
    build: {
      outDir: `../${outDir}`,
      emptyOutDir: true,
      chunkSizeWarningLimit: 5000,
      assetsInlineLimit: inline ? () => true : 0,
      rollupOptions: {
        input,
        preserveEntrySignatures: 'exports-only',
        external: paths ? Object.keys(paths) : [],
        output: { entryFileNames: entry, assetFileNames: '[name][extname]', codeSplitting: false, paths },
      },
    },
  };
}

/** A Vite plugin that replaces `from` (which must be there) by `to` in the source file ending in `file`. */
function replaceIn(name, file, from, to) {
  return {
    name,
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith(file)) return null;
      if (!code.includes(from)) throw new Error(`${name}: ${from} not found in ${id}`);
      return code.replace(from, to);
    },
  };
}

/**
 * The single file's word vectors: the SINGLE_FILE_WORDS most frequent words, every word of the texts a
 * reader meets before typing (example-texts.mjs: the page's sentences, the tour's, the documentation's), found
 * by the core's own tokenizer (which lower-cases and splits clitics as the vocabulary does), and every word the
 * language models predict (their output layer reads those words' vectors: without them a model file uploaded beside
 * the single file could not load).
 */
async function singleFileVocabulary(asset) {
  const core = await createAttentionCore({ embeddings: asset, kernels: 'simd128' });
  const rows = new Set(
    exampleTexts().flatMap((text) =>
      core
        .explain(text, { encoderBlock: false, project2d: false })
        .tokens.filter((token) => !token.oov)
        .map((token) => token.id),
    ),
  );
  const predicted = new Set(
    ['causal', 'masked'].flatMap(
      (kind) => readLanguageModelFile(readFileSync(`web/assets/models/${kind}.safetensors`), kind).words,
    ),
  );
  return keptRows(asset, (row, word) => row < SINGLE_FILE_WORDS || rows.has(row) || predicted.has(word));
}

/** Points the core's default embedding asset at the subset (the single file carries only that one). */
const subsetEmbeddings = replaceIn(
  'subset-embeddings',
  '/web/src/core/index.js',
  "new URL('../../assets/embeddings.bin', import.meta.url)",
  `new URL('../../../${SUBSET}', import.meta.url)`,
);

/**
 * The language models' files (2.6 MB) stay out of the single file and of the training worker: there
 * core.languageModel() needs { url } (language-model.js says so). The site and dist/core/ carry them.
 */
const withoutModels = replaceIn(
  'without-models',
  '/web/src/core/language-model.js',
  "const DEFAULT_URLS = {\n  causal: new URL('../../assets/models/causal.safetensors', import.meta.url),\n  masked: new URL('../../assets/models/masked.safetensors', import.meta.url),\n};",
  'const DEFAULT_URLS = { causal: null, masked: null };',
);

/**
 * The single file leaves the language models out too, but looks for them beside itself: an author who uploads
 * causal.safetensors and masked.safetensors (from dist/core/) next to attention-explorer.js gets model="causal" and
 * "masked" working, while the .wasm and word vectors stay inlined. (The file name is a variable, not a literal, so the
 * bundler leaves the URL to be resolved where the single file is served instead of bundling or checking it.)
 */
const modelsBesideSingleFile = replaceIn(
  'models-beside-single-file',
  '/web/src/core/language-model.js',
  "const DEFAULT_URLS = {\n  causal: new URL('../../assets/models/causal.safetensors', import.meta.url),\n  masked: new URL('../../assets/models/masked.safetensors', import.meta.url),\n};",
  "const besideThisFile = (kind) => {\n  const file = kind + '.safetensors';\n  return new URL(file, import.meta.url);\n};\n" +
    "const DEFAULT_URLS = { causal: besideThisFile('causal'), masked: besideThisFile('masked') };",
);

/** …and loads one only when chosen: a model loaded ahead that is not there would put a 404 in the author's console. */
const noPreload = replaceIn(
  'no-preload',
  '/web/src/models/trained-models.js',
  'const MODELS_SHIPPED = true;',
  'const MODELS_SHIPPED = false;',
);

/** The Learn chapter's sample of the corpus (1 MB) stays out of the single file: there the learner pastes text to train on. */
const withoutSample = replaceIn(
  'without-sample',
  '/web/src/lessons/learn/language-lesson.js',
  "const SAMPLE = {\n  train: new URL('../../../assets/corpus/learn-train.txt', import.meta.url),\n  heldOut: new URL('../../../assets/corpus/learn-held-out.txt', import.meta.url),\n};",
  'const SAMPLE = { train: null, heldOut: null };',
);

/**
 * The training worker is given the page's word vectors (core.embeddingsUrl, for the language task), so it carries no
 * default: without this, the bundler would copy the 2.8 MB asset a second time for the worker.
 */
const workerWithoutDefaultEmbeddings = replaceIn(
  'worker-without-default-embeddings',
  '/web/src/core/index.js',
  "const DEFAULT_EMBEDDINGS_URL = new URL('../../assets/embeddings.bin', import.meta.url);",
  'const DEFAULT_EMBEDDINGS_URL = null;',
);

/** The single file inlines attn_core.wasm only (the relaxed-SIMD build would add 500 KB of base64): kernels 'auto' runs simd128. */
const simd128Only = replaceIn(
  'simd128-only',
  '/web/src/core/wasm-module.js',
  "new URL('../../../build/wasm/attn_core.relaxed.wasm', import.meta.url)",
  'null',
);

/**
 * The glue's own default .wasm location is never used (wasm-module.js always names the file to start), and
 * would make Vite copy or inline the .wasm a second time: it goes. (Emscripten 3.1.6's text; a glue without
 * it has nothing to drop.)
 */
const glueWithoutDefault = {
  name: 'glue-without-default',
  transform(code, id) {
    const from = 'new URL("attn_core.wasm",import.meta.url).toString()';
    return id.endsWith('/build/wasm/attn_core.mjs') && code.includes(from) ? code.replace(from, '""') : null;
  },
};

/** The training worker starts the .wasm the page's core runs (core.wasmUrl, sent with its first message): it bundles none. */
const workerWithoutWasm = {
  name: 'worker-without-wasm',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('/web/src/core/wasm-module.js')) return null;
    const urls = [
      "new URL('../../../build/wasm/attn_core.wasm', import.meta.url)",
      "new URL('../../../build/wasm/attn_core.relaxed.wasm', import.meta.url)",
    ];
    for (const url of urls) if (!code.includes(url)) throw new Error(`worker-without-wasm: ${url} not found in ${id}`);
    return urls.reduce((text, url) => text.replace(url, 'null'), code);
  },
};
const WORKER = {
  format: 'es',
  plugins: () => [workerWithoutWasm, glueWithoutDefault, withoutModels, workerWithoutDefaultEmbeddings],
};

/**
 * The single file is its own training worker (lessons/learn/self-worker.js): no Blob URL of an inlined copy,
 * which a Content-Security-Policy of script-src 'self' refuses, and no second copy of the trainer's code.
 */
const selfWorker = {
  name: 'self-worker',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('/web/src/lessons/learn/learn-session.js')) return null;
    const from = "new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' })";
    if (!code.includes(from)) throw new Error(`self-worker: ${from} not found in ${id}`);
    return `import './train-worker.js';\nimport { selfWorker } from './self-worker.js';\n${code.replace(from, 'selfWorker(import.meta.url)')}`;
  },
};

/** The site bundles the element into its page's chunk (dist/assets/): its embed code names dist/element/ instead. */
const siteElementUrl = replaceIn(
  'site-element-url',
  '/web/src/explorer/element-url.js',
  'new URL(import.meta.url).href',
  "new URL('../element/attention-explorer.js', import.meta.url).href",
);

await build({
  ...quiet,
  root: 'web',
  base: './',
  plugins: [glueWithoutDefault, siteElementUrl],
  worker: WORKER,
  build: { outDir: '../dist', emptyOutDir: true },
});
await build(
  moduleBuild('web/src/core/index.js', 'index.js', 'dist/core', {
    paths: { [TOKENIZER]: './gpt2-tokenizer.js' },
    plugins: [glueWithoutDefault],
  }),
);
// GPT-2's BPE tables (0.5 MB) in a module of their own beside the core, imported when a GPT-2 checkpoint loads.
await build(moduleBuild(TOKENIZER, 'gpt2-tokenizer.js', 'build/gpt2-tokenizer'));
copyFileSync('build/gpt2-tokenizer/gpt2-tokenizer.js', 'dist/core/gpt2-tokenizer.js');
copyFileSync('web/src/core/index.d.ts', 'dist/core/index.d.ts');
copyFileSync('web/src/core/trainer.d.ts', 'dist/core/trainer.d.ts');
copyFileSync('web/src/core/limits.d.ts', 'dist/core/limits.d.ts');
copyFileSync('web/src/core/language-model.d.ts', 'dist/core/language-model.d.ts');
copyFileSync('web/src/core/gpt2.d.ts', 'dist/core/gpt2.d.ts');
copyFileSync('web/src/core/language-trainer.d.ts', 'dist/core/language-trainer.d.ts');
copyFileSync('web/src/core/head-measurement.d.ts', 'dist/core/head-measurement.d.ts');
copyFileSync('web/src/core/knockout.d.ts', 'dist/core/knockout.d.ts');
copyFileSync('web/src/core/analyses.d.ts', 'dist/core/analyses.d.ts');
// The element leaves the core out (external) and imports the built one beside it: ../core/index.js.
await build(
  moduleBuild(ENTRY, 'attention-explorer.js', 'dist/element', {
    paths: { [CORE]: '../core/index.js' },
    plugins: [glueWithoutDefault],
  }),
);
copyFileSync('web/src/explorer/attention-explorer.d.ts', 'dist/element/attention-explorer.d.ts');
mkdirSync('build', { recursive: true });
writeFileSync(SUBSET, await singleFileVocabulary(readFileSync('web/assets/embeddings.bin')));
await build(
  moduleBuild(ENTRY, 'attention-explorer.js', 'dist/single', {
    inline: true,
    paths: { [TOKENIZER]: './gpt2-tokenizer.js' }, // beside the single file, where an author uploads it for GPT-2
    plugins: [
      subsetEmbeddings,
      simd128Only,
      selfWorker,
      glueWithoutDefault,
      modelsBesideSingleFile,
      noPreload,
      withoutSample,
    ],
  }),
);
// The same types: the declaration's import of ../core/index.js finds dist/core/index.d.ts from here too.
copyFileSync('web/src/explorer/attention-explorer.d.ts', 'dist/single/attention-explorer.d.ts');
copyFileSync('web/embed.html', 'dist/embed.html');
console.log(
  'built dist/ (site), dist/core/ (the core for any page), dist/element/ (embeddable element), dist/single/attention-explorer.js (single file), dist/embed.html',
);
