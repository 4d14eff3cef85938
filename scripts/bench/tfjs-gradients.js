// TF.js's gradient functions for Node. tfjs-core's Node build (tf-core.node.js) leaves them out, and its
// ES module build imports without file extensions, which Node cannot resolve; so the module that
// registers them (dist/register_all_gradients.js) is bundled with Vite into a temporary file and
// imported. tfjs-core keeps its gradient registry and engine on the global object (getGlobal), so the
// bundle's registrations serve the tfjs-core the caller imported.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { build } from 'vite';

/** Registers every TF.js gradient (once per process). */
export async function registerTfjsGradients() {
  const require = createRequire(import.meta.url);
  const entry = join(dirname(require.resolve('@tensorflow/tfjs-core/package.json')), 'dist/register_all_gradients.js');
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, ssr: entry, minify: false, rollupOptions: { output: { format: 'es' } } },
    ssr: { noExternal: true },
  });
  const folder = mkdtempSync(join(tmpdir(), 'tfjs-gradients-'));
  try {
    const file = join(folder, 'register_all_gradients.mjs');
    writeFileSync(file, (Array.isArray(out) ? out[0] : out).output[0].code);
    await import(pathToFileURL(file).href);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The TF.js peer as the benchmarks and tests train it: `tf` (the caller's tfjs-core) on the wasm backend from
 * node_modules, one thread (as our core runs), with every gradient registered.
 */
export async function useTfjsWasmForTraining(tf) {
  const require = createRequire(import.meta.url);
  setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  await registerTfjsGradients();
}
