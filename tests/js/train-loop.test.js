// The Learn chapter's training loop (web/src/lessons/learn/train-loop.js) in Node: the speed its snapshots report is
// the steps it really ran per wall-clock second, also when the timer between ticks fires late (browsers clamp and
// delay timers; here each wait is made 20 ms longer than asked).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { WORKER_PACE, trainingLoop } from '../../web/src/lessons/learn/train-loop.js';

const LATE_MS = 20;
let core;
const realSetTimeout = globalThis.setTimeout;
before(async () => {
  core = await createAttentionCore();
  globalThis.setTimeout = (callback, ms = 0, ...rest) => realSetTimeout(callback, ms + LATE_MS, ...rest);
});
after(() => {
  globalThis.setTimeout = realSetTimeout;
});

test('the steps per second a running snapshot reports are the steps run per second of wall-clock time', async () => {
  const snapshots = [],
    errors = [];
  const receive = trainingLoop(
    (message) => {
      if (message.type === 'snapshot') snapshots.push({ at: performance.now(), ...message.snapshot });
      if (message.type === 'error') errors.push(message.message);
    },
    WORKER_PACE,
    async () => core,
  );
  receive({ type: 'reset', options: { task: 'reverse', seed: 1 } });
  await new Promise((resolve) => realSetTimeout(resolve, 500));
  const pace = 100;
  receive({ type: 'run', stepsPerSecond: pace });
  await new Promise((resolve) => realSetTimeout(resolve, 3000));
  receive({ type: 'pause' });
  await new Promise((resolve) => realSetTimeout(resolve, 200));
  assert.deepEqual(errors, []);
  const running = snapshots.filter((s) => s.running);
  assert.ok(running.length >= 10, `${running.length} snapshots while running`);
  // The second half of the run: steps done over the time they took, against what the last snapshot says.
  const from = running[Math.floor(running.length / 2)],
    to = running.at(-1);
  const measured = (1000 * (to.step - from.step)) / (to.at - from.at);
  const reported = to.stepsPerSecond;
  console.log(`# asked ${pace} steps/s, ran ${measured.toFixed(1)}, the snapshot says ${reported.toFixed(1)}`);
  assert.ok(measured < pace * 0.9, `the late timer slows the loop below the pace asked (${measured.toFixed(1)})`);
  assert.ok(
    Math.abs(reported - measured) / measured < 0.15,
    `reported ${reported.toFixed(1)} steps/s, ran ${measured.toFixed(1)}`,
  );
});
