// The attention weights of one head: rows are queries, columns are keys, each row sums to 1 (a row with
// no key left is empty, and a query left with only its own key attends to itself: row-status.js).
// Beside each row, its entropy in bits (0 = all weight on one key, log2 n = uniform).
import { format } from 'd3-format';
import { CHANGED_KEY, changedCells } from './changes.js';
import { headDimsText } from '../../models/head-dims.js';
import { emptyReason, rowStatus, rowSumText, selfOnlyText } from '../../models/row-status.js';
import { weightColorMap } from '../../views/colors.js';
import { childOrNew, setText } from '../../views/dom-update.js';
import { heatmap, heatmapCellSize } from '../../views/heatmap.js';
import { tokenLabels } from '../../views/labels.js';
import { headKindLabel, scoreText } from '../../models/designed.js';

const fmt = format('.4f');

/** What a head of this kind does, in one sentence, with the d_k it uses (head-dims.js: designed heads differ). */
function headKindExplanation(head) {
  const dims = headDimsText(head);
  switch (head.kind) {
    case 'semantic':
      return `Queries and keys are whole word vectors (${dims}), own position masked: each word attends to the most similar words.`;
    case 'offset':
      return (
        `Queries are the positional encodings (${dims}) turned by the rotation R(δ), δ = ${head.offset}, so each word ` +
        `attends to the word ${Math.abs(head.offset)} position${Math.abs(head.offset) === 1 ? '' : 's'} ` +
        `${head.offset < 0 ? 'before' : 'after'} it.`
      );
    case 'first':
      return `Every query is the encoding of position 0 (${dims}), so every word attends to the first token (a common "resting place" in trained models).`;
    case 'uniform':
      return `Queries are zero (${dims}), so every score is 0 and every word spreads its attention evenly: the output is the plain average of the values.`;
    default:
      return (
        `Queries and keys are the input projected by W_Q and W_K (${dims}): with identity projections, raw ` +
        'word-vector similarity; with random ones, what an untrained model does.'
      );
  }
}

/**
 * @param {object} trace  core.explain() result
 * @param {{ head: number, previous?: object, colorMap?: 'viridis' | 'cividis', cellBudget?: number, canvas?: HTMLCanvasElement,
 *   last?: HTMLElement }} options  which head
 *   (0-based); the previous trace, to outline weights that moved by more than 0.05; the weights' colour
 *   map (default 'viridis', see WEIGHT_COLOR_MAPS); pixels for all the rows (default 272, so the figure stays in the
 *   first screen however long the sentence; less on narrow screens);
 *   canvas: the canvas to draw the cells into (reused from draw to draw), else a new one; last: the figure drawn before,
 *   updated in place (heatmap.js)
 * @returns {HTMLElement}
 */
export function attentionHeatmap(trace, { head, previous, colorMap = 'viridis', cellBudget = 272, canvas, last }) {
  const numHeads = trace.heads.length,
    seqLen = trace.tokens.length;
  const { weights, scores, dotProducts, entropy } = trace.heads[head];
  const labels = tokenLabels(trace);
  // Narrow screens: the rows' labels and entropies keep ~160 px, the cells share the rest.
  const cell = heatmapCellSize(seqLen, Math.min(cellBudget, window.innerWidth - 160));
  const maxBits = Math.log2(Math.max(seqLen, 1));
  const status = rowStatus(trace.heads[head], seqLen, seqLen);
  const empty = new Set(status.empty),
    selfOnly = new Set(status.selfOnly);
  const figure = heatmap(
    {
      name: 'attention-weights',
      caption:
        `Attention weights of head ${head + 1} of ${numHeads} (${headKindLabel(trace.heads[head])}): ` +
        `${trace.options.normalizer ?? 'softmax'}(${scoreText(trace.options, trace.heads[head])}), ` +
        `[${seqLen}, ${seqLen}]; ${rowSumText(status, seqLen, trace.options)}. ` +
        `Right: its entropy (0 bits: one key; ${maxBits.toFixed(2)}: uniform).`,
      values: weights.data,
      rows: seqLen,
      cols: seqLen,
      rowLabels: labels,
      colLabels: labels,
      rowTitle: 'query ↓',
      colTitle: 'key (attended to) →',
      color: weightColorMap(colorMap),
      domain: [0, 1],
      legendTitle: 'attention weight',
      cellWidth: cell,
      cellHeight: cell,
      isMasked: (i, j) => scores.data[i * seqLen + j] === -Infinity,
      rowNotes: Array.from(entropy.data, (h, i) => (empty.has(i) ? 'no key' : `${h.toFixed(2)} bits`)),
      rowNotesTitle: 'entropy',
      highlights: changedCells(trace, previous, head),
      highlightsKey: CHANGED_KEY,
      currentCellEvent: 'focus-query', // the mix follows the row under the pointer
      canvas,
      describe: (i, j, w) =>
        scores.data[i * seqLen + j] === -Infinity
          ? `"${labels[i]}" → "${labels[j]}": masked (weight 0${empty.has(i) ? `; no key left: ${emptyReason(trace.options)}` : ''})`
          : `${selfOnly.has(i) ? 'no other key left, so it attends to itself: ' : ''}` +
            `query "${labels[i]}" (${i}) → key "${labels[j]}" (${j}): weight ${fmt(w)}; ` +
            `${trace.heads[head].additiveScorer ? 'additive score' : 'q·k'} = ${fmt(dotProducts.data[i * seqLen + j])}, ` +
            `score: ${fmt(scores.data[i * seqLen + j])}`,
    },
    last,
  );
  setText(
    childOrNew(figure, 'p.head-explanation', explanationNote, figure.querySelector('figcaption').nextSibling),
    [headKindExplanation(trace.heads[head]), selfOnlyText(labels, status.selfOnly)].filter(Boolean).join(' '),
  );
  return figure;
}

/** The paragraph under the caption that says what the head does. */
function explanationNote() {
  const note = document.createElement('p');
  note.className = 'head-explanation';
  return note;
}
