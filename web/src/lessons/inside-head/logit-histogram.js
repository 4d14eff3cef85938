// The distribution of all of a position's logits (the output layer's V_out scores) as a histogram, with the
// ones the logits step draws marked: how far above the bulk the likely words stand, and where <unk>'s is.
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleSymlog } from 'd3-scale';
import { select } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN = { top: 8, right: 12, bottom: 34, left: 46 };
const BINS = 40;

/**
 * @param {Float32Array} logits  [V_out], <unk> last  @param {number} threshold  the smallest logit the step draws
 * @returns {SVGSVGElement} <svg class="logit-histogram" role="img">: counts per bin of width (max − min) / 40 on a
 *   symmetric-log axis, the bins at
 *   or above `threshold` in the accent colour, <unk>'s logit as a dashed line
 */
export function logitHistogram(logits, threshold) {
  let min = Infinity,
    max = -Infinity;
  for (const z of logits) ((min = Math.min(min, z)), (max = Math.max(max, z)));
  const width = (max - min) / BINS || 1;
  const counts = new Array(BINS).fill(0);
  for (const z of logits) counts[Math.min(BINS - 1, Math.floor((z - min) / width))]++;
  const plotWidth = 300,
    plotHeight = 90;
  const x = scaleLinear().domain([min, max]).range([0, plotWidth]);
  // A symmetric-log count axis (d3 scaleSymlog): the few likely words in the right tail stay visible beside the bulk.
  const most = Math.max(...counts);
  const y = scaleSymlog().domain([0, most]).range([plotHeight, 0]);
  const svg = select(document.createElementNS(SVG_NS, 'svg'))
    .attr('class', 'logit-histogram')
    .attr('width', MARGIN.left + plotWidth + MARGIN.right)
    .attr('height', MARGIN.top + plotHeight + MARGIN.bottom)
    .attr('viewBox', `0 0 ${MARGIN.left + plotWidth + MARGIN.right} ${MARGIN.top + plotHeight + MARGIN.bottom}`)
    .attr('role', 'img')
    .attr(
      'aria-label',
      `Histogram of all ${logits.length} logits, from ${min.toFixed(2)} to ${max.toFixed(2)}; <unk>'s is ${logits.at(-1).toFixed(2)}`,
    );
  const plot = svg.append('g').attr('transform', `translate(${MARGIN.left}, ${MARGIN.top})`);
  plot
    .selectAll('rect')
    .data(counts)
    .join('rect')
    .attr('x', (_, i) => x(min + i * width) + 0.5)
    .attr('width', Math.max(1, plotWidth / BINS - 1))
    .attr('y', (c) => y(c))
    .attr('height', (c) => plotHeight - y(c))
    .attr('fill', (_, i) => (min + (i + 1) * width > threshold ? 'var(--ae-accent)' : 'var(--ae-muted)'));
  plot
    .append('line')
    .attr('x1', x(logits.at(-1)))
    .attr('x2', x(logits.at(-1)))
    .attr('y1', 0)
    .attr('y2', plotHeight)
    .attr('stroke', 'var(--ae-ink)')
    .attr('stroke-dasharray', '3 2');
  plot
    .append('text')
    .attr('x', x(logits.at(-1)) - 3)
    .attr('y', 9)
    .attr('text-anchor', 'end')
    .attr('font-size', 10)
    .attr('fill', 'currentColor')
    .text('<unk>');
  plot.append('g').attr('transform', `translate(0, ${plotHeight})`).call(axisBottom(x).ticks(6));
  plot.append('g').call(
    axisLeft(y)
      .tickValues([0, 1, 10, 100, 1000, 10000].filter((t) => t <= most))
      .tickFormat((t) => String(t)),
  );
  svg
    .append('text')
    .attr('x', MARGIN.left + plotWidth / 2)
    .attr('y', MARGIN.top + plotHeight + 30)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .attr('fill', 'currentColor')
    .text(`logit z (all ${logits.length}; highlighted: the ones drawn above)`);
  svg
    .append('text')
    .attr('transform', `translate(12, ${MARGIN.top + plotHeight / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .attr('fill', 'currentColor')
    .text('outputs (log)');
  return svg.node();
}
