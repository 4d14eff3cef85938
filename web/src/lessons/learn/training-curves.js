// The loss and accuracy curves of a training run, with the moment each kind of head formed marked on
// both: the first snapshot at which some head's score reached its threshold (tasks.js HEAD_SCORES).
// Pure: new DOM from the run's history.
import { lineChart } from '../../views/line-chart.js';
import { HEAD_SCORES } from './tasks.js';

const LOSS_COLOR = '#1f77b4';
const TRAIN_COLOR = '#9ecae1';
const ACCURACY_COLOR = '#2ca02c';

/** "L1 H0": layer and head, from 0 as the trainer counts them. */
export function headName(layer, head) {
  return `L${layer} H${head}`;
}

/**
 * The first snapshot of `history` at which a head's score reached its threshold, per score of HEAD_SCORES.
 * @returns {{ x: number, label: string, key: string, layer: number, head: number }[]}
 */
export function headFormations(history) {
  const found = [];
  for (const score of HEAD_SCORES) {
    for (const snapshot of history) {
      const { data, shape: [, numHeads] } = snapshot[score.key];
      const at = data.findIndex((value) => value >= score.threshold);
      if (at < 0) continue;
      const layer = Math.floor(at / numHeads), head = at % numHeads;
      found.push({ x: snapshot.step, label: `${headName(layer, head)}: ${score.head}`, key: score.key, layer, head });
      break;
    }
  }
  return found;
}

/**
 * @param {object[]} history  snapshots (train-worker.js), in step order
 * @param {{ log: boolean, width?: number }} options  log: the loss on a logarithmic axis
 * @returns {HTMLElement} a <div> holding the two figures: data-figure "learn-loss" and "learn-accuracy"
 */
export function trainingCurves(history, { log, width = 420 }) {
  const steps = history.map((s) => s.step);
  const markers = headFormations(history);
  const wrapper = document.createElement('div');
  wrapper.className = 'side-by-side training-curves';
  if (history.length < 2) {
    const hint = wrapper.appendChild(document.createElement('p'));
    hint.className = 'hint curves-hint';
    hint.textContent = 'Press Train: the loss and accuracy curves draw here as the model learns.';
  }
  wrapper.append(
    lineChart({
      name: 'learn-loss',
      caption: 'Loss (cross-entropy, nats) on 256 held-out sequences, and on the training batches',
      series: [
        { label: 'held-out loss', values: history.map((s) => s.loss), color: LOSS_COLOR },
        { label: 'training loss', values: history.map((s) => (Number.isFinite(s.trainLoss) ? s.trainLoss : s.loss)), color: TRAIN_COLOR },
      ],
      x: steps, markers, pointName: 'step', xTitle: 'training step', yTitle: log ? 'loss (log scale)' : 'loss', log, width, height: 170,
    }),
    lineChart({
      name: 'learn-accuracy',
      caption: 'Accuracy: the share of held-out predictions the task scores that are right',
      series: [{ label: 'accuracy', values: history.map((s) => s.accuracy), color: ACCURACY_COLOR }],
      x: steps, markers, pointName: 'step', xTitle: 'training step', yTitle: 'accuracy', yDomain: [0, 1], width, height: 170,
    }));
  return wrapper;
}
