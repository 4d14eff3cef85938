// Operations of one layer against the sequence length n, on log–log axes (d2l.ai §11.6.2; Vaswani et al.
// 2017 Table 1): convolution k·n·d² and recurrence n·d² are lines of slope 1, self-attention n²·d a line of
// slope 2 that crosses them at n = d and n = k·d. The current sentence's n is marked. Pure: new DOM from
// core.layerCosts()'s result (with curves).
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLog } from 'd3-scale';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import { LAYER_ROWS } from './cost-table.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN = { top: 16, right: 124, bottom: 44, left: 64 };
const WIDTH = 480,
  HEIGHT = 300; // with the margins, within a 700 px column
const LABEL_GAP = 14; // pixels between stacked curve labels
const count = format(',');
const SUPERSCRIPT = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '-': '⁻' };

/** 10ⁿ for powers of ten, nothing for the ticks between them. */
function powerOfTen(value) {
  const exponent = Math.round(Math.log10(value));
  if (Math.abs(10 ** exponent - value) > 1e-9 * value) return '';
  return exponent <= 1 ? String(10 ** exponent) : `10${[...String(exponent)].map((c) => SUPERSCRIPT[c]).join('')}`;
}

/** Moves label positions apart (sorted top to bottom) so that no two are closer than LABEL_GAP. */
function spread(ys) {
  const order = ys.map((y, i) => [y, i]).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < order.length; i++) order[i][0] = Math.max(order[i][0], order[i - 1][0] + LABEL_GAP);
  const out = [];
  for (const [y, i] of order) out[i] = y;
  return out;
}

/**
 * @param {object} costs  core.layerCosts()'s result with curves over a range of n
 * @param {{ n: number, dModel: number, kernelSize: number }} sizes
 * @returns {HTMLElement} <figure data-figure="cost-plot">: path.series[data-kind], .crossing markers, .current-n
 */
export function costPlot(costs, { n, dModel, kernelSize }) {
  const { curves, crossings } = costs;
  const figure = document.createElement('figure');
  figure.className = 'cost-plot';
  figure.dataset.figure = 'cost-plot';
  figure.appendChild(document.createElement('figcaption')).textContent =
    `Operations per layer against the number of tokens n (log–log; d = ${dModel}, k = ${kernelSize})`;
  const ns = Array.from(curves.n);
  const x = scaleLog()
    .domain([ns[0], ns.at(-1)])
    .range([0, WIDTH]);
  const all = LAYER_ROWS.flatMap(({ kind }) => Array.from(curves[kind]));
  const y = scaleLog()
    .domain([Math.min(...all), Math.max(...all)])
    .range([HEIGHT, 0])
    .nice();
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', MARGIN.left + WIDTH + MARGIN.right)
    .attr('height', MARGIN.top + HEIGHT + MARGIN.bottom)
    .attr('role', 'img')
    .attr(
      'aria-label',
      `Log–log plot of operations against n: self-attention n²·d crosses recurrence n·d² at n = ${count(crossings.selfAttentionRecurrent)} ` +
        `and convolution k·n·d² at n = ${count(crossings.selfAttentionConvolution)}; this sentence has n = ${count(n)}`,
    );
  const plot = svg.append('g').attr('transform', `translate(${MARGIN.left}, ${MARGIN.top})`);
  plot
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0, ${HEIGHT})`)
    .call(axisBottom(x).ticks(5).tickFormat(powerOfTen));
  plot.append('g').attr('class', 'axis').call(axisLeft(y).ticks(8).tickFormat(powerOfTen));
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', MARGIN.left + WIDTH / 2)
    .attr('y', MARGIN.top + HEIGHT + 36)
    .attr('text-anchor', 'middle')
    .text('tokens n');
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(14, ${MARGIN.top + HEIGHT / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('operations per layer');

  // The current sentence.
  const current = plot.append('g').attr('class', 'current-n').attr('data-n', n);
  current.append('line').attr('x1', x(n)).attr('x2', x(n)).attr('y1', 0).attr('y2', HEIGHT);
  current
    .append('text')
    .attr('x', x(n) + 4)
    .attr('y', 10)
    .text(`this sentence: n = ${count(n)}`);

  // The curves, labelled at their right end (labels pushed apart when they would overlap).
  const path = line()
    .x((_, i) => x(ns[i]))
    .y((v) => y(v));
  for (const { kind } of LAYER_ROWS) {
    plot
      .append('path')
      .attr('class', `series series-${kind}`)
      .attr('data-kind', kind)
      .attr('fill', 'none')
      .attr('d', path(Array.from(curves[kind])));
  }
  const ends = spread(LAYER_ROWS.map(({ kind }) => y(curves[kind].at(-1))));
  LAYER_ROWS.forEach(({ kind, name }, i) => {
    const label = {
      convolution: `CNN k·n·d² (k = ${kernelSize})`,
      recurrent: 'RNN n·d²',
      selfAttention: 'self-attention n²·d',
    }[kind];
    plot
      .append('text')
      .attr('class', `curve-label label-${kind}`)
      .attr('data-kind', kind)
      .attr('x', WIDTH + 6)
      .attr('y', ends[i] + 4)
      .text(label)
      .append('title')
      .text(name);
  });

  // Where self-attention's cost meets the others'.
  const marks = [
    {
      at: crossings.selfAttentionRecurrent,
      text: `n = d = ${count(crossings.selfAttentionRecurrent)}`,
      with: 'recurrent',
    },
    {
      at: crossings.selfAttentionConvolution,
      text: `n = k·d = ${count(crossings.selfAttentionConvolution)}`,
      with: 'convolution',
    },
  ];
  // Each is marked on its curves and dropped to the n axis, where it is labelled (below every curve, the
  // plot is empty there): the first label left of its drop line, the second right of it, so they never meet.
  marks
    .filter(({ at }) => at >= ns[0] && at <= ns.at(-1))
    .forEach((mark, i) => {
      const ops = mark.at * mark.at * dModel; // n²·d at the crossing (= n·d² or k·n·d² there)
      const g = plot.append('g').attr('class', 'crossing').attr('data-with', mark.with).attr('data-n', mark.at);
      g.append('line')
        .attr('class', 'drop')
        .attr('x1', x(mark.at))
        .attr('x2', x(mark.at))
        .attr('y1', y(ops))
        .attr('y2', HEIGHT);
      g.append('circle').attr('cx', x(mark.at)).attr('cy', y(ops)).attr('r', 4.5);
      g.append('text')
        .attr('x', x(mark.at) + (i === 0 ? -5 : 5))
        .attr('y', HEIGHT - 8)
        .attr('text-anchor', i === 0 ? 'end' : 'start')
        .text(mark.text);
      g.append('title').text(
        `${mark.text}: self-attention and ${mark.with === 'recurrent' ? 'recurrence' : 'convolution'} both need ${count(ops)} operations`,
      );
    });

  const key = figure.appendChild(document.createElement('ul'));
  key.className = 'chart-key';
  for (const { kind, name } of LAYER_ROWS) {
    const item = key.appendChild(document.createElement('li'));
    item.appendChild(document.createElement('span')).className = `swatch-${kind}`;
    item.append(name);
  }
  return figure;
}
