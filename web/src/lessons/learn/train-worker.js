// The Learn chapter's training thread: the training loop (train-loop.js) in a Web Worker, its messages
// in and out through the worker's port. Imported outside a worker — the single file imports it in the
// page too, since the same file is started as its own worker (build-web.mjs) — it does nothing.
import { createAttentionCore } from '../../core/index.js';
import { frozenLimits } from '../../core/limits.js';
import { trainerApi } from '../../core/trainer.js';
import { startModule } from '../../core/wasm-module.js';
import { WORKER_PACE, trainingLoop } from './train-loop.js';

let api = null; // { createTrainer, trainerLimits } of this thread's one core instance, or a whole core (with word vectors)

/**
 * The trainer's part of the core, started once from the .wasm the page's core runs (no bundle carries a second copy);
 * with embeddingsUrl (the language task), a whole core with those word vectors, started once when first needed.
 */
async function core(kernels, url, embeddingsUrl) {
  const build = kernels === 'relaxed-simd' ? { kernels, relaxedWasmUrl: url } : { kernels, wasmUrl: url };
  if (embeddingsUrl !== undefined && !api?.createLanguageTrainer) {
    api = await createAttentionCore({ ...build, embeddingsUrl });
  } else if (!api) {
    const { wasm } = await startModule(build);
    api = trainerApi(wasm, frozenLimits(wasm));
  }
  return api;
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  const receive = trainingLoop((message, transfer) => self.postMessage(message, transfer), WORKER_PACE, core);
  self.onmessage = ({ data }) => receive(data);
}
