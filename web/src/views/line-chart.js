// Curves over positions (or any integer axis, such as training steps): one SVG path per series, axes, a
// legend, optional threshold lines, labelled vertical markers, and a hover rule reading every series at
// the pointer. Pure: new DOM from its arguments.
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear, scaleLog } from 'd3-scale';
import { pointer, select } from 'd3-selection';
import { line } from 'd3-shape';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN = { top: 12, right: 16, bottom: 40, left: 64 };
const MARKER_BAND = 18; // above the plot: the markers' numbers, so they never cross a curve
const TICK_PX = 80; // room per x tick label: "10,000" takes about 40 px at 12 px
const LOG_FLOOR = 1e-9; // a log axis cannot show 0: exact zeros sit on the floor
const Y_TICK_CHAR_PX = 7; // width of a y tick label's character (12 px digits), to keep the axis title clear of them
const Y_TICK_PX = 9; // d3-axis's tick (6 px) and padding (3 px) between the axis and its labels
// The turned y title: its baseline Y_TITLE_GAP_PX left of the tick labels (its descenders reach 3 px right of it), its
// glyphs about 11 px left of that; Y_TITLE_PX holds both.
const Y_TITLE_GAP_PX = 7;
const Y_TITLE_PX = 20;

/**
 * @param {object} spec
 * @param {string} spec.name      data-figure name
 * @param {string} spec.caption
 * @param {{ label: string, values: ArrayLike<number>, color: string }[]} spec.series  y at x = 0, 1, …
 * @param {string} spec.xTitle @param {string} spec.yTitle
 * @param {boolean} [spec.log]    logarithmic y axis (values below LOG_FLOOR drawn at it)
 * @param {[number, number]} [spec.yDomain]
 * @param {{ value: number, label: string }[]} [spec.thresholds]  dashed horizontal lines (reference levels), each labelled at its right end
 * @param {ArrayLike<number>} [spec.x]  the x of each point (increasing integers), default 0, 1, …
 * @param {{ x: number, label: string }[]} [spec.markers]  in increasing x: dashed vertical lines, numbered above the plot (markers
 *   closer than a number's width share one label, "1, 2") and listed with their labels under it
 * @param {string} [spec.pointName]  what the readout calls a point: 'position' (default), 'step', …
 * @param {number} [spec.width] @param {number} [spec.height]  of the plot area, pixels
 * @returns {HTMLElement} a <figure>
 */
