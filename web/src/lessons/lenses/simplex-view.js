// Attention weights as a choice on the simplex (Blondel, Martins & Niculae 2020): three keys' scores
// (bars, draggable), where each normalizer puts their weights on the triangle of all weight vectors,
// the level sets of the chosen normalizer's objective f(p) = ⟨p, s⟩/τ − Ω(p) (its point sits at their
// peak), and the two-token case as curves. Pure: new DOM from the data simplexData() computed.
import { axisBottom, axisLeft } from 'd3-axis';
import { contours } from 'd3-contour';
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { line, symbol, symbolCircle, symbolDiamond, symbolSquare, symbolTriangle } from 'd3-shape';
import { CORNERS, HEIGHT, toPoint } from './simplex-geometry.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const fmt = format('.2f');
/** Each normalizer's marker: colour (Okabe–Ito, colour-blind safe) and shape, so neither alone carries it. */
export const MARKERS = {
  softmax: { color: '#0072b2', shape: symbolCircle, label: 'softmax' },
  sparsemax: { color: '#d55e00', shape: symbolSquare, label: 'sparsemax' },
  entmax15: { color: '#009e73', shape: symbolDiamond, label: '1.5-entmax' },
  hardmax: { color: '#cc79a7', shape: symbolTriangle, label: 'hardmax' },
};
const LEVELS = 14;

function svgOf(width, height, label) {
  return select(document.createElementNS(SVG_NS, 'svg'))
    .attr('width', width)
    .attr('height', height)
    .attr('role', 'img')
    .attr('aria-label', label);
}

/** The three scores as bars on [−4, 4]; each bar's track carries data-score-index for dragging. */
function scoreBars({ scores }, range) {
  const width = 190,
    height = 250,
    margin = { top: 16, right: 8, bottom: 34, left: 38 };
  const y = scaleLinear()
    .domain(range)
    .range([height - margin.bottom, margin.top]);
  const x = (k) => margin.left + 14 + k * 46;
  const svg = svgOf(width, height, `Scores: ${scores.map((s, k) => `key ${k + 1} = ${fmt(s)}`).join(', ')}`).attr(
    'class',
    'score-bars',
  );
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${margin.left}, 0)`).call(axisLeft(y).ticks(8));
  svg
    .append('line')
    .attr('class', 'zero-line')
    .attr('x1', margin.left)
    .attr('x2', width - margin.right)
    .attr('y1', y(0))
    .attr('y2', y(0));
  scores.forEach((s, k) => {
    const g = svg.append('g').attr('class', 'score-bar');
    g.append('rect')
      .attr('class', 'score-track')
      .attr('data-score-index', k)
      .attr('x', x(k) - 4)
      .attr('width', 36)
      .attr('y', y(range[1]))
      .attr('height', y(range[0]) - y(range[1]));
    g.append('rect')
      .attr('class', 'score-fill')
      .attr('x', x(k) + 4)
      .attr('width', 20)
      .attr('y', Math.min(y(s), y(0)))
      .attr('height', Math.abs(y(s) - y(0)));
    g.append('circle')
      .attr('class', 'score-handle')
      .attr('data-score-index', k)
      .attr('cx', x(k) + 14)
      .attr('cy', y(s))
      .attr('r', 7);
    g.append('text')
      .attr('class', 'score-value')
      .attr('x', x(k) + 14)
      .attr('y', y(s) + (s >= 0 ? -11 : 20))
      .attr('text-anchor', 'middle')
      .text(fmt(s));
    g.append('text')
      .attr('class', 'axis-title')
      .attr('x', x(k) + 14)
      .attr('y', height - 12)
      .attr('text-anchor', 'middle')
      .text(`key ${k + 1}`);
  });
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(11, ${(height - margin.bottom + margin.top) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('score s');
  return svg.node();
}

/** "M x,y L … Z" for a d3-contour MultiPolygon, from raster coordinates through `project`. */
function contourPath(multiPolygon, project) {
  return multiPolygon.coordinates
    .map((polygon) => polygon.map((ring) => `M${ring.map(([c, r]) => project(c, r).join(',')).join('L')}Z`).join(''))
    .join('');
}

/** The triangle: level sets of f for data.levelSets, each normalizer's point, labelled corners. */
function triangle(data) {
  const size = 330,
    pad = 34,
    side = size - 2 * pad;
  const X = (x) => pad + x * side,
    Y = (y) => pad + y * side;
  const { columns, rows, values } = data.raster;
  const svg = svgOf(
    size,
    pad * 2 + HEIGHT * side + 8,
    `The simplex of three weights with each normalizer's point: ${Object.entries(data.points)
      .map(([m, p]) => `${MARKERS[m].label} ${p.map(fmt).join(', ')}`)
      .join('; ')}`,
  ).attr('class', 'simplex');
  const outline = CORNERS.map(([x, y]) => [X(x), Y(y)]);
  const id = `simplex-clip-${Math.random().toString(36).slice(2)}`;
  svg
    .append('clipPath')
    .attr('id', id)
    .append('polygon')
    .attr('points', outline.map((p) => p.join(',')).join(' '));
  const [lo, hi] = values.reduce(([a, b], v) => [Math.min(a, v), Math.max(b, v)], [Infinity, -Infinity]);
  const thresholds = Array.from({ length: LEVELS }, (_, k) => lo + ((hi - lo) * (k + 1)) / (LEVELS + 1));
  const project = (c, r) => [X(c / columns), Y((r / rows) * HEIGHT)];
  const opacity = scaleLinear().domain([lo, hi]).range([0.25, 0.95]);
  const levels = svg.append('g').attr('class', 'level-sets').attr('clip-path', `url(#${id})`);
  for (const band of contours().size([columns, rows]).thresholds(thresholds)(Array.from(values))) {
    levels
      .append('path')
      .attr('d', contourPath(band, project))
      .attr('stroke-opacity', opacity(band.value))
      .attr('data-level', band.value);
  }
  svg
    .append('polygon')
    .attr('class', 'simplex-outline')
    .attr('points', outline.map((p) => p.join(',')).join(' '));
  const cornerText = [
    ['key 1', 0, -12, 'middle'],
    ['key 2', -6, 20, 'start'],
    ['key 3', 6, 20, 'end'],
  ];
  cornerText.forEach(([text, dx, dy, anchor], k) => {
    svg
      .append('text')
      .attr('class', 'corner-label')
      .attr('x', outline[k][0] + dx)
      .attr('y', outline[k][1] + dy)
      .attr('text-anchor', anchor)
      .text(`${text} (p${'₁₂₃'[k]} = 1)`);
  });
  for (const [method, p] of Object.entries(data.points)) {
    const [x, y] = toPoint(p);
    const marker = MARKERS[method];
    svg
      .append('path')
      .attr('class', 'normalizer-point')
      .attr('data-method', method)
      .attr('data-weights', p.join(','))
      .attr('transform', `translate(${X(x)}, ${Y(y)})`)
      .attr('d', symbol(marker.shape, 90)())
      .attr('fill', marker.color)
      .append('title')
      .text(`${marker.label}: ${p.map(fmt).join(', ')}`);
  }
  return svg.node();
}

