// All heads side by side as small multiples; clicking one selects it (event "choose": { head: { layer: 0, head } }).
import { weightColorMap } from '../../views/colors.js';
import { headKindLabel } from '../../models/designed.js';
import { headDimsLine } from './head-dims.js';
import { cellCanvas } from '../../views/cell-canvas.js';
import { setAttrs, setText } from '../../views/dom-update.js';

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
 * @param {{ head: number, colorMap?: 'viridis' | 'cividis', canvas?: (key: string) => HTMLCanvasElement, last?: HTMLElement }}
 *   options  the selected head, outlined; the weights' colour map (default 'viridis'); where to get each head's canvas
 *   (the same one at every redraw), else new ones; last: the list drawn before, updated in place (a keystroke rewrites
 *   the canvases and the labels that changed, and rebuilds no button)
 * @returns {HTMLElement} a list of buttons; each dispatches CustomEvent("choose", { detail: { head: { layer: 0, head: h } },
 *   bubbles }): the designed heads are one layer
 */
export function headGrid(trace, { head: selected, colorMap = 'viridis', canvas, last }) {
  const seqLen = trace.tokens.length;
  const color = weightColorMap(colorMap);
  const cell = Math.max(1, GRID_PX / Math.max(seqLen, 1));
  const list = last?.dataset.figure === 'head-grid' ? last : document.createElement('ol');
  list.className = 'head-grid';
  list.dataset.figure = 'head-grid';
  while (list.children.length > trace.heads.length) list.lastChild.remove();
  trace.heads.forEach((head, h) => {
    const button = list.children[h]?.firstChild ?? headButton(list, h);
    setAttrs(button, { class: h === selected ? 'head-thumb selected' : 'head-thumb', 'aria-pressed': h === selected });
    const drawn = cellCanvas({
      rows: seqLen,
      cols: seqLen,
      values: head.weights.data,
      color,
      domain: [0, 1],
      cellWidth: cell,
      cellHeight: cell,
      isMasked: (i, j) => head.scores.data[i * seqLen + j] === -Infinity,
      canvas: canvas?.(`head-${h}`) ?? (button.firstChild instanceof HTMLCanvasElement ? button.firstChild : undefined),
    });
    if (button.firstChild !== drawn) button.prepend(drawn);
    const [name, line, dims] = button.lastChild.children;
    setText(name, `${h + 1} · ${headKindLabel(head)}`);
    setText(line, headKindLine(head, trace.options.projection));
    setText(dims, headDimsLine(head));
  });
  return list;
}

/** Head h's button in the list (its canvas comes with the first draw), choosing the head when clicked. */
function headButton(list, h) {
  const item = list.appendChild(document.createElement('li'));
  const button = item.appendChild(document.createElement('button'));
  button.type = 'button';
  button.dataset.head = String(h);
  const label = button.appendChild(document.createElement('span'));
  label.className = 'head-label';
  label.append(
    document.createElement('strong'),
    Object.assign(document.createElement('span'), { className: 'head-line' }),
    Object.assign(document.createElement('span'), { className: 'head-dims' }),
  );
  button.addEventListener('click', () =>
    button.dispatchEvent(new CustomEvent('choose', { detail: { head: { layer: 0, head: h } }, bubbles: true })),
  );
  return button;
}
