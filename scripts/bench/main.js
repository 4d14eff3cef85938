// The benchmark page (served by scripts/bench/browser.mjs): the same peers and loop as in Node, in
// the browser's main thread, one thread each. Results go to the page and to window.benchResult.
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import tfjsWasm from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import tfjsWasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import tfjsWasmThreaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { createAttentionCore } from '../../web/src/core/index.js';
import { onnxruntime, ourBuilds, plainJs, tensorflow } from './peers.js';
import { header, runBench } from './run.js';

const out = document.getElementById('out');
const log = (line) => {
  out.textContent += `\n${line}`;
  console.log(line);
};

async function main() {
  ort.env.wasm.numThreads = 1;
  setWasmPaths({
    'tfjs-backend-wasm.wasm': tfjsWasm,
    'tfjs-backend-wasm-simd.wasm': tfjsWasmSimd,
    'tfjs-backend-wasm-threaded-simd.wasm': tfjsWasmThreaded,
  });
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  const { kernels, peers: builds } = await ourBuilds(createAttentionCore);
  const peers = [...builds, onnxruntime(ort), tensorflow(tf), plainJs()];
  const sizes = new URLSearchParams(location.search).get('sizes');
  out.textContent = `${navigator.userAgent}, ours = the ${kernels} build\n${header(peers.map((p) => p.name))}`;
  const rows = await runBench({ peers, sizes: sizes ? JSON.parse(sizes) : undefined, log });
  window.benchResult = { runtime: navigator.userAgent, kernels, rows };
}

main().catch((error) => {
  log(`failed: ${error.stack ?? error}`);
  window.benchResult = { error: String(error) };
});
