// A heatmap's blocks of columns (the heads in a concatenation, heatmap.js spec.colGroups): a rule between blocks and,
// under each, a bracket with its label (its short form when the block is too narrow for it).
import { select } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Room under the cells for the blocks' brackets and labels, pixels. */
export const GROUP_PX = 24;
const GROUP_CHAR_PX = 6.5; // width of a label character (11 px sans-serif), to know whether a label fits

/**
 * Rules between blocks of columns, and under each block a bracket with its label (short when narrow), in a new
 * <g class="col-groups"> of `frame` before `outline`.
 * @param {SVGGElement} frame  the cells' frame @param {Element} outline
 * @param {{ label: string, short: string, start: number, end: number }[]} groups  columns [start, end)
 * @param {number} cellWidth  pixels @param {number} height  the cells' height, pixels
 */
export function drawColGroups(frame, outline, groups, cellWidth, height) {
  const g = select(frame.insertBefore(document.createElementNS(SVG_NS, 'g'), outline)).attr('class', 'col-groups');
  for (const { label, short, start, end } of groups) {
    const x0 = start * cellWidth,
      x1 = end * cellWidth;
    if (start > 0)
      g.append('line')
        .attr('class', 'group-rule')
        .attr('x1', x0)
        .attr('x2', x0)
        .attr('y1', -4)
        .attr('y2', height + 4);
    g.append('path')
      .attr('class', 'group-bracket')
      .attr('d', `M${x0 + 1},${height + 3}v4H${x1 - 1}v-4`);
    const fits = label.length * GROUP_CHAR_PX <= x1 - x0;
    g.append('text')
      .attr('class', 'group-label')
      .attr('x', (x0 + x1) / 2)
      .attr('y', height + 18)
      .attr('text-anchor', 'middle')
      .text(fits ? label : short)
      .append('title')
      .text(label);
  }
}
