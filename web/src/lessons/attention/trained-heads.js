// A trained model's heads as small multiples, layers × heads, each labelled with what it was measured to
// do on held-out text (core.languageModel config.heads: cpp/include/attn/train/head_statistics.hpp), and the
// words a learned head and a designed head share a job with.
import { weightColorMap } from '../../views/colors.js';
import { cellCanvas } from '../../views/cell-canvas.js';

const GRID_PX = 56; // each small multiple's side
/** A head no measurement is given for (a model trained in the page on too little held-out text). */
const NOT_MEASURED = { text: 'not measured', label: 'not measured', score: NaN };

/** Each measured label, the score it was measured by (config.heads fields), and how the page names it. */
const MEASURES = {
  previous: ['previous', 'previous word'],
  next: ['next', 'next word'],
  self: ['self', 'itself'],
  first: ['first', 'first token'],
  'same word': ['sameWord', 'same word'],
  prefix: ['prefix', 'prefix matching'],
};

/**
 * What a head was measured to do, in a few words: "previous word 0.45", or for a head with no single job (no
 * score ≥ 0.4), "mixed (previous word 0.15)" with its largest score.
 * @param {{ label: string, previous: number, next: number, self: number, first: number, sameWord: number, prefix: number }} head
 *   one of config.heads
 * @returns {{ text: string, label: string, score: number }}  label: the measured label; score: its score, or the largest one when mixed
 */
export function measuredJob(head) {
  if (head.label !== 'mixed') {
    const [field, name] = MEASURES[head.label];
    return { text: `${name} ${head[field].toFixed(2)}`, label: head.label, score: head[field] };
  }
  const [field, name] = Object.values(MEASURES).reduce((best, m) => (head[m[0]] > head[best[0]] ? m : best));
  return { text: `mixed (${name} ${head[field].toFixed(2)})`, label: 'mixed', score: head[field] };
}

/**
 * The layer and head of a selected head, layer-major as the grid counts them (layer · numHeads + head); a selection
 * past the last head (a hand-edited link) is the last head.
 * @param {{ numLayers: number, numHeads: number }} config  @param {number} selected
 * @returns {{ layer: number, head: number }}
 */
export function trainedHeadAt({ numLayers, numHeads }, selected) {
  const index = Math.max(0, Math.min(numLayers * numHeads - 1, Math.round(selected)));
  return { layer: Math.floor(index / numHeads), head: index % numHeads };
}

/** "L1 H2": layer and head, from 1. */
export function trainedHeadName(layer, head) {
  return `L${layer + 1} H${head + 1}`;
}

/** What each grid was drawn for (the model's config and the rest of its key), to redraw only its canvases. */
const drawnFor = new WeakMap();

/**
 * @param {{ config: object, run: object }} trained  trained-data.js trainedData(): the model's config and its run on the sentence
 * @param {{ selected: number, colorMap?: string, canvas?: (key: string) => HTMLCanvasElement, name?: string,
 *   caption?: string, last?: HTMLElement }} options  selected: the selected head, layer-major (layer · numHeads + head),
 *   or −1 where heads are not chosen here (then each is a plain item); name: the figure's data-figure; caption: instead
 *   of the default; last: the figure drawn before: for the same model, head and caption only its canvases are redrawn
 * @returns {HTMLElement} a <figure data-figure="trained-heads">: one button per head (data-layer, data-head, data-label,
 *   data-score), each dispatching CustomEvent("choose", { detail: { trainedHead }, bubbles })
 */
export function trainedHeadGrid(
  { config, run },
  { selected, colorMap = 'viridis', canvas, name = 'trained-heads', caption, last },
) {
  const T = run.tokens.length;
  const color = weightColorMap(colorMap);
  const cell = Math.max(1, GRID_PX / Math.max(T, 1));
  const thumbnail = (weights, index, into) =>
    cellCanvas({
      rows: T,
      cols: T,
      values: weights,
      color,
      domain: [0, 1],
      cellWidth: cell,
      cellHeight: cell,
      isMasked: config.objective === 'causal' ? (i, j) => j > i : undefined,
      canvas: canvas?.(`head-${index}`) ?? into,
    });
  const text =
    caption ??
    `The ${config.numLayers * config.numHeads} learned heads (${config.numLayers} layers × ${config.numHeads}, d_k = ${config.dK}) on your sentence, ` +
      'each named by what it did on held-out text (the mean weight it puts there).';
  // A keystroke changes the weights alone: the same model, head and caption redraw only the canvases.
  const key = [name, config.numLayers, config.numHeads, selected, text].join('\n');
  if (last && drawnFor.get(last)?.config === config && drawnFor.get(last).key === key) {
    const canvases = last.querySelectorAll('canvas');
    run.attention.forEach((heads, l) =>
      heads.forEach((weights, h) => thumbnail(weights, l * config.numHeads + h, canvases[l * config.numHeads + h])),
    );
    return last;
  }
  const figure = document.createElement('figure');
  figure.dataset.figure = name;
  drawnFor.set(figure, { config, key });
  figure.appendChild(document.createElement('figcaption')).textContent = text;
  const list = figure.appendChild(document.createElement('ol'));
  list.className = 'head-grid trained-grid';
  list.style.setProperty('--heads', String(config.numHeads));
  run.attention.forEach((heads, l) =>
    heads.forEach((weights, h) => {
      const index = l * config.numHeads + h;
      const job = config.heads[index] ? measuredJob(config.heads[index]) : NOT_MEASURED;
      const item = list.appendChild(document.createElement('li'));
      const button = selected < 0 ? item : item.appendChild(document.createElement('button'));
      button.className = index === selected ? 'head-thumb selected' : 'head-thumb';
      if (selected >= 0) {
        button.type = 'button';
        button.setAttribute('aria-pressed', String(index === selected));
        button.addEventListener('click', () =>
          button.dispatchEvent(new CustomEvent('choose', { detail: { trainedHead: index }, bubbles: true })),
        );
      }
      Object.assign(button.dataset, { layer: String(l), head: String(h), label: job.label, score: String(job.score) });
      button.append(thumbnail(weights, index));
      const label = button.appendChild(document.createElement('span'));
      label.className = 'head-label';
      label.append(
        Object.assign(document.createElement('strong'), { textContent: trainedHeadName(l, h) }),
        Object.assign(document.createElement('span'), { className: 'head-line', textContent: job.text }),
      );
    }),
  );
  return figure;
}
