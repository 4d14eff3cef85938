// The loss and accuracy curves of a training run, with the moment each kind of head formed marked on
// both (head-formations.js: a previous-token head, then an induction head reading it).
// Pure: new DOM from the run's history.
import { lineChart } from '../../views/line-chart.js';
import { headFormations } from './head-formations.js';

const LOSS_COLOR = '#1f77b4';
const TRAIN_COLOR = '#9ecae1';
const ACCURACY_COLOR = '#2ca02c';

/**
 * The <div> a run's curves go in, opening with `hint` (what to press) while there is too little to draw.
 * @param {string} className  @param {string | false} hint
 */
export function curvesBox(className, hint) {
  const wrapper = document.createElement('div');
  wrapper.className = className;
  if (hint) {
    const p = wrapper.appendChild(document.createElement('p'));
    p.className = 'hint curves-hint';
    p.textContent = hint;
  }
  return wrapper;
}

/**
 * @param {object[]} history  snapshots (train-worker.js), in step order
 * @param {{ log: boolean, width?: number }} options  log: the loss on a logarithmic axis
 * @returns {HTMLElement} a <div> holding the two figures: data-figure "learn-loss" and "learn-accuracy"
 */
export function trainingCurves(history, { log, width = 420 }) {
  const steps = history.map((s) => s.step);
  const markers = headFormations(history);
  const wrapper = curvesBox(
    'side-by-side training-curves',
    history.length < 2 && 'Press Train: the loss and accuracy curves draw here as the model learns.',
  );
  wrapper.append(
    lineChart({
      name: 'learn-loss',
      caption: 'Loss (cross-entropy, nats) on 256 held-out sequences, and on the training batches',
      series: [
        { label: 'held-out loss', values: history.map((s) => s.loss), color: LOSS_COLOR },
        {
          label: 'training loss',
          values: history.map((s) => (Number.isFinite(s.trainLoss) ? s.trainLoss : s.loss)),
          color: TRAIN_COLOR,
        },
      ],
      x: steps,
      markers,
      pointName: 'step',
      xTitle: 'training step',
      yTitle: log ? 'loss (log scale)' : 'loss',
      log,
      width,
      height: 170,
    }),
    lineChart({
      name: 'learn-accuracy',
      caption: 'Accuracy: the share of held-out predictions the task scores that are right',
      series: [{ label: 'accuracy', values: history.map((s) => s.accuracy), color: ACCURACY_COLOR }],
      x: steps,
      markers,
      pointName: 'step',
      xTitle: 'training step',
      yTitle: 'accuracy',
      yDomain: [0, 1],
      width,
      height: 170,
    }),
  );
  return wrapper;
}
