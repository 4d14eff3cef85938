// The benchmark page (served by scripts/bench/browser.mjs): the same peers and loop as in Node, in
// the browser's main thread, one thread each. Results go to the page and to window.benchResult.
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import tfjsWasm from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import tfjsWasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import tfjsWasmThreaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { createAttentionCore } from '../../web/src/core/index.js';
import { ONE_HEAD } from './cases.js';
import { onnxruntime, onnxruntimeHead, ourBuilds, oursAttention, plainJs, tensorflow } from './peers.js';
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
  const { kernels, core, peers: builds } = await ourBuilds(createAttentionCore);
  const peers = [...builds, onnxruntime(ort), tensorflow(tf), plainJs()];
  const query = new URLSearchParams(location.search).get('sizes');
  const sizes = query ? JSON.parse(query) : undefined;
  out.textContent = `${navigator.userAgent}, ours = the ${kernels} build (multiHeadLayer)\n${header(peers.map((p) => p.name))}`;
  const rows = await runBench({ peers, sizes, log });
  const headPeers = [oursAttention(core), onnxruntimeHead(ort)];
  log(`\n${ONE_HEAD.name}: n × d_model × heads, one head of d_k = d_model / heads`);
  log(header(headPeers.map((p) => p.name)));
  const headRows = await runBench({ peers: headPeers, computation: ONE_HEAD, sizes, log });
  window.benchResult = { runtime: navigator.userAgent, kernels, rows, headRows };
}

main().catch((error) => {
  log(`failed: ${error.stack ?? error}`);
  window.benchResult = { error: String(error) };
});
