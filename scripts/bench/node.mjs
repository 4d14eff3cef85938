// npm run bench (Node part): our core against onnxruntime-web, TF.js (wasm backend) and plain JS,
// one thread each, in this Node process. Prints a table and writes bench-output/bench-node.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createAttentionCore } from 'attention-explorer/core';
import { ONE_HEAD } from './cases.js';
import { onnxruntime, onnxruntimeHead, ourBuilds, oursAttention, plainJs, tensorflow } from './peers.js';
import { header, runBench } from './run.js';

const require = createRequire(import.meta.url);
ort.env.wasm.numThreads = 1;
setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`);
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
await tf.setBackend('wasm');
await tf.ready();

const { kernels, core, peers: builds } = await ourBuilds(createAttentionCore);
const peers = [...builds, onnxruntime(ort), tensorflow(tf), plainJs()];
const sizes = process.argv[2] ? JSON.parse(process.argv[2]) : undefined;
console.log(
  `Node ${process.version}, ours = the ${kernels} build (multiHeadLayer), ${tf.getBackend()} backend for TF.js, onnxruntime-web ${ort.env.versions?.web ?? ''}`,
);
console.log(header(peers.map((p) => p.name)));
const rows = await runBench({ peers, sizes, log: console.log });
const headPeers = [oursAttention(core), onnxruntimeHead(ort)];
console.log(`\n${ONE_HEAD.name}: n × d_model × heads, one head of d_k = d_model / heads`);
console.log(header(headPeers.map((p) => p.name)));
const headRows = await runBench({ peers: headPeers, computation: ONE_HEAD, sizes, log: console.log });
mkdirSync('bench-output', { recursive: true });
writeFileSync(
  join('bench-output', 'bench-node.json'),
  JSON.stringify({ runtime: `node ${process.version}`, kernels, rows, headRows }, null, 2),
);
