// The page's side of training: starts the training worker (train-worker.js), sends it commands and
// keeps what it reports — the latest snapshot and the run's history (losses and the probe's attention
// over time, for the curves and the history strip). The worker starts on first use, so a page that
// never opens the Learn chapter loads nothing for it. Where the worker cannot start (a Content-Security-
// Policy without the worker's source, a script on another origin), the same loop (train-loop.js) runs on
// the page's thread in short slices between frames: slower, but it trains, and the chapter says so.
import { thinHistory } from './history-thinning.js';
import { MAIN_THREAD_PACE, trainingLoop } from './train-loop.js';

/**
 * Snapshots kept per run; past that, every other one is dropped (history-thinning.js: the language task's held-out
 * evaluations stay, slimmed to what its chart reads), so memory stays bounded.
 */
export const MAX_HISTORY = 600;
/** Held-out evaluations kept per run (history-thinning.js): one every ~2.5 s of training, so about 3.5 hours of them. */
export const MAX_EVALUATIONS = 5000;

/** The training worker. (The single-file build starts the file itself instead: build-web.mjs.) */
function startWorker() {
  return new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
}

export class LearnSession {
  /**
   * @param {{ onModel: (model: object) => void, onSnapshot: (snapshot: object) => void, onError: (message: string) => void,
   *   onMainThread?: (note: string) => void, core: { kernels: string, wasmUrl: string, embeddingsUrl: string | null, createTrainer: Function } }} hooks
   *   onModel: a new model's message (train-loop.js: its options and what its lesson announces), before its first snapshot;
   *   onSnapshot: each new snapshot; onError: a message to show (training has stopped); onMainThread: a one-line note
   *   to show once training has moved to the page's thread (why, and what lets the worker start); core: the page's
   *   core, whose build (kernels, wasmUrl) the worker starts, and on which training runs when no worker can
   */
  constructor({ onModel, onSnapshot, onError, onMainThread = () => {}, core }) {
    this.onModel = onModel;
    this.onSnapshot = onSnapshot;
    this.onError = onError;
    this.onMainThread = onMainThread;
    this.core = core;
    this.build = { kernels: core.kernels, wasmUrl: core.wasmUrl, embeddingsUrl: core.embeddingsUrl };
    this.port = null; // the worker, or { postMessage } of the loop on this thread
    this.answered = false; // whether the worker has sent anything (then it started)
    this.unanswered = []; // messages sent before that: sent again to the loop here if the worker fails to start
    this.blocked = null; // the policy directive that refused the worker, when the browser reported one
    this.latest = null;
    this.history = [];
    this.waiting = new Map(); // message type → resolve of the promise waiting for it
  }

  start() {
    if (this.port) return this.port;
    // A worker refused by the page's Content-Security-Policy fails with a bare error event; the report names the directive.
    const report = (event) => {
      this.blocked = event.effectiveDirective;
    };
    globalThis.document?.addEventListener('securitypolicyviolation', report);
    const stopListening = () => globalThis.document?.removeEventListener('securitypolicyviolation', report);
    try {
      const worker = startWorker();
      worker.onmessage = ({ data }) => {
        this.answered = true;
        this.unanswered = [];
        stopListening();
        this.receive(data);
      };
      worker.onerror = (event) => {
        if (this.answered) this.onError(`The training thread failed: ${event.message ?? 'an error'}`);
        else this.trainHere(worker, event.message, stopListening);
      };
      this.port = worker;
    } catch (error) {
      this.trainHere(null, error.message, stopListening); // a SecurityError: e.g. the script is on another origin
    }
    return this.port;
  }

  /** The worker could not start: the loop runs on this thread from now on, given what was sent so far. */
  trainHere(worker, reason, stopListening) {
    worker?.terminate();
    const receive = trainingLoop(
      (message) => this.receive(message),
      MAIN_THREAD_PACE,
      async () => this.core,
    );
    this.port = { postMessage: receive };
    this.answered = true;
    for (const message of this.unanswered.splice(0)) receive(message);
    // The policy's report may arrive after the error event: the note waits a task for it.
    setTimeout(() => {
      stopListening();
      const why = this.blocked
        ? `the page's Content-Security-Policy (${this.blocked}) refused it; add worker-src 'self' blob: to train in the background`
        : reason || 'it could not start';
      this.onMainThread(
        `Training runs on the page's thread, in short slices between frames (slower than in a worker: ${why}).`,
      );
    }, 0);
  }

  send(message) {
    if (!this.answered) this.unanswered.push(message);
    this.start().postMessage(message);
  }

  receive(data) {
    if (data.type === 'error') {
      this.onError(data.message);
      if (this.latest) this.latest = { ...this.latest, running: false };
    } else if (data.type === 'model') {
      this.onModel(data);
    } else if (data.type === 'snapshot') {
      this.keep(data.snapshot);
      this.latest = data.snapshot;
      this.onSnapshot(data.snapshot);
    } else {
      this.waiting.get(data.type)?.(data);
      this.waiting.delete(data.type);
    }
  }

  /** A snapshot into the history: one per step count (a later one replaces an earlier at the same step). */
  keep(snapshot) {
    const last = this.history.at(-1);
    if (snapshot.step < (last?.step ?? -1)) this.history = [];
    if (last && last.step === snapshot.step) this.history[this.history.length - 1] = snapshot;
    else this.history.push(snapshot);
    this.history = thinHistory(this.history, MAX_HISTORY, MAX_EVALUATIONS);
  }

  /** A new model (TrainerOptions, or language-run.js's options), at step 0, paused, on the task's default probe (setProbe changes it). */
  reset(options) {
    this.history = [];
    this.latest = null;
    this.send({ type: 'reset', options, ...this.build });
  }

  /** Trains until paused, at `stepsPerSecond` (0: as fast as the thread allows). */
  run(stepsPerSecond) {
    this.send({ type: 'run', stepsPerSecond });
  }

  pause() {
    this.send({ type: 'pause' });
  }

  step(n) {
    this.send({ type: 'step', n });
  }

  /** @param {number[] | string} tokens  the probe's ids, or the language task's sentence */
  setProbe(tokens) {
    this.send({ type: 'probe', tokens });
  }

  ablate(layer, head, on) {
    this.send({ type: 'ablate', layer, head, on });
  }

  /** @returns {Promise<{ parameters: object, options: object, step: number }>} the trained parameters now */
  parameters() {
    return new Promise((resolve) => {
      this.waiting.set('parameters', resolve);
      this.send({ type: 'parameters' });
    });
  }
}
