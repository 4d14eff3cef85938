// Cross-attention, the decoder's two attention steps for the selected head (Vaswani et al. 2017 §3.2.3):
// the target's causal self-attention [t, t], then the target's queries on the source's keys [t, s].
// Target words without a pretrained vector (a translation's, often) are starred: their vectors are hashed.
import { format } from 'd3-format';
import { weightColorMap } from '../../views/colors.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';
import { tokenLabels } from '../../views/labels.js';
import { rowStatus, selfOnlyText } from '../../models/row-status.js';
import { setHidden, setText } from '../../views/dom-update.js';
import { element } from '../../views/layout.js';

const fmt = format('.4f');
const CELL_BUDGET = 360;

function starred(trace) {
  return tokenLabels(trace).map((label, i) => (trace.tokens[i].oov ? `${label}*` : label));
}

function weightsMap({ name, caption, weights, rows, cols, rowLabels, colLabels, colTitle, color, head, masked }, last) {
  const cell = tokenBandPx(Math.max(rows, cols), CELL_BUDGET, 34);
  const offset = head * rows * cols;
  const values = weights.data.subarray(offset, offset + rows * cols);
  return heatmap(
    {
      name,
      caption,
      values,
      rows,
      cols,
      rowLabels,
      colLabels,
      rowTitle: 'target query ↓',
      colTitle,
      color,
      domain: [0, 1],
      legendTitle: 'attention weight',
      cellWidth: cell,
      cellHeight: cell,
      isMasked: masked,
      describe: (i, j, w) =>
        masked?.(i, j)
          ? `"${rowLabels[i]}" may not see "${colLabels[j]}" (${j > i ? 'causal' : 'own position skipped'}): weight 0`
          : `"${rowLabels[i]}" → "${colLabels[j]}": weight ${fmt(w)}`,
    },
    last,
  );
}

/**
 * @param {object} cross  core.explainCross() result
 * @param {{ head: number, colorMap?: string, last?: HTMLElement }} options  the head (0-based, clamped), the weights'
 *   colour map, and the view drawn before: its two heatmaps are updated in place (heatmap.js), not rebuilt
 * @returns {HTMLElement}
 */
export function crossAttentionView(cross, { head, colorMap = 'viridis', last }) {
  const { source, target } = cross;
  // The view drawn before, kept with its two heatmaps when it had them: a keystroke rewrites them in place.
  const reused = last?.classList.contains('cross-attention') ? last : null;
  const shown = reused ? [...reused.querySelectorAll(':scope > .side-by-side > figure')] : [];
  const wrapper = reused ?? document.createElement('div');
  wrapper.className = 'cross-attention';
  const t = target.tokens.length,
    s = source.tokens.length;
  if (!cross.cross) {
    wrapper.replaceChildren(
      Object.assign(document.createElement('p'), {
        className: 'empty-state',
        textContent:
          t === 0 ? 'Type a target sentence to see it attend to the source.' : 'The source sentence is empty.',
      }),
    );
    return wrapper;
  }
  const h = Math.min(head, target.heads.length - 1);
  const numHeads = target.heads.length;
  const color = weightColorMap(colorMap);
  const targetLabels = starred(target),
    sourceLabels = starred(source);
  // Step 1's masks as the core applied them: the causal mask, and the own position for a head that skips it.
  const targetHead = target.heads[h];
  const selfOnly = selfOnlyText(tokenLabels(target), rowStatus(targetHead, t, t).selfOnly);
  const row = wrapper.querySelector(':scope > .side-by-side') ?? document.createElement('div');
  row.className = 'side-by-side';
  const maps = [
    weightsMap(
      {
        name: 'cross-self-attention',
        weights: target.weights,
        rows: t,
        cols: t,
        rowLabels: targetLabels,
        colLabels: targetLabels,
        colTitle: 'target key →',
        color,
        head: h,
        masked: (i, j) => targetHead.scores.data[i * t + j] === -Infinity,
        caption:
          `Step 1, masked self-attention on the target, head ${h + 1} of ${numHeads}: [t, t] = [${t}, ${t}]. ` +
          'Each target word sees only itself and the words before it (the causal mask), as when the translation is written word by word.' +
          (targetHead.masksOwnPosition ? " This head also skips each word's own position." : '') +
          (selfOnly ? ` ${selfOnly}` : ''),
      },
      shown[0],
    ),
    weightsMap(
      {
        name: 'cross-attention',
        weights: cross.cross.weights,
        rows: t,
        cols: s,
        rowLabels: targetLabels,
        colLabels: sourceLabels,
        colTitle: 'source key (encoder output) →',
        color,
        head: h,
        caption:
          `Step 2, cross-attention, head ${h + 1} of ${numHeads}: [t, s] = [${t}, ${s}]. Queries from the target ` +
          "(after step 1 and Add & Norm), keys and values from the source's encoder output: each row says where that target word reads the source.",
      },
      shown[1],
    ),
  ];
  if (maps.some((map, k) => row.children[k] !== map)) row.replaceChildren(...maps);
  const unknown = target.tokens.filter((token) => token.oov).length + source.tokens.filter((token) => token.oov).length;
  const note = wrapper.querySelector(':scope > .oov-note') ?? element('p', 'hint oov-note');
  setText(
    note,
    unknown
      ? `* ${unknown} word${unknown === 1 ? ' has' : 's have'} no pretrained (English) vector: a deterministic hashed vector stands in, ` +
          "so their weights reflect no meaning. The weights are untrained: they show the mechanics, not a real translation's alignment."
      : '',
  );
  setHidden(note, !unknown);
  if (wrapper.firstChild !== row || wrapper.lastChild !== note) wrapper.replaceChildren(row, note);
  return wrapper;
}
