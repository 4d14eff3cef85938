// The attention weights of the selected head, for every model: rows are queries, columns are keys, each row sums to 1
// (a row with no key left is empty, and a query left with only its own key attends to itself: row-status.js). Beside
// each row, its entropy in bits (0 = all weight on one key, log2 n = uniform); outlined, the weights the last edit
// moved; under the caption, what the head does (a designed head, by construction) or learned (a trained one).
import { format } from 'd3-format';
import { CHANGED_KEY, changedCells } from './changes.js';
import { modelKindName } from '../../models/model-facts.js';
import { emptyReason, rowStatus, rowSumText, selfOnlyText } from '../../models/row-status.js';
import { headCounts, headIndex, headName, headWeights, resolveHead } from '../../models/run.js';
import { weightColorMap } from '../../views/colors.js';
import { childOrNew, setText } from '../../views/dom-update.js';
import { headMask } from '../../views/head-thumbs.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';
import { tokenLabels } from '../../views/labels.js';

const fmt = format('.4f');

/** Each row's entropy in bits, −Σ_j w_ij log₂ w_ij (in double; 0 log 0 = 0). */
function rowEntropies(weights, T) {
  return Array.from({ length: T }, (_, i) => {
    let bits = 0;
    for (let j = 0; j < T; j++) {
      const w = weights[i * T + j];
      if (w > 0) bits -= w * Math.log2(w);
    }
    return bits;
  });
}

/**
 * @param {import('../../models/run.js').Run} run  any model's Run; its block, when it is the selected head's, gives the
 *   scores (and a designed head's q·k) the tooltip quotes and the rows' status
 * @param {{ selected: { layer: number, head: number }, previous?: import('../../models/run.js').Run | null,
 *   colorMap?: 'viridis' | 'cividis', cellBudget?: number, canvas?: HTMLCanvasElement, last?: HTMLElement }} options
 *   selected: the head (one past the last, from a hand-edited link, is the last); previous: the Run before, to outline
 *   the weights that moved by more than 0.05; the weights' colour map (default 'viridis'); pixels for all the rows
 *   (default 272, less on narrow screens: the figure stays in the first screen up to 20 tokens; past that each token
 *   keeps 13 px for its label, heatmap.js tokenBandPx, and the figure scrolls in its box); canvas:
 *   the canvas to draw the cells into (reused from draw to draw), else a new one; last: the figure drawn before,
 *   updated in place (heatmap.js)
 * @returns {HTMLElement} a <figure data-figure="attention-weights"> (heatmap.js)
 */
export function attentionWeights(
  run,
  { selected, previous = null, colorMap = 'viridis', cellBudget = 272, canvas, last },
) {
  const T = run.tokens.length;
  const ref = resolveHead(headCounts(run), selected);
  const head = run.heads[headIndex(headCounts(run), ref)];
  const weights = headWeights(run, ref);
  const { block } = run;
  const own = block && block.layer === ref.layer && block.head === ref.head ? block : null;
  const scores = own?.scores.data;
  const dotProducts = own?.dotProducts?.data;
  const labels = tokenLabels(run);
  // Narrow screens: the rows' labels and entropies keep ~160 px, the cells share the rest.
  const cell = tokenBandPx(T, Math.min(cellBudget, window.innerWidth - 160));
  const maxBits = Math.log2(Math.max(T, 1));
  const status = own ? rowStatus(own, T, T) : { empty: [], selfOnly: [] };
  const empty = new Set(status.empty),
    selfOnly = new Set(status.selfOnly);
  const isMasked = headMask(run, headIndex(headCounts(run), ref));
  const whose = run.config ? ` of the trained ${modelKindName(run.config)}` : '';
  const options = run.trace?.options; // the designed heads' padding mask, for why a row is empty
  const figure = heatmap(
    {
      name: 'attention-weights',
      caption:
        `Attention weights of ${headName(ref)}${whose} (${head.label}): ${head.formula}, [${T}, ${T}]; ` +
        `${rowSumText(status, T, options)}. Right: its entropy (0 bits: one key; ${maxBits.toFixed(2)}: uniform).`,
      values: weights,
      rows: T,
      cols: T,
      rowLabels: labels,
      colLabels: labels,
      rowTitle: 'query ↓',
      colTitle: 'key (attended to) →',
      color: weightColorMap(colorMap),
      domain: [0, 1],
      legendTitle: 'attention weight',
      cellWidth: cell,
      cellHeight: cell,
      isMasked,
      rowNotes: rowEntropies(weights, T).map((h, i) => (empty.has(i) ? 'no key' : `${h.toFixed(2)} bits`)),
      rowNotesTitle: 'entropy',
      highlights: changedCells(run, previous, ref),
      highlightsKey: CHANGED_KEY,
      // The mix follows the row under the pointer, and a model that writes the next word shows what it predicted there.
      currentCellEvent: 'focus-query',
      canvas,
      describe: (i, j, w) => {
        if (isMasked?.(i, j))
          return `"${labels[i]}" → "${labels[j]}": masked (weight 0${empty.has(i) ? `; no key left: ${emptyReason(options)}` : ''})`;
        const quoted =
          (dotProducts ? `; ${own.additive ? 'additive score' : 'q·k'} = ${fmt(dotProducts[i * T + j])}` : '') +
          (scores ? `${dotProducts ? ',' : ';'} score: ${fmt(scores[i * T + j])}` : '');
        return (
          `${selfOnly.has(i) ? 'no other key left, so it attends to itself: ' : ''}` +
          `query "${labels[i]}" (${i}) → key "${labels[j]}" (${j}): weight ${fmt(w)}${quoted}`
        );
      },
    },
    last,
  );
  setText(
    childOrNew(figure, 'p.head-explanation', explanationNote, figure.querySelector('figcaption').nextSibling),
    [head.explanation, selfOnlyText(labels, status.selfOnly)].filter(Boolean).join(' '),
  );
  return figure;
}

/** The paragraph under the caption that says what the head does. */
function explanationNote() {
  const note = document.createElement('p');
  note.className = 'head-explanation';
  return note;
}
