// The npm package as a user gets it: `npm pack`, install the tarball into an empty project, import
// the package (its "." is the core) and ./core from Node and compute an attention (the built .wasm and the
// word vectors must be inside); ./element and ./single import in Node without a DOM (they define the
// element only in a browser); every export's types resolve under TypeScript's moduleResolution nodenext,
// bundler and node10; the sizes the documentation states are the measured ones (docs/js-api.md: the tarball;
// docs/embedding.md: the single file). The package has no runtime dependencies (the core is one bundled
// module), so `npm install --offline` of the tarball needs nothing from any npm cache: the test passes on a
// machine that never installed anything.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { GPT2_SIZES, gpt2Checkpoint } from '../../scripts/gpt2-checkpoint.mjs';

// The tarball's bytes (gzip) beside the language models: the word vectors (2.6 MB), two .wasm builds (~0.3 MB each),
// the single-file variant (2.4 MB: its vectors include every word the language models predict, 16,725 rows, so that
// their files load beside it), the Learn sample (0.4 MB), GPT-2's BPE tables and the JS, each once: 6.6 MB in all, and
// 7 MiB leaves room for the code (a second copy of the vectors would pass it). The two language models' float16
// weights (7.9 MB: the decoder 3.4 MB, the encoder 4.5 MB; gzip shrinks them by a sixth at most) ship once, in
// dist/core/, and get a budget of their own: 5 MB a file; the tarball may hold their bytes beside the rest.
const MAX_TARBALL_BYTES_BESIDE_MODELS = 7 * 2 ** 20;
const MAX_MODEL_BYTES = 5e6;

/** A stated size ("6.7 MB") matches the measured bytes within this share (it is rounded to 0.1 MB). */
const STATED_SIZE_TOLERANCE = 0.05;

/** The number of MB (10⁶ bytes) the document states where `pattern`'s group 1 is. */
function statedMegabytes(document, pattern) {
  const found = readFileSync(document, 'utf8').match(pattern);
  assert.ok(found, `${document} states ${pattern}`);
  return Number(found[1]);
}

function assertStatedSize(document, pattern, bytes, what) {
  const stated = statedMegabytes(document, pattern);
  assert.ok(
    Math.abs(stated * 1e6 - bytes) <= STATED_SIZE_TOLERANCE * bytes,
    `${document} says ${what} is ${stated} MB; it is ${(bytes / 1e6).toFixed(2)} MB (${bytes} bytes)`,
  );
}

/** Uses every export's types; tsc checks it in the user's project under each moduleResolution. */
const TYPES_USAGE = `import { createAttentionCore, type Matrix } from 'attention-explorer';
import type { Trace } from 'attention-explorer/core';
import { define, type AttentionExplorer } from 'attention-explorer/element';
import type { AttentionExplorer as SingleFileExplorer } from 'attention-explorer/single';
export async function use(el: AttentionExplorer, single: SingleFileExplorer): Promise<number> {
  const core = await createAttentionCore();
  const x: Matrix = core.embed('the river bank');
  const trace: Trace | undefined = el.getTrace() ?? single.getTrace();
  return x.shape[0] + (trace?.tokens.length ?? 0) + (define() ? 1 : 0);
}
`;

/** tsc's options per moduleResolution: node10 is TypeScript's name for the resolution of Node's require (CommonJS). */
const RESOLUTIONS = {
  nodenext: ['--module', 'nodenext', '--moduleResolution', 'nodenext'],
  bundler: ['--module', 'esnext', '--moduleResolution', 'bundler'],
  node10: ['--module', 'commonjs', '--moduleResolution', 'node10'],
};