/** p₁ for two tokens with scores [Δ, 0], against Δ, for every normalizer; the current s₁ − s₂ marked. */
function twoTokenCurves(data) {
  const width = 330,
    height = 250,
    margin = { top: 16, right: 12, bottom: 40, left: 46 };
  const { deltas, weights } = data.curves;
  const x = scaleLinear()
    .domain([deltas[0], deltas.at(-1)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([height - margin.bottom, margin.top]);
  const svg = svgOf(
    width,
    height,
    'Two tokens: the weight on the first against the score difference, for each normalizer',
  ).attr('class', 'two-token');
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0, ${height - margin.bottom})`)
    .call(axisBottom(x).ticks(7));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${margin.left}, 0)`).call(axisLeft(y).ticks(5));
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', (margin.left + width - margin.right) / 2)
    .attr('y', height - 6)
    .attr('text-anchor', 'middle')
    .text('s₁ − s₂ (two tokens)');
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(12, ${(height - margin.bottom + margin.top) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('weight p₁');
  const delta = Math.max(deltas[0], Math.min(deltas.at(-1), data.scores[0] - data.scores[1]));
  svg
    .append('line')
    .attr('class', 'current-delta')
    .attr('x1', x(delta))
    .attr('x2', x(delta))
    .attr('y1', y(0))
    .attr('y2', y(1));
  const path = line()
    .x((_, i) => x(deltas[i]))
    .y((p) => y(p));
  for (const [method, p] of Object.entries(weights)) {
    svg
      .append('path')
      .attr('class', 'series')
      .attr('data-series', method)
      .attr('fill', 'none')
      .attr('stroke', MARKERS[method].color)
      .attr('stroke-width', 1.8)
      .attr('d', path(p));
  }
  return svg.node();
}

/**
 * @param {object} data  simplexData(): { scores, temperature, levelSets, points, raster, curves }
 * @param {{ range: [number, number] }} options  the scores' axis
 * @returns {HTMLElement} a <figure data-figure="simplex">
 */
export function simplexView(data, { range }) {
  const figure = document.createElement('figure');
  figure.className = 'simplex-figure';
  figure.dataset.figure = 'simplex';
  const name = MARKERS[data.levelSets].label;
  figure.appendChild(document.createElement('figcaption')).textContent =
    `Drag the three scores (or use the sliders). Each normalizer's weights p = normalize(s/τ), τ = ${fmt(data.temperature)}, ` +
    `are a point of the triangle; a corner is all weight on one key, an edge an exact zero. ` +
    `Grey lines: level sets of ${name}'s objective f(p) = ⟨p, s⟩/τ − Ω(p); ${name}'s point sits at their peak.`;
  const panels = figure.appendChild(document.createElement('div'));
  panels.className = 'side-by-side simplex-panels';
  panels.append(scoreBars(data, range), triangle(data), twoTokenCurves(data));
  const key = figure.appendChild(document.createElement('ul'));
  key.className = 'simplex-key';
  for (const [method, p] of Object.entries(data.points)) {
    const item = key.appendChild(document.createElement('li'));
    item.dataset.method = method;
    const swatch = select(item).append('svg').attr('width', 14).attr('height', 14).attr('aria-hidden', 'true');
    swatch
      .append('path')
      .attr('transform', 'translate(7, 7)')
      .attr('d', symbol(MARKERS[method].shape, 70)())
      .attr('fill', MARKERS[method].color);
    item.append(` ${MARKERS[method].label}: p = (${p.map(fmt).join(', ')})`);
  }
  return figure;
}
