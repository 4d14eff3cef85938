// The attention weights of one head: rows are queries, columns are keys, each row sums to 1.
// Beside each row, its entropy in bits (0 = all weight on one key, log2 n = uniform).
import { format } from 'd3-format';
import { changedCells } from './changes.js';
import { weightColor } from './colors.js';
import { heatmap } from './heatmap.js';
import { tokenLabels } from './labels.js';

const fmt = format('.4f');

/** Pixels per cell: large for short sentences, small enough that 256 tokens fit. */
export function cellSize(seqLen, budget) {
  return Math.max(2, Math.min(40, Math.floor(budget / Math.max(seqLen, 1))));
}

/** How a head was built, in a few words. */
export function headKindLabel(head) {
  if (head.kind === 'offset') {
    if (head.offset === -1) return 'previous token';
    if (head.offset === 1) return 'next token';
    return `offset δ = ${head.offset}`;
  }
  return { projected: 'projected', semantic: 'semantic', first: 'first token', uniform: 'uniform' }[head.kind];
}

/**
 * @param {object} trace  core.explain() result
 * @param {{ head: number, previous?: object }} options  which head (0-based); the previous trace, to
 *   outline weights that moved by more than 0.05
 * @returns {HTMLElement}
 */
export function attentionHeatmap(trace, { head, previous }) {
  const numHeads = trace.heads.length, seqLen = trace.tokens.length;
  const { weights, scores, dotProducts, entropy, queries } = trace.heads[head];
  const labels = tokenLabels(trace);
  const cell = cellSize(seqLen, 440);
  const dQK = queries.shape[1];
  const maxBits = Math.log2(Math.max(seqLen, 1));
  return heatmap({
    name: 'attention-weights',
    caption: `Attention weights of head ${head + 1} of ${numHeads} (${headKindLabel(trace.heads[head])}): ` +
      `softmax(QKᵀ/√d_k) [seq_len, seq_len] = [${seqLen}, ${seqLen}]. Right: each row's entropy ` +
      `(0 bits = all on one key, ${maxBits.toFixed(2)} = uniform).`,
    values: weights.data,
    rows: seqLen,
    cols: seqLen,
    rowLabels: labels,
    colLabels: labels,
    rowTitle: 'query ↓',
    colTitle: 'key (attended to) →',
    color: weightColor,
    domain: [0, 1],
    legendTitle: 'attention weight',
    cellWidth: cell,
    cellHeight: cell,
    isMasked: (i, j) => scores.data[i * seqLen + j] === -Infinity,
    rowNotes: Array.from(entropy.data, (h) => `${h.toFixed(2)} bits`),
    rowNotesTitle: 'entropy',
    highlights: changedCells(trace, previous, head),
    describe: (i, j, w) => (scores.data[i * seqLen + j] === -Infinity
      ? `"${labels[i]}" → "${labels[j]}": masked (weight 0)`
      : `query "${labels[i]}" (${i}) → key "${labels[j]}" (${j}): weight ${fmt(w)}; ` +
        `score = q·k / √${dQK} = ${fmt(dotProducts.data[i * seqLen + j])} → ${fmt(scores.data[i * seqLen + j])}`),
  });
}
