// The Learn chapter's pure parts: token names and typed probes, the task rules the predictions are
// marked against (checked against the core's own task samples: an independent statement of each rule
// must give the core's targets), the induction cells the grid outlines, the head-formation markers,
// the history's moments, and the trainer options a state asks for.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import {
  defaultProbe,
  expectedNext,
  parseProbe,
  probeText,
  tokenName,
  vocabulary,
} from '../../web/src/lessons/learn/probe.js';
import { inductionCells } from '../../web/src/lessons/learn/trained-heads.js';
import { headFormations } from '../../web/src/lessons/learn/head-formations.js';
import { momentIndices } from '../../web/src/lessons/learn/history-strip.js';
import { trainerOptions } from '../../web/src/lessons/learn/learn-lesson.js';
import { learnChapter } from '../../web/src/lessons/learn/chapter.js';
import { taskDescription } from '../../web/src/lessons/learn/tasks.js';

let core;
before(async () => {
  core = await createAttentionCore({ kernels: 'simd128' });
});

test('tokens are letters, the separator "|"; a typed probe parses back, and bad ones are named', () => {
  const induction = { task: 'induction', vocabSize: 16, seqLen: 16 };
  const sort = { task: 'sort', vocabSize: 17, seqLen: 16 };
  assert.deepEqual(vocabulary(induction), [...'ABCDEFGHIJKLMNOP']);
  assert.equal(tokenName(16, sort), '|');
  assert.equal(tokenName(15, sort), 'P');
  assert.deepEqual(parseProbe('ab c|', sort), [0, 1, 2, 16]);
  assert.equal(probeText([0, 1, 2, 16], sort), 'ABC|');
  assert.throws(() => parseProbe('AB|', induction), {
    name: 'RangeError',
    message: /“\|” is not a token of this task: use A–P$/,
  });
  assert.throws(() => parseProbe('AZ', sort), /“Z” is not a token of this task: use A–P and \| \(the separator\)/);
  assert.throws(() => parseProbe('  ', induction), /the probe is empty/);
  assert.throws(() => parseProbe('A'.repeat(17), induction), /17 tokens; the model reads at most 16/);
  const wide = { task: 'induction', vocabSize: 40, seqLen: 8 };
  assert.deepEqual(parseProbe('3, 39 0', wide), [3, 39, 0]);
  assert.equal(probeText([3, 39], wide), '3 39');
});

test("expectedNext states each task's rule: on 64 of the core's own sequences per task it gives the core's targets wherever the core scores", () => {
  for (const task of core.trainerLimits.tasks) {
    const trainer = core.createTrainer({ task, seed: 5 });
    const {
      tokens,
      targets,
      scored,
      shape: [rows, T],
    } = trainer.sample(64);
    let checked = 0;
    for (let b = 0; b < rows; b++) {
      const row = tokens.subarray(b * T, (b + 1) * T);
      const expected = expectedNext(row, trainer.options);
      for (let t = 0; t < T; t++) {
        if (!scored[b * T + t]) continue;
        assert.equal(expected[t], targets[b * T + t], `${task}, sequence ${b}, position ${t}`);
        checked++;
      }
    }
    assert.ok(checked >= 64, `${task}: ${checked} scored positions checked`);
  }
});

test('the default probe: induction repeats ⌊T/2⌋ distinct tokens; the other tasks show one of their sequences', () => {
  const induction = core.createTrainer({ task: 'induction', seed: 2 });
  const probe = defaultProbe(induction);
  assert.equal(probe.length, 16);
  assert.deepEqual([...probe.slice(8)], [...probe.slice(0, 8)]);
  assert.equal(new Set(probe.slice(0, 8)).size, 8);
  assert.deepEqual(
    inductionCells(probe),
    Array.from({ length: 8 }, (_, k) => [8 + k, k + 1]),
    'each repeat looks one past its first occurrence',
  );
  const reverse = core.createTrainer({ task: 'reverse', seed: 2 });
  const sequence = defaultProbe(reverse);
  assert.equal(sequence.length, 16);
  assert.ok(sequence.includes(16), 'the separator');
  assert.deepEqual(
    inductionCells(Int32Array.from([1, 2, 1, 1])),
    [
      [2, 1],
      [3, 3],
    ],
    'after the latest earlier occurrence',
  );
});

