// Each head's attention on the probe over the run: one row per head, one small heatmap per moment
// (evenly spaced over the snapshots kept), and a slider to scrub to any moment — the head grid then
// shows that snapshot instead of the live one. Pure: new DOM from the run's history.
import { weightColorMap } from '../../views/colors.js';
import { cellCanvas } from '../../views/cell-canvas.js';
import { headName } from '../../models/run.js';

const MOMENTS = 10; // thumbnails per head
const THUMB_PX = 40;

/** Indices of `count` moments evenly spaced over a history of `length` snapshots (first and last included). */
export function momentIndices(length, count = MOMENTS) {
  if (length <= count) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: count }, (_, k) => Math.round((k * (length - 1)) / (count - 1)));
}

/**
 * @param {object[]} history  snapshots, in step order
 * @param {{ at: number | null, colorMap?: string, canvas?: (key: string) => HTMLCanvasElement }} options
 *   at: the scrubbed snapshot's index (outlined), null when following the live run
 * @returns {HTMLElement} <figure data-figure="learn-history">: a thumbnail per head and moment, each with
 *   data-index, its snapshot's index in history (the lesson scrubs there when one is pressed)
 */
export function historyStrip(history, { at, colorMap = 'viridis', canvas }) {
  const figure = document.createElement('figure');
  figure.className = 'history-strip';
  figure.dataset.figure = 'learn-history';
  figure.appendChild(document.createElement('figcaption')).textContent =
    "History: each head's attention on the probe as training went on, from step 0 (left) to now (right). " +
    'Press a moment, or scrub, to see the whole grid then.';
  if (history.length === 0) return figure;
  const last = history.length - 1;
  const shown = at ?? last;
  const [numLayers, numHeads, T] = history[last].weights.shape;
  const moments = momentIndices(history.length);
  const color = weightColorMap(colorMap);
  const rows = figure.appendChild(document.createElement('div'));
  rows.className = 'history-rows';
  for (let l = 0; l < numLayers; l++) {
    for (let h = 0; h < numHeads; h++) {
      const row = rows.appendChild(document.createElement('div'));
      row.className = 'history-row';
      row.appendChild(document.createElement('span')).textContent = headName({ layer: l, head: h });
      const offset = (l * numHeads + h) * T * T;
      moments.forEach((index, k) => {
        const snapshot = history[index];
        if (snapshot.weights.shape[2] !== T) return; // a probe of another length then: not comparable
        const thumb = row.appendChild(document.createElement('span'));
        thumb.className = index === shown ? 'history-thumb current' : 'history-thumb';
        thumb.dataset.index = String(index);
        thumb.title = `${headName({ layer: l, head: h })} at step ${snapshot.step}`;
        thumb.append(
          cellCanvas({
            rows: T,
            cols: T,
            values: snapshot.weights.data.subarray(offset, offset + T * T),
            color,
            domain: [0, 1],
            cellWidth: THUMB_PX / T,
            cellHeight: THUMB_PX / T,
            isMasked: (i, j) => j > i,
            canvas: canvas?.(`history-${l}-${h}-${k}`),
          }),
        );
      });
    }
  }
  const steps = figure.appendChild(document.createElement('p'));
  steps.className = 'hint';
  steps.textContent = `Moments at steps ${moments.map((i) => history[i].step).join(', ')}.`;
  return figure;
}
