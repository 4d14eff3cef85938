// The binary-counting analogy (d2l.ai §11.6.2): the bits of each position beside the encoding, on the
// same rows. Bit b flips every 2^b positions, as a lower-frequency column of P turns more slowly.
import { scaleSequential } from 'd3-scale';
import { interpolateGreys } from 'd3-scale-chromatic';
import { heatmap } from '../../views/heatmap.js';
import { LAB_TOP_PX, positionLabels, positionRowPx } from './lab-encoding.js';

const color = scaleSequential((t) => interpolateGreys(0.08 + 0.8 * t)).domain([0, 1]);

/**
 * @param {object} lab  core.positionalEncodingLab() result
 * @param {{ tokens: object[] }} options
 * @param {HTMLElement} [last]  a figure this function returned before: updated in place (views/heatmap.js)
 * @returns {HTMLElement}
 */
export function binaryPositions(lab, { tokens }, last) {
  const [n, bits] = lab.bits.shape;
  return heatmap(
    {
      name: 'binary-positions',
      caption: `Positions in binary: ${bits} bits, lowest (fastest) first`,
      values: lab.bits.data,
      rows: n,
      cols: bits,
      rowLabels: positionLabels(n, tokens),
      colLabels: Array.from({ length: bits }, (_, b) => `2^${b}`),
      rowTitle: 'position ↓',
      colTitle: 'bit →',
      color,
      domain: [0, 1],
      legendTitle: 'bit value (0 light, 1 dark)',
      cellWidth: 16,
      cellHeight: positionRowPx(n),
      top: LAB_TOP_PX,
      describe: (i, b, v) => `position ${i}: bit ${b} (value ${2 ** b}) is ${v}; it flips every ${2 ** b} positions`,
    },
    last,
  );
}
