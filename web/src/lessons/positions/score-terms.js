// Score decomposition: with X + P as input, QKᵀ = XW_Q(XW_K)ᵀ + XW_Q(PW_K)ᵀ + PW_Q(XW_K)ᵀ + PW_Q(PW_K)ᵀ.
// Four heatmaps on one colour scale — content–content, content–position, position–content,
// position–position — and their sum, the head's scores.
import { format } from 'd3-format';
import { divergingColor, maxAbs } from '../../views/colors.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';
import { tokenLabels } from '../../views/labels.js';
import { linkScrolls } from '../../views/linked-scroll.js';

const fmt = format('.3f');

const TERMS = [
  ['contentContent', 'content–content', 'XW_Q (XW_K)ᵀ'],
  ['contentPosition', 'content–position', 'XW_Q (PW_K)ᵀ'],
  ['positionContent', 'position–content', 'PW_Q (XW_K)ᵀ'],
  ['positionPosition', 'position–position', 'PW_Q (PW_K)ᵀ'],
];

function message(text) {
  const p = document.createElement('p');
  p.className = 'empty-figure';
  p.textContent = text;
  return p;
}

/**
 * @param {object} trace  core.explain() result with positionChecks
 * @param {{ head: number }} options
 * @returns {HTMLElement}
 */
export function scoreTerms(trace, { head }) {
  const wrapper = document.createElement('div');
  wrapper.className = 'score-terms';
  wrapper.dataset.figure = 'score-terms';
  const terms = trace.positionChecks.scoreTerms[head];
  if (trace.positionChecks.scoreTerms.length === 0) {
    wrapper.append(
      message(
        'The decomposition applies when P is added to the word vectors: choose “sinusoidal” or “learned” position information.',
      ),
    );
    return wrapper;
  }
  if (!terms) {
    wrapper.append(
      message(
        `Head ${head + 1} is a designed head: its queries and keys are not X W_Q and X W_K, so there is nothing to split.`,
      ),
    );
    return wrapper;
  }
  const n = trace.tokens.length;
  const scores = trace.heads[head].scores;
  const limit = Math.max(maxAbs(scores.data), ...TERMS.map(([key]) => maxAbs(terms[key].data)));
  const color = divergingColor(limit);
  const labels = tokenLabels(trace);
  const cell = tokenBandPx(n, 200, 22);
  const panel = (name, caption, values, isMasked) =>
    heatmap({
      name,
      caption,
      values,
      rows: n,
      cols: n,
      rowLabels: labels,
      colLabels: labels,
      rowTitle: 'query ↓',
      colTitle: 'key →',
      color,
      domain: [-limit, limit],
      legendTitle: 'score term',
      cellWidth: cell,
      cellHeight: cell,
      isMasked,
      describe: (i, j, v) => `${caption}: "${labels[i]}" · "${labels[j]}" = ${fmt(v)}`,
    });
  // The core multiplies each term by the head's score factor, so that the four add up to its scores: the titles say so.
  const { scale, temperature = 1 } = trace.options;
  const factor = `${scale ? ' / √d_k' : ''}${temperature !== 1 ? ' / τ' : ''}`;
  for (const [key, name, formula] of TERMS)
    wrapper.append(panel(`score-${key}`, `${name}: ${formula}${factor}`, terms[key].data));
  wrapper.append(
    panel(
      'score-sum',
      '= scores (÷ √d_k, ÷ τ; masks and biases applied)',
      scores.data,
      (i, j) => scores.data[i * n + j] === -Infinity,
    ),
  );
  // A long sentence's panels scroll in boxes of a size that keeps them side by side (positions.css), all together.
  linkScrolls([...wrapper.querySelectorAll('.heatmap-scroll')]);
  return wrapper;
}
