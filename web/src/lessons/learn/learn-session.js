// The page's side of training: starts the training worker (train-worker.js), sends it commands and
// keeps what it reports — the latest snapshot and the run's history (losses and the probe's attention
// over time, for the curves and the history strip). The worker starts on first use, so a page that
// never opens the Learn chapter loads nothing for it.

/** Snapshots kept per run; past that, every other one is dropped (the oldest first), so memory stays bounded. */
export const MAX_HISTORY = 600;

export class LearnSession {
  /**
   * @param {{ onModel: (model: object) => void, onSnapshot: (snapshot: object) => void, onError: (message: string) => void,
   *   core: { kernels: string, wasmUrl: string } }} hooks
   *   onModel: a new model's { options, example, defaultProbe } (train-worker.js), before its first snapshot;
   *   onSnapshot: each new snapshot; onError: a message to show (training has stopped); core: the page's core, whose
   *   build (kernels, wasmUrl) the worker starts
   */
  constructor({ onModel, onSnapshot, onError, core }) {
    this.onModel = onModel;
    this.onSnapshot = onSnapshot;
    this.onError = onError;
    this.build = { kernels: core.kernels, wasmUrl: core.wasmUrl };
    this.worker = null;
    this.latest = null;
    this.history = [];
    this.waiting = new Map();  // message type → resolve of the promise waiting for it
  }

  start() {
    if (this.worker) return this.worker;
    this.worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.onError(`The training thread failed: ${event.message ?? 'could not start it'}`);
    return this.worker;
  }

  send(message) {
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
    if (this.history.length > MAX_HISTORY) this.history = this.history.filter((_, i) => i % 2 === 0 || i === this.history.length - 1);
  }

  /** A new model (TrainerOptions), at step 0, paused, on the task's default probe (setProbe changes it). */
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

  /** @param {number[]} tokens  the probe's ids */
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