export function lineChart({
  name,
  caption,
  series,
  xTitle,
  yTitle,
  log = false,
  yDomain,
  thresholds = [],
  x: xs,
  markers = [],
  pointName = 'position',
  width = 520,
  height = 200,
}) {
  const figure = document.createElement('figure');
  figure.className = 'line-chart';
  figure.dataset.figure = name;
  figure.appendChild(document.createElement('figcaption')).textContent = caption;
  const count = Math.max(1, ...series.map((s) => s.values.length));
  const xAt = (i) => (xs ? xs[i] : i);
  const first = xAt(0) ?? 0,
    last = xAt(count - 1) ?? first;
  const x = scaleLinear()
    .domain([first, Math.max(first + 1, last)])
    .range([0, width]);
  const clampY = (v) => (log ? Math.max(v, LOG_FLOOR) : v);
  const all = series.flatMap((s) => Array.from(s.values, clampY));
  const levels = thresholds.map((t) => t.value);
  const [low, high] = yDomain ?? [Math.min(...all, ...levels), Math.max(...all, ...levels)];
  // One value (a single point, a flat line) still gets an axis around it.
  const domain = high > low ? [low, high] : log ? [low / 2, low * 2] : [low - 0.5, high + 0.5];
  const y = (log ? scaleLog() : scaleLinear()).domain(domain).range([height, 0]).nice();

  const top = MARGIN.top + (markers.length ? MARKER_BAND : 0);
  // The y ticks' labels decide how far left the y title goes, and the left margin grows to hold both.
  const yTickCount = log ? 6 : 5;
  const yFormat = y.tickFormat(yTickCount, log ? '~g' : undefined);
  const tickLabelPx = Y_TICK_CHAR_PX * Math.max(0, ...y.ticks(yTickCount).map((v) => yFormat(v).length)) + Y_TICK_PX;
  const left = Math.max(MARGIN.left, Math.ceil(tickLabelPx + Y_TITLE_PX));
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', left + width + MARGIN.right)
    .attr('height', top + height + MARGIN.bottom)
    .attr('viewBox', `0 0 ${left + width + MARGIN.right} ${top + height + MARGIN.bottom}`)
    .attr('role', 'img')
    .attr('aria-label', `${caption} (${series.map((s) => s.label).join(', ')})`);
  const plot = svg.append('g').attr('class', 'plot').attr('transform', `translate(${left}, ${top})`);
  // As many x ticks as fit their labels, in d3's tick format ("10,000"): eight ticks in 420 px ran together ("100001100").
  const xCount = Math.max(2, Math.floor(width / TICK_PX));
  plot
    .append('g')
    .attr('class', 'axis x-axis')
    .attr('transform', `translate(0, ${height})`)
    .call(axisBottom(x).tickValues(x.ticks(xCount).filter(Number.isInteger)).tickFormat(x.tickFormat(xCount, ',~f')));
  // d3's log tick format with "~g": plain numbers (0.1, 2, 10), the ticks with no room left unlabelled (".0e" read "1e+1, 6e+0").
  plot.append('g').attr('class', 'axis y-axis').call(axisLeft(y).ticks(yTickCount).tickFormat(yFormat));
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', left + width / 2)
    .attr('y', top + height + 34)
    .attr('text-anchor', 'middle')
    .text(xTitle);
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(${left - tickLabelPx - Y_TITLE_GAP_PX}, ${top + height / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(yTitle);
  for (const threshold of thresholds) {
    plot
      .append('line')
      .attr('class', 'threshold')
      .attr('x1', 0)
      .attr('x2', width)
      .attr('y1', y(threshold.value))
      .attr('y2', y(threshold.value))
      .attr('data-threshold', threshold.label);
    plot
      .append('text')
      .attr('class', 'threshold-label')
      .attr('x', width - 4)
      .attr('y', y(threshold.value) - 4)
      .attr('text-anchor', 'end')
      .text(threshold.label);
  }
  drawMarkers(figure, plot, markers, x, { width, height, pointName });
  const path = line()
    .x((_, i) => x(xAt(i)))
    .y((v) => y(clampY(v)));
  // The curves keep to the plot area: with a yDomain, what lies outside it runs off the edge instead of over the axes.
  const area = plot
    .append('svg')
    .attr('class', 'series-area')
    .attr('width', width)
    .attr('height', height)
    .attr('overflow', 'hidden');
  for (const s of series) {
    area
      .append('path')
      .attr('class', 'series')
      .attr('fill', 'none')
      .attr('stroke', s.color)
      .attr('stroke-width', 1.6)
      .attr('d', path(Array.from(s.values)))
      .attr('data-series', s.label);
  }
  addReadout(figure, plot, { series, x, xAt, pointName, width, height });

  const key = figure.appendChild(document.createElement('ul'));
  key.className = 'chart-key';
  for (const s of series) {
    const item = key.appendChild(document.createElement('li'));
    item.appendChild(document.createElement('span')).style.background = s.color;
    item.append(s.label);
  }
  return figure;
}

const MARKER_DIGIT_PX = 7; // a digit, comma or space of an 11 px marker number, a little generously

/**
 * Dashed lines at the markers' x; above the plot, each line's number (markers whose numbers would touch
 * share one: "1, 2"), and under the plot the numbered list of their labels, where long labels wrap
 * instead of running into each other or into the curves.
 */
function drawMarkers(figure, plot, markers, x, { width, height, pointName }) {
  if (!markers.length) return;
  const groups = []; // { x (px), numbers }
  markers.forEach((marker, i) => {
    plot
      .append('line')
      .attr('class', 'marker')
      .attr('data-x', marker.x)
      .attr('x1', x(marker.x))
      .attr('x2', x(marker.x))
      .attr('y1', -4)
      .attr('y2', height);
    const last = groups[groups.length - 1];
    const text = (numbers) => numbers.join(', ');
    const half = (numbers) => (text(numbers).length * MARKER_DIGIT_PX) / 2;
    if (last && x(marker.x) - half([i + 1]) < last.x + half(last.numbers) + 4) last.numbers.push(i + 1);
    else groups.push({ x: x(marker.x), numbers: [i + 1] });
  });
  for (const group of groups) {
    const label = group.numbers.join(', ');
    const half = (label.length * MARKER_DIGIT_PX) / 2;
    plot
      .append('text')
      .attr('class', 'marker-number')
      .attr('data-markers', label)
      .attr('x', Math.max(half, Math.min(width - half, group.x)))
      .attr('y', -MARKER_BAND + 10)
      .attr('text-anchor', 'middle')
      .text(label);
  }
  const list = figure.appendChild(document.createElement('ol'));
  list.className = 'chart-markers';
  for (const marker of markers)
    list.appendChild(document.createElement('li')).textContent = `${pointName} ${marker.x}: ${marker.label}`;
}

const readoutFormat = format('.3~g');

/** A vertical rule following the pointer and a line of text with every series' value there. */
function addReadout(figure, plot, { series, x, xAt, pointName, width, height }) {
  const rule = plot
    .append('line')
    .attr('class', 'hover-rule')
    .attr('y1', 0)
    .attr('y2', height)
    .attr('visibility', 'hidden');
  const readout = figure.appendChild(document.createElement('p'));
  readout.className = 'chart-readout';
  readout.setAttribute('aria-live', 'polite');
  readout.textContent = 'Hover the plot to read the values.';
  plot
    .append('rect')
    .attr('width', width)
    .attr('height', height)
    .attr('fill', 'transparent')
    .on('pointermove', (event) => {
      const [px] = pointer(event, plot.node());
      const i = nearest(x.invert(px), xAt, Math.max(...series.map((s) => s.values.length)));
      rule
        .attr('x1', x(xAt(i)))
        .attr('x2', x(xAt(i)))
        .attr('visibility', 'visible');
      readout.textContent =
        `${pointName} ${xAt(i)}: ` + series.map((s) => `${s.label} ${readoutFormat(s.values[i] ?? NaN)}`).join(' · ');
    })
    .on('pointerleave', () => rule.attr('visibility', 'hidden'));
}

/** The index of the point whose x (xAt, increasing over 0 … count − 1) is nearest to `value`. */
function nearest(value, xAt, count) {
  let lo = 0,
    hi = Math.max(0, count - 1);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xAt(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && value - xAt(lo - 1) < xAt(lo) - value ? lo - 1 : lo;
}