const npm = (args, cwd, env = process.env) =>
  execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack → install in a fresh project → import ./core in Node → attention', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-pack-'));
  try {
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], process.cwd()));
    const files = packed.files.map((f) => f.path);
    for (const needed of [
      'dist/core/index.js',
      'dist/core/index.d.ts',
      'dist/core/attn_core.wasm',
      'dist/core/attn_core.relaxed.wasm',
      'dist/core/embeddings.bin',
      'dist/core/causal.safetensors',
      'dist/core/masked.safetensors',
      'dist/core/language-model.d.ts',
      'dist/core/language-trainer.d.ts',
      'dist/core/head-measurement.d.ts',
      'dist/core/knockout.d.ts',
      'dist/core/gpt2.d.ts',
      'dist/core/gpt2-tokenizer.js',
      'dist/element/attention-explorer.js',
      'dist/element/attention-explorer.d.ts',
      'dist/single/attention-explorer.js',
      'dist/single/attention-explorer.d.ts',
      'dist/embed.html',
      'dist/favicon.svg',
      'package.json',
      'README.md',
      'LICENSE',
    ]) {
      assert.ok(files.includes(needed), `${needed} is in the tarball`);
    }
    assert.ok(
      files.every(
        (f) =>
          f.startsWith('dist/core/') ||
          f.startsWith('dist/element/') ||
          f.startsWith('dist/single/') ||
          ['dist/embed.html', 'dist/favicon.svg', 'package.json', 'README.md', 'LICENSE'].includes(f),
      ),
      `only the built package: ${files.join(', ')}`,
    );
    for (const asset of [
      'attn_core.wasm',
      'attn_core.relaxed.wasm',
      'embeddings.bin',
      'causal.safetensors',
      'masked.safetensors',
    ]) {
      assert.deepEqual(
        files.filter((f) => f.endsWith(`/${asset}`)),
        [`dist/core/${asset}`],
        `${asset} ships once`,
      );
    }
    let modelBytes = 0;
    for (const kind of ['causal', 'masked']) {
      const bytes = statSync(`dist/core/${kind}.safetensors`).size;
      assert.ok(bytes <= MAX_MODEL_BYTES, `the ${kind} model's ${bytes} bytes ≤ ${MAX_MODEL_BYTES}`);
      modelBytes += bytes;
    }
    const maxTarball = MAX_TARBALL_BYTES_BESIDE_MODELS + modelBytes;
    assert.ok(packed.size < maxTarball, `tarball ${packed.size} bytes < ${maxTarball} (${modelBytes} of models)`);
    assertStatedSize('docs/js-api.md', /\(([\d.]+) MB packed/, packed.size, 'the tarball');
    assertStatedSize(
      'docs/embedding.md',
      /in \*\*one file\*\* \(([\d.]+) MB[;)]/,
      statSync('dist/single/attention-explorer.js').size,
      'the single file',
    );
    assert.equal(JSON.parse(readFileSync('package.json', 'utf8')).dependencies, undefined, 'no runtime dependencies');
    const project = join(dir, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    // An empty npm cache, as on a machine that never installed anything: --offline then fails on any dependency
    npm(['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], project, {
      ...process.env,
      npm_config_cache: join(dir, 'empty-cache'),
    });
    writeFileSync(join(project, 'gpt2.safetensors'), gpt2Checkpoint({ sizes: { ...GPT2_SIZES.tiny, numLayers: 1 } }));
    const script = `
      import { createAttentionCore } from 'attention-explorer/core';
      const root = await import('attention-explorer');
      const element = await import('attention-explorer/element'), single = await import('attention-explorer/single');
      const core = await createAttentionCore();
      const gpt2 = await core.languageModel({ url: 'gpt2.safetensors', architecture: 'gpt2' });
      const pieces = gpt2.run('Hello world', { positions: [-1] }).tokens.map((t) => t.text);
      const m = (data, rows, cols) => ({ data: Float32Array.from(data), shape: [rows, cols] });
      const r = core.attention({ queries: m([1, 0, 0, 1], 2, 2), keys: m([1, 0, 0, 1], 2, 2), values: m([1, 2, 3, 4], 2, 2) });
      const elementFile = (await import('node:url')).fileURLToPath(import.meta.resolve('attention-explorer/element'));
      console.log(JSON.stringify({ weights: [...r.weights.data], dModel: core.dModel, tokens: core.tokenize('hello world').length, pieces,
        element: (await import('node:fs')).statSync(elementFile).size, sameCore: root.createAttentionCore === createAttentionCore,
        defined: [element.define(), single.define()], classes: [typeof element.AttentionExplorer, typeof single.AttentionExplorer] }));`;
    const out = JSON.parse(
      execFileSync('node', ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }),
    );
    // softmax([1, 0] / √2) = [e^(1/√2), 1] / (e^(1/√2) + 1)
    const w = Math.exp(Math.SQRT1_2) / (Math.exp(Math.SQRT1_2) + 1);
    assert.ok(Math.abs(out.weights[0] - w) < 1e-6 && Math.abs(out.weights[1] - (1 - w)) < 1e-6, JSON.stringify(out));
    assert.equal(out.dModel, 100);
    assert.equal(out.tokens, 2);
    assert.deepEqual(out.pieces, ['Hello', ' world'], "GPT-2's tokenizer loads beside the installed core");
    assert.ok(out.element > 100000, './element resolves to the built bundle');
    assert.equal(out.sameCore, true, 'the package itself is the core');
    assert.deepEqual(
      out.defined,
      [false, false],
      'no custom element registry in Node: nothing defined, nothing thrown',
    );
    assert.deepEqual(out.classes, ['function', 'function']);
    writeFileSync(join(project, 'use.ts'), TYPES_USAGE);
    const tsc = resolve('node_modules/.bin/tsc');
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      try {
        execFileSync(tsc, ['--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022,dom', ...options, 'use.ts'], {
          cwd: project,
          encoding: 'utf8',
        });
      } catch (error) {
        assert.fail(`moduleResolution ${name}: ${error.stdout}${error.stderr}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
