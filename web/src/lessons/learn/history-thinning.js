// Which snapshots a training run's history keeps once it is long. The language task's loss chart plots one point
// per held-out evaluation (language-figures.js languageCurves): dropping every other snapshot, evaluations
// included, took points off the chart as training went on (by step ~2,150 the held-out line ran straight from
// step 0 to ~400, and the unigram crossing read off it moved from step 176 to ~390). So the snapshots in between
// go first, evaluations stay, and where even they are too many, the ones at a crossing of a baseline stay.
// Likewise the curves' markers (head-formations.js) are read off the history: the snapshot where a head first formed
// stays, or the marker moved to the next snapshot kept once its own was dropped (414 → 421 within one run).
import { headFormations } from './head-formations.js';

/** Whether a snapshot carries a held-out evaluation made at its own step (a point of the language task's chart). */
export function isEvaluation(snapshot) {
  return snapshot.evaluation !== undefined && snapshot.evaluation.step === snapshot.step;
}

/** The training loss the chart draws at an evaluation (the held-out loss where no batch has been trained yet). */
function trainingLoss(snapshot) {
  return Number.isFinite(snapshot.trainLoss) ? snapshot.trainLoss : snapshot.evaluation.loss;
}

/**
 * Whether the held-out or the training line crosses (or touches) a baseline's level, ln(perplexity) of the unigram and
 * bigram models, between two evaluations.
 * @param {object} a  @param {object} b  evaluations (isEvaluation), a before b, with baselines { unigramPerplexity,
 *   bigramPerplexity }
 * @returns {boolean}
 */
export function crossesBaseline(a, b) {
  if (!a.baselines || !b.baselines) return false;
  const levels = [Math.log(b.baselines.unigramPerplexity), Math.log(b.baselines.bigramPerplexity)];
  const lines = [(s) => s.evaluation.loss, trainingLoss];
  return levels.some((level) => lines.some((at) => (at(a) - level) * (at(b) - level) <= 0));
}

/**
 * The steps where the curves mark a head as formed (head-formations.js), for the attention-only tasks' snapshots, which
 * carry the head scores; none for the language task's.
 * @param {object[]} history  snapshots in step order
 * @returns {Set<number>}
 */
export function formationSteps(history) {
  if (!history.every((snapshot) => snapshot.previousToken && snapshot.prefixMatching)) return new Set();
  return new Set(headFormations(history).map((marker) => marker.x));
}

/** Keeps `keep`'s and every other one of the rest (the first of them kept), in order. */
function everyOtherBut(items, keep) {
  let rest = 0;
  return items.filter((item, i) => keep(item, i) || rest++ % 2 === 0);
}

/**
 * A history thinned so that what the charts read stays. Past `max` snapshots, every other snapshot that is neither the
 * first, the last, an evaluation (isEvaluation) nor where a head formed (formationSteps) is dropped, as often as needed; evaluations that are not the last
 * keep only what the loss chart reads (slim: ~100 bytes each), so every one stays on the chart until there are more than
 * `maxEvaluations` (hours of training: one is made every ~2.5 s). Then every other evaluation goes too, except the two
 * either side of each crossing of a baseline (crossesBaseline), so the crossings read off the chart stay where they were.
 * @param {object[]} history  snapshots in step order  @param {number} max  snapshots kept besides evaluations (≥ 2)
 * @param {number} [maxEvaluations]  evaluations kept (default `max`)
 * @returns {object[]}  `history` itself when it fits, else a new, shorter array (its items shared, or slimmed copies)
 */
export function thinHistory(history, max, maxEvaluations = max) {
  if (history.length <= max) return history;
  const last = history.length - 1;
  let kept = history.map((snapshot, i) => (i < last && isEvaluation(snapshot) ? slim(snapshot) : snapshot));
  const ends = (i, list) => i === 0 || i === list.length - 1;
  const formed = formationSteps(history);
  while (kept.length > max) {
    const thinner = everyOtherBut(kept, (s, i) => ends(i, kept) || isEvaluation(s) || formed.has(s.step));
    if (thinner.length === kept.length) break; // only evaluations and the ends are left
    kept = thinner;
  }
  while (kept.filter(isEvaluation).length > maxEvaluations) {
    const crossing = new Set();
    for (let i = 1; i < kept.length; i++) {
      if (isEvaluation(kept[i - 1]) && isEvaluation(kept[i]) && crossesBaseline(kept[i - 1], kept[i]))
        crossing.add(i - 1).add(i);
    }
    const thinner = everyOtherBut(kept, (_, i) => ends(i, kept) || crossing.has(i));
    if (thinner.length === kept.length) break; // every one is an end or at a crossing
    kept = thinner;
  }
  return kept;
}

/** An evaluation with what the loss chart reads: its step, the training loss then, the evaluation, the baselines. */
function slim({ task, step, trainLoss, evaluation, baselines }) {
  return { task, step, trainLoss, evaluation, baselines };
}