test('the curves mark a previous-token head, then an induction head only once a head below it is a previous-token head', () => {
  const scores = (prev, prefix) => ({
    previousToken: { data: Float32Array.from(prev), shape: [2, 2] },
    prefixMatching: { data: Float32Array.from(prefix), shape: [2, 2] },
  });
  const history = [
    { step: 0, ...scores([0.1, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1]) },
    { step: 100, ...scores([0.1, 0.45, 0.1, 0.1], [0.1, 0.1, 0.2, 0.1]) },
    { step: 200, ...scores([0.1, 0.6, 0.1, 0.1], [0.1, 0.1, 0.39, 0.41]) },
  ];
  assert.deepEqual(
    headFormations(history).map(({ x, label }) => [x, label]),
    [
      [100, 'L1 H2 previous-token head: previous token score ≥ 0.4'],
      [200, 'L2 H2 induction head: prefix matching score ≥ 0.4, reading L1 H2'],
    ],
  );
  assert.deepEqual(headFormations(history.slice(0, 1)), []);
  // The default induction run (seed 0, every 10 steps; scores as the core gives them, rounded): the
  // layer-1 head matches prefixes (0.43 at step 340) before the layer-0 head it reads is a previous-token
  // head (0.32; 0.42 at step 420). The induction head is marked at 420, not before the head it needs.
  const run = [
    { step: 330, ...scores([0.25, 0.29, 0.09, 0.12], [0.09, 0.04, 0.38, 0.25]) },
    { step: 340, ...scores([0.26, 0.32, 0.11, 0.13], [0.09, 0.04, 0.43, 0.28]) },
    { step: 410, ...scores([0.36, 0.39, 0.11, 0.13], [0.04, 0.04, 0.59, 0.45]) },
    { step: 420, ...scores([0.37, 0.42, 0.12, 0.14], [0.04, 0.03, 0.66, 0.51]) },
  ];
  const marks = headFormations(run);
  assert.deepEqual(
    marks.map(({ x, key, layer, head }) => [x, key, layer, head]),
    [
      [420, 'previousToken', 0, 1],
      [420, 'prefixMatching', 1, 0],
    ],
  );
  assert.deepEqual(marks[1].after, [0, 1]);
  // A prefix-matching head in layer 0 has no layer below it: never an induction head.
  assert.deepEqual(
    headFormations([{ step: 5, ...scores([0.5, 0.1, 0.1, 0.1], [0.1, 0.9, 0.1, 0.1]) }]).map(({ key }) => key),
    ['previousToken'],
  );
});

test('the history shows ten moments from the first to the last', () => {
  assert.deepEqual(momentIndices(4), [0, 1, 2, 3]);
  assert.deepEqual(momentIndices(100), [0, 11, 22, 33, 44, 55, 66, 77, 88, 99]);
});

test('the state asks the trainer for the task, the seed and only the sizes it sets; every task the core has is described', () => {
  const state = learnChapter.state();
  assert.deepEqual(trainerOptions(state), { task: 'induction', seed: 0 });
  assert.deepEqual(trainerOptions({ ...state, trainTask: 'sort', trainLayers: 1, trainLearningRate: 0.03 }), {
    task: 'sort',
    seed: 0,
    numLayers: 1,
    learningRate: 0.03,
  });
  for (const task of core.trainerLimits.tasks) assert.ok(taskDescription(task).length > 20, task);
  assert.throws(() => taskDescription('copy'), /no description of the training task "copy"/);
});
