// The Learn chapter's training thread: a Web Worker with its own instance of the core, training one
// attention-only transformer (core.createTrainer, cpp/include/attn/train/) at a paced number of steps
// per second, and posting snapshots — the step, the losses, the accuracy, every head's scores and its
// attention on the probe — about 14 times a second. The page never waits for training: typing in the
// explorer stays within a frame while this runs.
//
// Messages in (learn-session.js sends them):
//   { type: 'reset', options, kernels, wasmUrl }  a new trainer (TrainerOptions; the task's defaults for the
//                                         rest), paused at step 0, on the task's default probe; kernels and
//                                         wasmUrl: the page's core's build and where it was loaded from (core.kernels,
//                                         core.wasmUrl): the worker starts the same file, so no bundle carries a second copy
//   { type: 'run', stepsPerSecond }       train until paused (stepsPerSecond 0: as fast as the thread allows)
//   { type: 'pause' }
//   { type: 'step', n }                   n steps now, then a snapshot (paused)
//   { type: 'probe', tokens }             the probe sequence (token ids)
//   { type: 'ablate', layer, head, on }   zero that head's output (in training too; trainer.ablate)
//   { type: 'parameters' }               the trained parameters (for the JSON export)
// Messages out:
//   { type: 'model', options, example, defaultProbe }  after a reset, before its first snapshot: the options in
//                                   effect (the task's defaults filled in), one sample of the task and its default
//                                   probe (token ids), both drawn from the sample stream (training does not change)
//   { type: 'snapshot', snapshot }  snapshot.js
//   { type: 'parameters', parameters, options, step }
//   { type: 'error', message }      a bad option or a diverged step: training stops, nothing else changes
import { frozenLimits } from '../../core/limits.js';
import { trainerApi } from '../../core/trainer.js';
import { startModule } from '../../core/wasm-module.js';
import { defaultProbe } from './probe.js';
import { takeSnapshot } from './snapshot.js';

const TICK_MS = 70;           // one snapshot per tick while running: ~14 redraws a second (at least 10)
const MAX_BUSY_MS = 70;       // a tick's steps stop after this much time, so messages (pause) are read within a tick
const CHUNK = 5;              // steps per core call at full speed, between clock reads

let api = null;               // { createTrainer, trainerLimits }
let trainer = null;
let probe = null;             // Int32Array
let running = false;
let stepsPerSecond = 0;
let timer = null;
let rate = { steps: 0, ms: 0 };  // measured speed: steps and busy-or-waiting ms over the last ticks
let trainLoss = NaN;             // mean training loss of the steps since the last snapshot
let ablated = [];                // "layer,head" of the heads switched off
let started = 0;                 // performance.now() at the first step of this run of `running`
let elapsed = 0;                 // ms of training so far (paused time excluded)

async function core(kernels, url) {
  if (!api) {
    const { wasm } = await startModule(kernels === 'relaxed-simd' ? { kernels, relaxedWasmUrl: url } : { kernels, wasmUrl: url });
    api = trainerApi(wasm, frozenLimits(wasm));
  }
  return api;
}

/** What the page draws: everything measured now. */
function snapshot() {
  return takeSnapshot(trainer, probe, { trainLoss, ablated, running, stepsPerSecond: rate.ms > 0 ? (1000 * rate.steps) / rate.ms : 0,
    elapsedMs: elapsed + (running ? performance.now() - started : 0) });
}

function post(message) {
  if (message.type === 'snapshot') {
    const s = message.snapshot;
    self.postMessage(message, [s.weights.data.buffer, s.predictions.buffer]);
  } else self.postMessage(message);
}

function fail(error) {
  stop();
  post({ type: 'error', message: error?.message ?? String(error) });
}

function stop() {
  if (running) elapsed += performance.now() - started;
  running = false;
  clearTimeout(timer);
  timer = null;
}

/** One tick: the steps the pace allows (or as many as fit in MAX_BUSY_MS), then a snapshot. */
function tick() {
  const begin = performance.now();
  const wanted = stepsPerSecond > 0 ? Math.max(1, Math.round((stepsPerSecond * TICK_MS) / 1000)) : Infinity;
  let done = 0, lossSum = 0;
  try {
    while (done < wanted && performance.now() - begin < MAX_BUSY_MS) {
      const n = Math.min(CHUNK, wanted - done);
      lossSum += trainer.step(n).loss * n;
      done += n;
    }
  } catch (error) {
    fail(error);
    return;
  }
  trainLoss = done > 0 ? lossSum / done : trainLoss;
  const spent = performance.now() - begin;
  // Speed over the last second or so: steps per wall-clock ms of this thread's ticks.
  const wait = Math.max(0, TICK_MS - spent);
  rate = { steps: rate.steps * 0.5 + done, ms: rate.ms * 0.5 + spent + wait };
  post({ type: 'snapshot', snapshot: snapshot() });
  timer = running ? setTimeout(tick, wait) : null;
}

const HANDLERS = {
  async reset({ options, kernels, wasmUrl }) {
    stop();
    const { createTrainer } = await core(kernels, wasmUrl);
    try {
      trainer = createTrainer(options);
    } catch (error) {
      throw new Error(`Training settings: ${error.message}`);  // the last model stays
    }
    // The default probe first, from the fresh sample stream, then the example the task's description shows.
    probe = defaultProbe(trainer);
    post({ type: 'model', options: trainer.options, defaultProbe: Array.from(probe), example: Array.from(trainer.sample(1).tokens) });
    ablated = [];
    rate = { steps: 0, ms: 0 };
    trainLoss = NaN;
    elapsed = 0;
    post({ type: 'snapshot', snapshot: snapshot() });
  },
  run({ stepsPerSecond: pace }) {
    stepsPerSecond = pace;
    if (running) return;
    running = true;
    started = performance.now();
    tick();
  },
  pause() {
    stop();
    post({ type: 'snapshot', snapshot: snapshot() });
  },
  step({ n }) {
    stop();
    try {
      trainLoss = trainer.step(n).loss;
    } catch (error) {
      fail(error);
      return;
    }
    post({ type: 'snapshot', snapshot: snapshot() });
  },
  probe({ tokens }) {
    const next = Int32Array.from(tokens);
    try {
      trainer.attention(next);  // checks the ids and the length (throws a RangeError naming them)
    } catch (error) {
      post({ type: 'error', message: `probe: ${error.message}` });  // training goes on, on the last good probe
      return;
    }
    probe = next;
    if (!running) post({ type: 'snapshot', snapshot: snapshot() });
  },
  ablate({ layer, head, on }) {
    trainer.ablate({ layer, head }, on);
    const key = `${layer},${head}`;
    ablated = on ? [...new Set([...ablated, key])] : ablated.filter((k) => k !== key);
    if (!running) post({ type: 'snapshot', snapshot: snapshot() });
  },
  parameters() {
    post({ type: 'parameters', parameters: trainer.parameters(), options: trainer.options, step: trainer.evaluate().step });
  },
};

// Messages run one at a time, in order (a reset's loading finishes before the run that follows it).
let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  queue = queue.then(async () => {
    const handler = HANDLERS[data?.type];
    if (!handler) throw new Error(`unknown message ${JSON.stringify(data?.type)}`);
    if (!trainer && data.type !== 'reset') throw new Error(`${data.type}: no model yet (reset first)`);
    await handler(data);
  }).catch(fail);
};
