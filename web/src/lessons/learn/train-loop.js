// The Learn chapter's training loop: on a core of its thread, training one model at a paced number of
// steps per second, and posting snapshots about 14 times a second. What is trained is a lesson's: an
// attention-only transformer on a synthetic task (synthetic-run.js: core.createTrainer; its snapshots
// hold the losses, the accuracy, every head's scores and its attention on the probe), or a language model
// on real English (language-run.js: core.createLanguageTrainer; the probe is the learner's sentence). It
// runs in a Web Worker (train-worker.js), so typing in the explorer stays within a frame while it trains;
// where a page cannot start that worker, learn-session.js runs it on the page's thread in short slices
// (MAIN_THREAD_PACE), between frames.
//
// Messages in (learn-session.js sends them):
//   { type: 'reset', options, kernels, wasmUrl, embeddingsUrl }  a new trainer (TrainerOptions, the task's
//                                         defaults for the rest; or, for the task 'language', language-run.js's
//                                         options), paused at step 0, on the task's default probe; kernels and
//                                         wasmUrl: the page's core's build and where it was loaded from (core.kernels,
//                                         core.wasmUrl): a worker starts the same file, so no bundle carries a second
//                                         copy; embeddingsUrl: the word vectors the language task reads
//   { type: 'run', stepsPerSecond }       train until paused (stepsPerSecond 0: as fast as the pace allows)
//   { type: 'pause' }
//   { type: 'step', n }                   n steps now, then a snapshot (paused)
//   { type: 'probe', tokens }             the probe: token ids, or the language task's sentence
//   { type: 'ablate', layer, head, on }   zero that head's output (in training too; trainer.ablate)
//   { type: 'parameters' }               the trained parameters (for the JSON export)
// Messages out:
//   { type: 'model', options, … }    after a reset, before its first snapshot: the options in effect (the task's
//                                   defaults filled in) and what the lesson announces (synthetic-run.js: one sample
//                                   of the task and its default probe; language-run.js: the texts' sizes, baselines)
//   { type: 'snapshot', snapshot }  snapshot.js, or language-run.js's
//   { type: 'parameters', parameters, options, step }
//   { type: 'error', message }      a bad option or a diverged step: training stops, nothing else changes
import { LANGUAGE_TASK, languageRun } from './language-run.js';
import { syntheticRun } from './synthetic-run.js';

const SNAPSHOT_MS = 70; // one snapshot per this much time while running: ~14 redraws a second (at least 10)

/**
 * How a loop shares its thread. tickMs: one tick (steps, then a wait) per this much time; busyMs: a tick's
 * steps stop after this much time, so messages (pause) are read within a tick. A worker has its thread to
 * itself; on the page's thread a tick leaves most of each frame to typing and drawing.
 */
export const WORKER_PACE = { tickMs: SNAPSHOT_MS, busyMs: SNAPSHOT_MS };
export const MAIN_THREAD_PACE = { tickMs: 16, busyMs: 6 };

/**
 * A training loop.
 * @param {(message: object, transfer?: Transferable[]) => void} postMessage  where its messages out go
 * @param {{ tickMs: number, busyMs: number }} pace  WORKER_PACE or MAIN_THREAD_PACE
 * @param {(kernels: string, wasmUrl: string, embeddingsUrl?: string) => Promise<{ createTrainer: Function,
 *   createLanguageTrainer?: Function }>} core  the core the trainer runs on, given the page's build (a reset's kernels
 *   and wasmUrl; embeddingsUrl when the lesson reads word vectors): a worker starts its own, the page's thread uses
 *   the page's core
 * @returns {(message: object) => void} takes the messages in; they run one at a time, in order (a reset's
 *   loading finishes before the run that follows it); a failure is posted as { type: 'error' }, never thrown
 */
