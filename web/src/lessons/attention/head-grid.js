// All heads side by side as small multiples; clicking one selects it (event "choose": { head: { layer: 0, head } }).
import { weightColorMap } from '../../views/colors.js';
import { headKindLabel } from '../../models/designed.js';
import { headDimsLine } from './head-dims.js';
import { cellCanvas } from '../../views/heatmap.js';

const GRID_PX = 64; // each small multiple's side

/** What a head of this kind does, in a line (the large heatmap says it at length). */
function headKindLine(head, projection) {
  switch (head.kind) {
    case 'semantic':
      return 'looks at the words closest in meaning';
    case 'offset':
      return head.offset < 0
        ? `looks ${-head.offset} word${head.offset === -1 ? '' : 's'} back`
        : `looks ${head.offset} word${head.offset === 1 ? '' : 's'} ahead`;
    case 'first':
      return 'rests on the first token';
    case 'uniform':
      return 'averages every word evenly';
    default:
      return projection === 'identity'
        ? 'identity W_Q, W_K: each word matches itself most, hence the diagonal'
        : 'random W_Q, W_K, like an untrained model';
  }
}

/**
 * @param {object} trace  core.explain() result
 * @param {{ head: number, colorMap?: 'viridis' | 'cividis', canvas?: (key: string) => HTMLCanvasElement }} options  the
 *   selected head, outlined; the weights' colour map (default 'viridis'); where to get each head's canvas
 *   (the same one at every redraw), else new ones
 * @returns {HTMLElement} a list of buttons; each dispatches CustomEvent("choose", { detail: { head: { layer: 0, head: h } },
 *   bubbles }): the designed heads are one layer
 */
export function headGrid(trace, { head: selected, colorMap = 'viridis', canvas }) {
  const seqLen = trace.tokens.length;
  const color = weightColorMap(colorMap);
  const cell = Math.max(1, GRID_PX / Math.max(seqLen, 1));
  const list = document.createElement('ol');
  list.className = 'head-grid';
  list.dataset.figure = 'head-grid';
  trace.heads.forEach((head, h) => {
    const item = list.appendChild(document.createElement('li'));
    const button = item.appendChild(document.createElement('button'));
    button.type = 'button';
    button.className = h === selected ? 'head-thumb selected' : 'head-thumb';
    button.setAttribute('aria-pressed', String(h === selected));
    button.dataset.head = String(h);
    button.append(
      cellCanvas({
        rows: seqLen,
        cols: seqLen,
        values: head.weights.data,
        color,
        domain: [0, 1],
        cellWidth: cell,
        cellHeight: cell,
        isMasked: (i, j) => head.scores.data[i * seqLen + j] === -Infinity,
        canvas: canvas?.(`head-${h}`),
      }),
    );
    const label = button.appendChild(document.createElement('span'));
    label.className = 'head-label';
    label.append(
      Object.assign(document.createElement('strong'), { textContent: `${h + 1} · ${headKindLabel(head)}` }),
      Object.assign(document.createElement('span'), {
        className: 'head-line',
        textContent: headKindLine(head, trace.options.projection),
      }),
      Object.assign(document.createElement('span'), { className: 'head-dims', textContent: headDimsLine(head) }),
    );
    button.addEventListener('click', () =>
      button.dispatchEvent(new CustomEvent('choose', { detail: { head: { layer: 0, head: h } }, bubbles: true })),
    );
  });
  return list;
}
