// The positional-encoding lab's P: positions × dimensions for the lab's own d_model and base,
// the sentence's tokens on the first rows and bare positions beyond them.
import { format } from 'd3-format';
import { divergingColor } from '../../views/colors.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';

const fmt = format('.4f');
const color = divergingColor(1);
export const LAB_TOP_PX = 58; // shared with the bits beside it, so their rows line up

/** Pixel height of one position row for n positions (the bits use the same). */
export function positionRowPx(n) {
  return tokenBandPx(n, 420, 18);
}

/** Row labels: "i token" for the sentence's positions, "i" beyond it. */
export function positionLabels(n, tokens) {
  return Array.from({ length: n }, (_, i) => (i < tokens.length ? `${i} ${tokens[i].text}` : String(i)));
}

/** How the explorer's model uses position information, by its positionalEncoding name. */
const USE = {
  sinusoidal: 'Your model: this P is added to the word vectors.',
  learned: 'Your model adds a learned positional table (seeded, untrained) instead: see it in Inside one head, step 2.',
  none: 'Your model uses no position information: P is shown, not added.',
  rope: 'Your model does not add P: RoPE rotates queries and keys by these angles instead.',
  alibi: 'Your model does not add P: ALiBi biases the scores by distance instead.',
  t5: 'Your model does not add P: T5 buckets bias the scores by relative position instead.',
};

/**
 * @param {object} lab  core.positionalEncodingLab() result
 * @param {{ tokens: object[], base: number, used?: string }} options  the sentence's tokens, the lab's base,
 *   how the explorer's model uses position information (a positionalEncoding name; said in the caption)
 * @param {HTMLElement} [last]  a figure this function returned before: updated in place (views/heatmap.js)
 * @returns {HTMLElement}
 */
export function labEncoding(lab, { tokens, base, used }, last) {
  const [n, d] = lab.encoding.shape;
  return heatmap(
    {
      name: 'lab-encoding',
      caption:
        `P for d_model = ${d}, base = ${format(',')(base)}: ${n} positions (${Math.min(n, tokens.length)} in the sentence). ${USE[used] ?? ''}`.trim(),
      values: lab.encoding.data,
      rows: n,
      cols: d,
      rowLabels: positionLabels(n, tokens),
      colLabels: Array.from({ length: d }, (_, j) => String(j)),
      rowTitle: 'position ↓',
      colTitle: 'dimension → (fast … slow)',
      color,
      domain: [-1, 1],
      legendTitle: 'P[i, dimension]',
      cellWidth: Math.max(1, Math.min(8, Math.floor(520 / d))),
      cellHeight: positionRowPx(n),
      top: LAB_TOP_PX,
      describe: (i, j, v) =>
        `P[${i}, ${j}] = ${j % 2 ? 'cos' : 'sin'}(${i} / ${base}^(${j - (j % 2)}/${d})) = ${fmt(v)}`,
    },
    last,
  );
}
