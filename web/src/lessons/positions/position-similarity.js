// The similarity of positions, P Pᵀ or its cosine version: constant along every diagonal because
// p_i · p_j = Σ_j cos((i − j) ω_j) depends only on the offset, and largest on the diagonal.
import { format } from 'd3-format';
import { divergingColor, maxAbs } from '../../views/colors.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';
import { lineChart } from '../../views/line-chart.js';
import { positionLabels } from './lab-encoding.js';

const fmt = format('.4f');

/**
 * @param {object} lab  core.positionalEncodingLab() result
 * @param {{ cosine: boolean, tokens: object[] }} options
 * @returns {HTMLElement}
 */
export function positionSimilarity(lab, { cosine, tokens }) {
  const matrix = cosine ? lab.cosineSimilarity : lab.similarity;
  const [n] = matrix.shape;
  const limit = cosine ? 1 : maxAbs(matrix.data);
  const what = cosine ? 'cos(p_i, p_j)' : 'p_i · p_j';
  const wrapper = document.createElement('div');
  wrapper.className = 'figure-pair';
  const cell = tokenBandPx(n, 360, 18);
  const labels = positionLabels(n, tokens);
  wrapper.append(
    heatmap({
      name: 'position-similarity',
      caption: `${cosine ? 'Cosine similarity' : 'P Pᵀ'} of ${n} positions: the same along each diagonal (it depends only on i − j)`,
      values: matrix.data,
      rows: n,
      cols: n,
      rowLabels: labels,
      colLabels: labels,
      rowTitle: 'position i ↓',
      colTitle: 'position j →',
      color: divergingColor(limit),
      domain: [-limit, limit],
      legendTitle: what,
      cellWidth: cell,
      cellHeight: cell,
      describe: (i, j, v) => `${what.replace('i', i).replace('j', j)} = ${fmt(v)} (offset ${i - j})`,
    }),
  );
  wrapper.append(
    lineChart({
      name: 'similarity-by-offset',
      caption: `Row 0: ${what} against the offset j − i; it falls with the distance (with ripples).`,
      series: [{ label: `${what} for i = 0`, values: matrix.data.subarray(0, n), color: '#4e79a7' }],
      xTitle: 'offset j − i',
      yTitle: what,
      width: 360,
      height: 160,
    }),
  );
  return wrapper;
}
