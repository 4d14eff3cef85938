// The attention weights of one head: rows are queries, columns are keys, each row sums to 1.
import { format } from 'd3-format';
import { scaleSequential } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';
import { heatmap } from './heatmap.js';

const fmt = format('.4f');
const color = scaleSequential(interpolateViridis).domain([0, 1]);

/** Pixels per cell: large for short sentences, small enough that 256 tokens fit. */
export function cellSize(seqLen, budget) {
  return Math.max(2, Math.min(40, Math.floor(budget / Math.max(seqLen, 1))));
}

/**
 * @param {object} trace  core.explain() result
 * @param {{ head: number }} options  which head, 0-based
 * @returns {HTMLElement}
 */
export function attentionHeatmap(trace, { head }) {
  const [numHeads, seqLen] = trace.weights.shape;
  const size = seqLen * seqLen;
  const weights = trace.weights.data.subarray(head * size, (head + 1) * size);
  const scores = trace.scores.data.subarray(head * size, (head + 1) * size);
  const labels = trace.tokens.map((t) => t.text);
  const cell = cellSize(seqLen, 440);
  const dK = trace.heads[head].queries.shape[1];
  return heatmap({
    name: 'attention-weights',
    caption: `Attention weights of head ${head + 1} of ${numHeads}: softmax(QKᵀ/√d_k) [seq_len, seq_len] = [${seqLen}, ${seqLen}]`,
    values: weights,
    rows: seqLen,
    cols: seqLen,
    rowLabels: labels,
    colLabels: labels,
    rowTitle: 'query ↓',
    colTitle: 'key (attended to) →',
    color,
    domain: [0, 1],
    legendTitle: 'attention weight',
    cellWidth: cell,
    cellHeight: cell,
    isMasked: (i, j) => scores[i * seqLen + j] === -Infinity,
    describe: (i, j, w) => (scores[i * seqLen + j] === -Infinity
      ? `"${labels[i]}" → "${labels[j]}": masked (weight 0)`
      : `query "${labels[i]}" (${i}) → key "${labels[j]}" (${j}): weight ${fmt(w)}; score q·k/√${dK} = ${fmt(scores[i * seqLen + j])}`),
  });
}
