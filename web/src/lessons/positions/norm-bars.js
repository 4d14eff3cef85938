// Who dominates X + P: the length of each token's word vector beside the length of its positional
// encoding (the sinusoidal one has ‖p_i‖ = √(d_model/2) at every position).
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleBand, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { tokenLabels } from '../../views/labels.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN = { top: 10, right: 12, bottom: 70, left: 52 };
const COLORS = { word: '#4e79a7', position: '#f28e2b' };
const fmt = format('.2f');

/**
 * @param {object} trace  core.explain() result with positionChecks
 * @returns {HTMLElement}
 */
export function normBars(trace) {
  const { embeddingNorms, positionalNorms } = trace.positionChecks;
  const labels = tokenLabels(trace);
  const n = labels.length;
  const added = ['sinusoidal', 'learned'].includes(trace.options.positionalEncoding);
  const figure = document.createElement('figure');
  figure.className = 'norm-bars';
  figure.dataset.figure = 'norm-bars';
  figure.appendChild(document.createElement('figcaption')).textContent =
    `Lengths per token: word vector ‖x_i‖ (× ${trace.options.embeddingScale}) and encoding ‖p_i‖ (× ${trace.options.positionalScale})` +
    (added ? ', the two summed into the input.' : ' — P is not added with this position information.');
  const band = Math.max(6, Math.min(40, Math.floor(560 / Math.max(n, 1))));
  const width = n * band,
    height = 180;
  const x = scaleBand()
    .domain(labels.map((_, i) => i))
    .range([0, width])
    .padding(0.2);
  const inner = scaleBand().domain(['word', 'position']).range([0, x.bandwidth()]);
  const top = Math.max(1e-9, ...embeddingNorms.data, ...positionalNorms.data);
  const y = scaleLinear().domain([0, top]).range([height, 0]).nice();
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', MARGIN.left + width + MARGIN.right)
    .attr('height', MARGIN.top + height + MARGIN.bottom)
    .attr('role', 'img')
    .attr('aria-label', 'Bar chart of word-vector and encoding lengths per token');
  const plot = svg.append('g').attr('transform', `translate(${MARGIN.left}, ${MARGIN.top})`);
  const step = Math.ceil(11 / band);
  plot
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0, ${height})`)
    .call(
      axisBottom(x)
        .tickValues(labels.map((_, i) => i).filter((i) => i % step === 0))
        .tickFormat((i) => labels[i]),
    )
    .selectAll('text')
    .attr('text-anchor', 'end')
    .attr('transform', 'rotate(-50)')
    .attr('dx', '-0.4em')
    .attr('dy', '0.6em');
  plot.append('g').attr('class', 'axis').call(axisLeft(y).ticks(5));
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(12, ${MARGIN.top + height / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('length ‖·‖₂');
  for (const [kind, norms] of [
    ['word', embeddingNorms],
    ['position', positionalNorms],
  ]) {
    plot
      .append('g')
      .attr('data-kind', kind)
      .selectAll('rect')
      .data(Array.from(norms.data))
      .join('rect')
      .attr('x', (_, i) => x(i) + inner(kind))
      .attr('width', inner.bandwidth())
      .attr('y', (v) => y(v))
      .attr('height', (v) => height - y(v))
      .attr('fill', COLORS[kind])
      .append('title')
      .text((v, i) => `${kind === 'word' ? '‖x' : '‖p'}_${i}‖ (“${labels[i]}”) = ${fmt(v)}`);
  }
  const key = figure.appendChild(document.createElement('ul'));
  key.className = 'chart-key';
  for (const [kind, text] of [
    ['word', 'word vector ‖x_i‖'],
    ['position', 'positional encoding ‖p_i‖'],
  ]) {
    const item = key.appendChild(document.createElement('li'));
    item.appendChild(document.createElement('span')).style.background = COLORS[kind];
    item.append(text);
  }
  return figure;
}
