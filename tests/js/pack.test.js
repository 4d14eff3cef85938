// The npm package as a user gets it: `npm pack`, install the tarball into an empty project, import
// ./core from Node and compute an attention (the built .wasm and the word vectors must be inside);
// ./element resolves to the built element bundle.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack → install in a fresh project → import ./core in Node → attention', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-pack-'));
  try {
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], process.cwd()));
    const files = packed.files.map((f) => f.path);
    for (const needed of ['web/src/core/index.js', 'web/src/core/index.d.ts', 'build/wasm/attn_core.wasm', 'build/wasm/attn_core.relaxed.wasm',
      'web/assets/embeddings.bin', 'dist/element/attention-explorer.js', 'dist/element/attn_core.wasm',
      'dist/element/attn_core.relaxed.wasm', 'dist/element/embeddings.bin',
      'dist/single/attention-explorer.js', 'web/src/explorer/attention-explorer.d.ts']) {
      assert.ok(files.includes(needed), `${needed} is in the tarball`);
    }
    assert.ok(!files.some((f) => f.startsWith('cpp/') || f.startsWith('tests/')), 'sources and tests stay out');
    const project = join(dir, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], project);
    const script = `
      import { createAttentionCore } from 'attention-explorer/core';
      const core = await createAttentionCore();
      const m = (data, rows, cols) => ({ data: Float32Array.from(data), shape: [rows, cols] });
      const r = core.attention({ queries: m([1, 0, 0, 1], 2, 2), keys: m([1, 0, 0, 1], 2, 2), values: m([1, 2, 3, 4], 2, 2) });
      const element = (await import('node:url')).fileURLToPath(import.meta.resolve('attention-explorer/element'));
      console.log(JSON.stringify({ weights: [...r.weights.data], dModel: core.dModel, tokens: core.tokenize('hello world').length,
        element: (await import('node:fs')).statSync(element).size }));`;
    const out = JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }));
    // softmax([1, 0] / √2) = [e^(1/√2), 1] / (e^(1/√2) + 1)
    const w = Math.exp(Math.SQRT1_2) / (Math.exp(Math.SQRT1_2) + 1);
    assert.ok(Math.abs(out.weights[0] - w) < 1e-6 && Math.abs(out.weights[1] - (1 - w)) < 1e-6, JSON.stringify(out));
    assert.equal(out.dModel, 100);
    assert.equal(out.tokens, 2);
    assert.ok(out.element > 100000, './element resolves to the built bundle (a browser module: not run in Node)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
