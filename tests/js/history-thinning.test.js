// The Learn history's thinning (web/src/lessons/learn/history-thinning.js): the language task's chart keeps every
// held-out evaluation, and the baselines' crossings stay where they were; the other tasks' histories stay bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crossesBaseline, isEvaluation, thinHistory } from '../../web/src/lessons/learn/history-thinning.js';
import { headFormations } from '../../web/src/lessons/learn/head-formations.js';

const BASELINES = { unigramPerplexity: Math.exp(5.04), bigramPerplexity: Math.exp(4.13) };

/** The held-out loss at a step: 16.9 at step 0, then falling, past the unigram line (5.04) at step 176. */
const heldOut = (step) => (step === 0 ? 16.9 : step < 176 ? 5.6 - step / 1000 : 5.0 - step / 100000);

/** A language run as the session receives it: a snapshot every step, an evaluation every `every` steps. */
function languageRun(steps, every, { max = 600, maxEvaluations = 5000 } = {}) {
  let history = [];
  let evaluation = null;
  for (let step = 0; step <= steps; step++) {
    if (step % every === 0) evaluation = { step, loss: heldOut(step), tokens: 4809 };
    const snapshot = { task: 'language', step, trainLoss: step ? heldOut(step) - 0.1 : NaN, evaluation };
    Object.assign(snapshot, { baselines: BASELINES, probe: { weights: new Float32Array(8) }, heads: [] });
    history.push(snapshot);
    history = thinHistory(history, max, maxEvaluations);
  }
  return history;
}

/** The first evaluated step whose held-out loss is below the unigram line, as the chart would show it. */
const unigramCrossing = (history) =>
  history.filter(isEvaluation).find((s) => s.evaluation.loss < Math.log(BASELINES.unigramPerplexity))?.step;

test('a language run of 2,400 steps keeps every held-out evaluation, so the unigram crossing stays at its step', () => {
  const history = languageRun(2400, 8);
  const evaluated = history.filter(isEvaluation).map((s) => s.step);
  assert.deepEqual(
    evaluated,
    Array.from({ length: 301 }, (_, i) => i * 8),
    'every evaluation',
  );
  assert.equal(unigramCrossing(history), 176);
  assert.ok(history.length <= 600 + 301, `${history.length} snapshots`);
  assert.equal(history.at(-1).step, 2400, 'the last snapshot');
  assert.ok(history.at(-1).probe, 'the last keeps its probe');
  const older = history.find((s) => s.step === 8);
  assert.equal(older.probe, undefined, 'older evaluations keep only what the chart reads');
  assert.ok(Number.isFinite(older.evaluation.loss) && older.baselines);
});

test('past maxEvaluations, evaluations thin too, but the two either side of a crossing stay', () => {
  const history = languageRun(2400, 4, { max: 100, maxEvaluations: 120 });
  const evaluations = history.filter(isEvaluation);
  assert.ok(evaluations.length <= 120, `${evaluations.length} evaluations`);
  const steps = evaluations.map((s) => s.step);
  assert.ok(steps.includes(172) && steps.includes(176), `the crossing's evaluations stay: ${steps.slice(0, 40)}`);
  assert.equal(unigramCrossing(history), 176);
  assert.equal(steps[0], 0);
  assert.equal(history.at(-1).step, 2400);
});

test('a synthetic task (no evaluations) is halved as before: at most max snapshots, the first and the last kept', () => {
  let history = [];
  for (let step = 0; step < 5000; step++) {
    history.push({ step, loss: 1 / (step + 1) });
    history = thinHistory(history, 600);
    assert.ok(history.length <= 600);
  }
  assert.equal(history[0].step, 0);
  assert.equal(history.at(-1).step, 4999);
  const short = [{ step: 0 }, { step: 1 }];
  assert.equal(thinHistory(short, 600), short, 'a history that fits is returned as it is');
});

test('crossesBaseline: either line crossing either level between two evaluations', () => {
  const at = (loss, trainLoss) => ({ step: 1, trainLoss, evaluation: { step: 1, loss }, baselines: BASELINES });
  assert.equal(crossesBaseline(at(6, 6), at(5.5, 5.5)), false);
  assert.equal(crossesBaseline(at(6, 6), at(5, 5.5)), true, 'held-out under the unigram line');
  assert.equal(crossesBaseline(at(4.5, 4.2), at(4.5, 4.0)), true, 'training under the bigram line');
});

test("a synthetic run's head markers keep their step as the history thins: the snapshot where a head formed stays", () => {
  // Two layers of one head: layer 1's previous-token score reaches 0.4 at step 413, layer 2's prefix matching at 421.
  const scores = (step, at) => ({ data: Float32Array.of(step >= at ? 0.5 : 0.1, 0.1), shape: [2, 1] });
  const prefix = (step) => ({ data: Float32Array.of(0.1, step >= 421 ? 0.6 : 0.1), shape: [2, 1] });
  let history = [];
  const seen = new Map(); // marker key → its step when first drawn
  for (let step = 0; step < 3000; step++) {
    history.push({ step, loss: 1 / (step + 1), previousToken: scores(step, 413), prefixMatching: prefix(step) });
    history = thinHistory(history, 60);
    for (const marker of headFormations(history)) {
      if (!seen.has(marker.key)) seen.set(marker.key, marker.x);
      assert.equal(marker.x, seen.get(marker.key), `step ${step}: the ${marker.key} marker stays where it was first`);
    }
  }
  assert.deepEqual(Object.fromEntries(seen), { previousToken: 413, prefixMatching: 421 });
  assert.ok(history.length <= 62, `${history.length} snapshots`);
});
