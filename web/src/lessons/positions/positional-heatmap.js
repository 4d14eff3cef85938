// The sinusoidal positional encoding P of the typed tokens: one row per position, one column per
// dimension; low dimensions oscillate fast, high ones slowly.
import { format } from 'd3-format';
import { scaleSequential } from 'd3-scale';
import { interpolateRdBu } from 'd3-scale-chromatic';
import { heatmap } from '../../views/heatmap.js';

const fmt = format('.4f');
const color = scaleSequential((t) => interpolateRdBu(1 - t)).domain([-1, 1]);  // red +1, blue −1
const COLUMN_PX = 4;

/**
 * @param {object} trace  core.explain() result
 * @returns {HTMLElement}
 */
export function positionalHeatmap(trace) {
  const [seqLen, dModel] = trace.positional.shape;
  const kind = trace.options.positionalEncoding;
  const base = trace.options.base;
  const what = kind === 'learned' ? 'Learned positional table (seeded, untrained)' : 'Sinusoidal positional encoding';
  const use = {
    sinusoidal: 'added to the word vectors', learned: 'added to the word vectors', none: 'not used: no position information',
    rope: 'not added: RoPE rotates queries and keys instead', alibi: 'not added: ALiBi biases the scores instead',
    t5: 'not added: T5 buckets bias the scores instead',
  }[kind];
  return heatmap({
    name: 'positional-encoding',
    caption: `${what} P [seq_len, d_model] = [${seqLen}, ${dModel}], ${use}`,
    values: trace.positional.data,
    rows: seqLen,
    cols: dModel,
    rowLabels: trace.tokens.map((t, i) => `${i} ${t.text}`),
    colLabels: Array.from({ length: dModel }, (_, j) => String(j)),
    rowTitle: 'position ↓',
    colTitle: 'dimension →',
    color,
    domain: [-1, 1],
    legendTitle: 'P[i, dimension]',
    cellWidth: COLUMN_PX,
    cellHeight: Math.max(2, Math.min(22, Math.floor(320 / Math.max(seqLen, 1)))),
    describe: (i, j, v) => {
      if (kind === 'learned') return `P[${i}, ${j}] = ${fmt(v)} (random, untrained)`;
      const pair = j - (j % 2);
      return `P[${i}, ${j}] = ${j % 2 ? 'cos' : 'sin'}(${i} / ${base}^(${pair}/${dModel})) = ${fmt(v)}`;
    },
  });
}
