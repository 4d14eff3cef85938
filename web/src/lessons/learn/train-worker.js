// The Learn chapter's training thread: the training loop (train-loop.js) in a Web Worker, its messages
// in and out through the worker's port. Imported outside a worker — the single file imports it in the
// page too, since the same file is started as its own worker (build-web.mjs) — it does nothing.
import { WORKER_PACE, trainingLoop } from './train-loop.js';

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  const receive = trainingLoop((message, transfer) => self.postMessage(message, transfer), WORKER_PACE);
  self.onmessage = ({ data }) => receive(data);
}