export function trainingLoop(postMessage, { tickMs, busyMs }, core) {
  let lesson = null; // synthetic-run.js or language-run.js
  let trained = null; // what the lesson trains ({ trainer, … }: the lesson's create())
  let probe = null; // what the lesson's snapshots show the model on
  let running = false;
  let stepsPerSecond = 0;
  let timer = null;
  let rate = { steps: 0, ms: 0 }; // measured speed: steps and wall-clock ms over the last ticks
  let lastTick = null; // { begin, done } of the tick before, while running: its steps over the time to this one
  let trainLoss = NaN; // mean training loss of the steps since the last snapshot
  let ablated = []; // "layer,head" of the heads switched off
  let started = 0; // performance.now() at the first step of this run of `running`
  let elapsed = 0; // ms of training so far (paused time excluded)
  let shown = 0; // performance.now() at the last snapshot posted while running

  /** What the page draws: everything measured now. */
  function snapshot() {
    return lesson.snapshot(trained, probe, {
      trainLoss,
      ablated,
      running,
      stepsPerSecond: rate.ms > 0 ? (1000 * rate.steps) / rate.ms : 0,
      elapsedMs: elapsed + (running ? performance.now() - started : 0),
    });
  }

  function post(message) {
    if (message.type === 'snapshot') postMessage(message, lesson.transfer(message.snapshot));
    else postMessage(message);
  }

  function fail(error) {
    stop();
    post({ type: 'error', message: error?.message ?? String(error) });
  }

  function stop() {
    if (running) elapsed += performance.now() - started;
    running = false;
    lastTick = null;
    clearTimeout(timer);
    timer = null;
  }

  /** One tick: the steps the pace allows (or as many as fit in busyMs), then a snapshot when SNAPSHOT_MS have passed. */
  function tick() {
    const begin = performance.now();
    const wanted = stepsPerSecond > 0 ? Math.max(1, Math.round((stepsPerSecond * tickMs) / 1000)) : Infinity;
    let done = 0,
      lossSum = 0;
    try {
      while (done < wanted && performance.now() - begin < busyMs) {
        const n = Math.min(lesson.chunk, wanted - done);
        lossSum += trained.trainer.step(n).loss * n;
        done += n;
      }
    } catch (error) {
      fail(error);
      return;
    }
    trainLoss = done > 0 ? lossSum / done : trainLoss;
    const spent = performance.now() - begin;
    const wait = Math.max(0, tickMs - spent);
    // Speed over the last second or so: the steps of each tick over the wall-clock time from its start to the next
    // tick's, as the timer really fired (a browser clamps and delays timers: the wait asked for is not the wait had).
    if (lastTick) {
      const decay = 0.5 ** (tickMs / SNAPSHOT_MS);
      rate = { steps: rate.steps * decay + lastTick.done, ms: rate.ms * decay + (begin - lastTick.begin) };
    }
    lastTick = { begin, done };
    if (begin + spent - shown >= SNAPSHOT_MS - 1) {
      shown = begin + spent;
      post({ type: 'snapshot', snapshot: snapshot() });
    }
    timer = running ? setTimeout(tick, wait) : null;
  }

  const HANDLERS = {
    async reset({ options, kernels, wasmUrl, embeddingsUrl }) {
      stop();
      const next = options?.task === LANGUAGE_TASK ? languageRun : syntheticRun;
      const api = await core(kernels, wasmUrl, next === languageRun ? embeddingsUrl : undefined);
      let made;
      try {
        made = await next.create(api, options);
      } catch (error) {
        throw new Error(`Training settings: ${error.message}`, { cause: error }); // the last model stays
      }
      [lesson, trained] = [next, made];
      probe = lesson.defaultProbe(trained);
      post({ type: 'model', ...lesson.announce(trained, probe) });
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
        trainLoss = trained.trainer.step(n).loss;
      } catch (error) {
        fail(error);
        return;
      }
      post({ type: 'snapshot', snapshot: snapshot() });
    },
    probe({ tokens }) {
      try {
        probe = lesson.probe(trained, tokens); // checked: a RangeError names what is wrong
      } catch (error) {
        post({ type: 'error', message: `probe: ${error.message}` }); // training goes on, on the last good probe
        return;
      }
      if (!running) post({ type: 'snapshot', snapshot: snapshot() });
    },
    ablate({ layer, head, on }) {
      if (!trained.trainer.ablate) throw new Error("ablate: this task's model has no ablation switches");
      trained.trainer.ablate({ layer, head }, on);
      const key = `${layer},${head}`;
      ablated = on ? [...new Set([...ablated, key])] : ablated.filter((k) => k !== key);
      if (!running) post({ type: 'snapshot', snapshot: snapshot() });
    },
    parameters() {
      const { trainer } = trained;
      post({
        type: 'parameters',
        parameters: trainer.parameters(),
        options: trainer.options,
        step: trainer.evaluate().step,
      });
    },
  };

  let queue = Promise.resolve();
  return (data) => {
    queue = queue
      .then(async () => {
        const handler = HANDLERS[data?.type];
        if (!handler) throw new Error(`unknown message ${JSON.stringify(data?.type)}`);
        if (!trained && data.type !== 'reset') throw new Error(`${data.type}: no model yet (reset first)`);
        await handler(data);
      })
      .catch(fail);
  };
}
