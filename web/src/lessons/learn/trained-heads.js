// Every head of the model in training, layers × heads: its attention weights on the probe (query rows,
// key columns; the causal mask hides the future), its previous-token and prefix-matching scores as
// bars, and — on the probe's repeats — outlines on the cells an induction head attends to, the token
// after the earlier occurrence (Olsson et al. 2022, §2). Clicking a head switches it off (ablation).
// Pure: new DOM from a snapshot (train-worker.js).
import { weightColorMap } from '../../views/colors.js';
import { cellCanvas } from '../../views/cell-canvas.js';
import { headName } from '../../models/run.js';
import { earlierOccurrence, tokenName } from './probe.js';
import { HEAD_SCORES } from './tasks.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const HEAD_PX = 150; // side of each head's weights
const LABEL_PX = 12; // room for the probe's tokens above and left of the cells

/** The cells (query i, key j) an induction head attends to on `tokens`: j just after the latest earlier occurrence of tokens[i]. */
export function inductionCells(tokens) {
  const cells = [];
  for (let i = 1; i < tokens.length; i++) {
    const p = earlierOccurrence(tokens, i);
    if (p >= 0) cells.push([i, p + 1]);
  }
  return cells;
}

function svgElement(parent, tag, attributes, text) {
  const el = parent.appendChild(document.createElementNS(SVG_NS, tag));
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A head's score bars: one per HEAD_SCORES entry, its threshold ticked. */
function scoreBars(snapshot, index) {
  const list = document.createElement('dl');
  list.className = 'score-bars';
  for (const score of HEAD_SCORES) {
    const value = snapshot[score.key].data[index];
    list.appendChild(document.createElement('dt')).textContent = score.short;
    const bar = list.appendChild(document.createElement('dd'));
    bar.title = `${score.label} score: ${value.toFixed(2)} (a head counts as a ${score.head} from ${score.threshold})`;
    const fill = bar.appendChild(document.createElement('span'));
    fill.className = value >= score.threshold ? 'fill formed' : 'fill';
    fill.style.width = `${Math.max(0, Math.min(1, value)) * 100}%`;
    const tick = bar.appendChild(document.createElement('span'));
    tick.className = 'tick';
    tick.style.left = `${score.threshold * 100}%`;
    bar.appendChild(document.createElement('span')).className = 'value';
    bar.lastChild.textContent = value.toFixed(2);
  }
  return list;
}

/**
 * @param {object} snapshot  from the training worker (or the history, when scrubbing)
 * @param {{ task: string, vocabSize: number, colorMap?: string, canvas?: (key: string) => HTMLCanvasElement, caption?: string }} options
 *   task and vocabSize name the tokens; canvas: the figure's canvas for a key (kept from draw to draw)
 * @returns {HTMLElement} <figure data-figure="learn-heads">; each head a .learn-head element with data-layer, data-head,
 *   data-previous-token, data-prefix-matching (its scores), data-ablated, and on layers ≥ 1 of a probe with repeats
 *   data-outlined-weight (the mean weight of the outlined cells' rows on those cells) and data-outlined-peaks (the share of
 *   those rows whose largest weight is the outlined cell). The lesson switches a head off when it is pressed: the figure
 *   is redrawn with every snapshot, about 14 times a second, so it holds no controls of its own.
 */
export function trainedHeads(snapshot, { task, vocabSize, colorMap = 'viridis', canvas, caption }) {
  const [numLayers, numHeads, T] = snapshot.weights.shape;
  const names = { task, vocabSize };
  const color = weightColorMap(colorMap);
  const cell = HEAD_PX / T;
  const outlined = inductionCells(snapshot.probe);
  const figure = document.createElement('figure');
  figure.className = 'trained-heads';
  figure.dataset.figure = 'learn-heads';
  figure.appendChild(document.createElement('figcaption')).textContent =
    caption ??
    `Every head's attention on the probe, step ${snapshot.step}: rows are queries, columns keys (the causal mask hides later tokens).`;
  // How to use it on screen, not part of the figure: outside the caption, so downloads leave it out.
  const hint = figure.appendChild(document.createElement('p'));
  hint.className = 'hint';
  hint.textContent = 'Press a head to switch it off.';
  const grid = figure.appendChild(document.createElement('div'));
  grid.className = 'learn-grid';
  grid.style.gridTemplateColumns = `auto repeat(${numHeads}, auto)`;
  for (let l = 0; l < numLayers; l++) {
    const layerLabel = grid.appendChild(document.createElement('span'));
    layerLabel.className = 'layer-label';
    layerLabel.dataset.exportText = ''; // drawn as text in the figure's downloads (figure-export.js)
    layerLabel.textContent = `layer ${l + 1}`;
    for (let h = 0; h < numHeads; h++) {
      const index = l * numHeads + h;
      const off = snapshot.ablated.includes(`${l},${h}`);
      const item = grid.appendChild(document.createElement('div'));
      item.className = off ? 'learn-head ablated' : 'learn-head';
      Object.assign(item.dataset, {
        layer: String(l),
        head: String(h),
        previousToken: snapshot.previousToken.data[index].toFixed(4),
        prefixMatching: snapshot.prefixMatching.data[index].toFixed(4),
        ablated: String(off),
      });
      item.title = `${headName({ layer: l, head: h })}: press to switch it ${off ? 'on' : 'off'}`;
      const name = item.appendChild(document.createElement('strong'));
      name.dataset.exportText = '';
      name.textContent = `${headName({ layer: l, head: h })}${off ? ' · off' : ''}`;
      const plot = item.appendChild(document.createElement('span'));
      plot.className = 'learn-head-plot';
      plot.style.width = plot.style.height = `${HEAD_PX + LABEL_PX}px`;
      const offset = T * T * index;
      const weights = snapshot.weights.data.subarray(offset, offset + T * T);
      const cells = plot.appendChild(
        cellCanvas({
          rows: T,
          cols: T,
          values: weights,
          color,
          domain: [0, 1],
          cellWidth: cell,
          cellHeight: cell,
          isMasked: (i, j) => j > i,
          canvas: canvas?.(`head-${l}-${h}`),
        }),
      );
      Object.assign(cells.style, { left: `${LABEL_PX}px`, top: `${LABEL_PX}px` });
      const svg = svgElement(plot, 'svg', {
        width: HEAD_PX + LABEL_PX,
        height: HEAD_PX + LABEL_PX,
        'aria-hidden': 'true',
      });
      const font = Math.min(10, cell * 0.9);
      Array.from(snapshot.probe, (id, i) => {
        const name = tokenName(id, names);
        svgElement(
          svg,
          'text',
          { x: LABEL_PX + (i + 0.5) * cell, y: LABEL_PX - 2, 'text-anchor': 'middle', 'font-size': font },
          name,
        );
        svgElement(
          svg,
          'text',
          {
            x: LABEL_PX - 2,
            y: LABEL_PX + (i + 0.5) * cell,
            'text-anchor': 'end',
            'dominant-baseline': 'central',
            'font-size': font,
          },
          name,
        );
      });
      // Where an induction head looks: drawn on the layers after the first (a layer-0 head cannot
      // be one: it does not yet know which token preceded each key).
      if (l > 0 && outlined.length) {
        for (const [i, j] of outlined) {
          svgElement(svg, 'rect', {
            class: 'induction-cell',
            x: LABEL_PX + j * cell,
            y: LABEL_PX + i * cell,
            width: cell,
            height: cell,
          });
        }
        const rowMax = (i) => Math.max(...weights.subarray(i * T, i * T + i + 1));
        item.dataset.outlinedWeight = (
          outlined.reduce((sum, [i, j]) => sum + weights[i * T + j], 0) / outlined.length
        ).toFixed(4);
        item.dataset.outlinedPeaks = (
          outlined.filter(([i, j]) => weights[i * T + j] === rowMax(i)).length / outlined.length
        ).toFixed(4);
      }
      item.append(scoreBars(snapshot, index));
    }
  }
  if (outlined.length && numLayers > 1) {
    figure.appendChild(document.createElement('p')).className = 'hint';
    figure.lastChild.textContent =
      `Outlined in layer${numLayers > 2 ? 's 2 and up' : ' 2'}: for each repeated token, the token that came after its earlier ` +
      'occurrence — where an induction head attends. Bars: previous-token and prefix-matching scores on 64 repeated sequences; ' +
      'the tick is where a head counts as formed.';
  }
  return figure;
}
