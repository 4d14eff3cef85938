// npm run bench (training part), Node, one thread:
//  1. time to heads: each task with its defaults trains until its goal (induction: a prefix-matching head
//     ≥ 0.4 and ≥ 0.9 accuracy; previous-token ≥ 0.95 accuracy; reverse and sort ≥ 0.95), evaluated every
//     25 steps, for seeds 0–4: steps and seconds of training (step() calls only) and of wall time
//     (with the evaluations), medians over the seeds;
//  2. training speed: steps per second of our trainer beside TF.js (tfjs-core + wasm backend) training
//     the identical model (scripts/bench/tfjs-trainer.js) from the same parameters on batches of the same
//     task, interleaved in rounds in this process; medians of per-step times.
// Writes bench-output/bench-train.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { createAttentionCore } from 'attention-explorer/core';
import { useTfjsWasmForTraining } from './tfjs-gradients.js';
import { tfjsModel } from './tfjs-trainer.js';

await useTfjsWasmForTraining(tf);
const core = await createAttentionCore({ kernels: 'simd128' });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const maxOf = (tensor) => Math.max(...tensor.data);
const GOALS = {
  'previous-token': { seconds: 2, done: (e) => e.accuracy >= 0.95, text: 'accuracy ≥ 0.95' },
  induction: {
    seconds: 5,
    done: (e) => e.accuracy >= 0.9 && maxOf(e.headScores.prefixMatching) >= 0.4,
    text: 'prefix matching ≥ 0.4, accuracy ≥ 0.9',
  },
  reverse: { seconds: 30, done: (e) => e.accuracy >= 0.95, text: 'accuracy ≥ 0.95' },
  sort: { seconds: 30, done: (e) => e.accuracy >= 0.95, text: 'accuracy ≥ 0.95' },
};
const SEEDS = [0, 1, 2, 3, 4];
const CHUNK = 25;
const MAX_STEPS = 20000;

function timeToGoal(task, seed) {
  const trainer = core.createTrainer({ task, seed });
  const start = performance.now();
  let training = 0;
  for (let steps = 0; steps < MAX_STEPS; steps += CHUNK) {
    const t0 = performance.now();
    trainer.step(CHUNK);
    training += performance.now() - t0;
    const e = trainer.evaluate();
    if (GOALS[task].done(e)) {
      return {
        seed,
        steps: e.step,
        trainingSeconds: training / 1000,
        wallSeconds: (performance.now() - start) / 1000,
        accuracy: e.accuracy,
        prefixMatching: maxOf(e.headScores.prefixMatching),
        previousToken: maxOf(e.headScores.previousToken),
      };
    }
  }
  return { seed, steps: null, trainingSeconds: training / 1000, wallSeconds: (performance.now() - start) / 1000 };
}

console.log(`Node ${process.version}, ours = the ${core.kernels} build, one thread\n`);
console.log('time to heads (defaults; evaluated every 25 steps; medians over seeds 0–4)');
console.log(
  `${'task'.padEnd(16)}${'goal'.padEnd(40)}${'steps'.padStart(7)}${'training s'.padStart(12)}${'wall s'.padStart(9)}${'target s'.padStart(10)}  per seed (steps)`,
);
const timeToHeads = {};
for (const task of Object.keys(GOALS)) {
  const runs = SEEDS.map((seed) => timeToGoal(task, seed));
  const reached = runs.every((r) => r.steps !== null);
  const row = {
    goal: GOALS[task].text,
    targetSeconds: GOALS[task].seconds,
    runs,
    steps: median(runs.map((r) => r.steps ?? Infinity)),
    trainingSeconds: median(runs.map((r) => r.trainingSeconds)),
    wallSeconds: median(runs.map((r) => r.wallSeconds)),
    slowestWallSeconds: Math.max(...runs.map((r) => r.wallSeconds)),
    reached,
  };
  timeToHeads[task] = row;
  console.log(
    `${task.padEnd(16)}${row.goal.padEnd(40)}${String(row.steps).padStart(7)}${row.trainingSeconds.toFixed(2).padStart(12)}${row.wallSeconds.toFixed(2).padStart(9)}${String(row.targetSeconds).padStart(10)}  ${runs.map((r) => r.steps ?? 'not reached').join(', ')}`,
  );
}

// Training speed beside TF.js
const SPEED_CASES = [
  { task: 'previous-token' },
  { task: 'induction' },
  { task: 'sort' },
  { task: 'induction', dModel: 64, numHeads: 4, seqLen: 32, vocabSize: 32, batchSize: 32 },
];
const ROUNDS = 30,
  PER_ROUND = 5;
console.log(
  `\ntraining steps per second (medians of ${ROUNDS} rounds × ${PER_ROUND} steps, interleaved), ours vs TF.js wasm`,
);
console.log(`${'model'.padEnd(48)}${'ours'.padStart(9)}${'TF.js'.padStart(9)}${'ratio'.padStart(8)}`);
const speed = [];
for (const options of SPEED_CASES) {
  const trainer = core.createTrainer({ ...options, seed: 1 });
  const o = trainer.options;
  const model = tfjsModel(tf, o, trainer.parameters());
  const batches = Array.from({ length: 8 }, () => trainer.sample(o.batchSize));
  for (let i = 0; i < 3; i++) {
    trainer.step(1);
    model.step(batches[i]);
  } // warm-up
  const ours = [],
    theirs = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    trainer.step(PER_ROUND);
    ours.push((performance.now() - t0) / PER_ROUND);
    t0 = performance.now();
    for (let i = 0; i < PER_ROUND; i++) model.step(batches[(round * PER_ROUND + i) % batches.length]);
    theirs.push((performance.now() - t0) / PER_ROUND);
  }
  model.dispose();
  const name = `${o.task} L${o.numLayers} H${o.numHeads} d${o.dModel} T${o.seqLen} V${o.vocabSize} B${o.batchSize}`;
  const row = { model: name, options: o, oursMs: median(ours), tfjsMs: median(theirs) };
  row.ratio = row.tfjsMs / row.oursMs;
  speed.push(row);
  console.log(
    `${name.padEnd(48)}${(1000 / row.oursMs).toFixed(0).padStart(9)}${(1000 / row.tfjsMs).toFixed(0).padStart(9)}${row.ratio.toFixed(2).padStart(7)}×`,
  );
}
mkdirSync('bench-output', { recursive: true });
writeFileSync(
  join('bench-output', 'bench-train.json'),
  JSON.stringify({ runtime: `node ${process.version}`, kernels: core.kernels, timeToHeads, speed }, null, 2),
);
