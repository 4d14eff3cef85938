// Context moves meaning, trained: one word's vector in the comparison's two sentences at each stage of a trained
// model — its word vector, the first block's input (+ P), each layer's output — as two paths on shared principal axes
// that start at one point, and beside them the cosine between the two vectors at each stage (trained-context.js).
import { axisBottom, axisLeft } from 'd3-axis';
import { format } from 'd3-format';
import { scalePoint, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import { modelFacts, modelKindName } from '../../models/model-facts.js';
import { labelWidth, placeLabels } from '../../views/label-placement.js';
import { SENTENCE_COLORS as COLORS } from './projection-view.js';
import { arrowMarkers, principalAxisTitles } from '../../views/pca-axes.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SIZE = 340;
const PAD = 34;
const MIN_HEIGHT = 200; // of the paths' plot, pixels: room for its labels when the points lie almost on a line
const FONT = '12px system-ui, sans-serif'; // as lenses.css sets for .context-trained text
const LABEL_HEIGHT = 14;
const COSINE = { width: 250, height: 150, margin: { top: 40, right: 12, bottom: 34, left: 46 } };
const pct = format('.0%');
let nextId = 0;

/** A stage's short name (axis ticks, point labels) and what it is. */
export function stageName({ id, layer }) {
  return id === 'word' ? 'x' : id === 'input' ? 'x + P' : `layer ${layer}`;
}

const STAGE_KEY =
  'x: the word vector (GloVe), the same row in both sentences — before attention and before position. ' +
  'x + P: its position added: the first layer’s input, still before attention. layer 1, layer 2: each block’s output ' +
  '(attention, then the feed-forward layer, each with Add & Norm).';

/** An empty <figure data-figure="context-trained">. */
function shell() {
  const figure = document.createElement('figure');
  figure.className = 'context-trained';
  figure.dataset.figure = 'context-trained';
  return figure;
}

/** What stands in for the figure while there is nothing to draw: the figure holding one line. */
function note(text, className = 'empty-figure') {
  const figure = shell();
  const line = figure.appendChild(document.createElement('p'));
  line.className = className;
  line.textContent = text;
  return figure;
}

/** The two paths on the principal axes, every stage's point labelled. */
function pathsPlot({ stages, word }) {
  const all = stages.flatMap((s) => s.points);
  const extent = (k) => [Math.min(...all.map((p) => p[k])), Math.max(...all.map((p) => p[k]))];
  const [[x0, x1], [y0, y1]] = [extent(0), extent(1)];
  // Equal scales on both axes (distances stay true), the plot as tall as the points need: PC 2 spans less than PC 1.
  const span = (a, b) => Math.max(b - a, 1e-6) * 1.15;
  const k = (SIZE - 2 * PAD) / Math.max(span(x0, x1), span(y0, y1));
  const height = Math.max(MIN_HEIGHT, Math.min(SIZE, span(y0, y1) * k + 2 * PAD));
  const cx = (x0 + x1) / 2,
    cy = (y0 + y1) / 2;
  const x = scaleLinear()
    .domain([cx - (SIZE / 2 - PAD) / k, cx + (SIZE / 2 - PAD) / k])
    .range([PAD, SIZE - PAD]);
  const y = scaleLinear()
    .domain([cy - (height / 2 - PAD) / k, cy + (height / 2 - PAD) / k])
    .range([height - PAD, PAD]);
  const id = nextId++;
  const svg = select(document.createElementNS(SVG_NS, 'svg'))
    .attr('viewBox', `0 0 ${SIZE} ${height}`)
    .attr('width', SIZE)
    .attr('class', 'context-paths')
    .attr('role', 'img')
    .attr('aria-label', `“${word}” in both sentences at each stage of the model, on the first two principal axes`);
  const defs = svg.append('defs');
  arrowMarkers(defs, COLORS, (s) => `context-arrow-${id}-${s}`, 10);
  principalAxisTitles(svg, SIZE, height);
  // One label per point, and one for the word vector when both sentences' points coincide (they do: the same row).
  const labels = [];
  stages.forEach((stage, k) =>
    stage.points.forEach((p, s) => {
      const together =
        Math.hypot(x(stage.points[0][0]) - x(stage.points[1][0]), y(stage.points[0][1]) - y(stage.points[1][1])) < 1;
      if (together && s === 1) return;
      const text = together ? `${stageName(stage)} (both)` : stageName(stage);
      labels.push({
        stage: k,
        sentence: together ? null : s,
        text,
        x: x(p[0]),
        y: y(p[1]),
        width: labelWidth(text, FONT),
        height: LABEL_HEIGHT,
      });
    }),
  );
  const markers = all.map((p) => ({ x: x(p[0]), y: y(p[1]), r: 4.5 }));
  const placed = placeLabels(labels, markers, { width: SIZE, height: height - PAD / 2 });
  [0, 1].forEach((s) => {
    const group = svg.append('g').attr('class', `sentence sentence-${s}`).attr('data-sentence', s);
    stages.slice(1).forEach((stage, k) => {
      const [a, b] = [stages[k].points[s], stage.points[s]];
      // Each segment stops short of its end point's disc, so the arrowhead shows.
      const length = Math.hypot(x(b[0]) - x(a[0]), y(b[1]) - y(a[1])) || 1;
      const shorten = Math.min(5, length / 2) / length;
      group
        .append('line')
        .attr('x1', x(a[0]))
        .attr('y1', y(a[1]))
        .attr('x2', x(b[0]) - (x(b[0]) - x(a[0])) * shorten)
        .attr('y2', y(b[1]) - (y(b[1]) - y(a[1])) * shorten)
        .attr('stroke', COLORS[s])
        .attr('stroke-opacity', 0.75)
        .attr('stroke-width', 1.5)
        .attr('marker-end', `url(#context-arrow-${id}-${s})`);
    });
    stages.forEach((stage, k) => {
      const [px, py] = stage.points[s];
      group
        .append('circle')
        .attr('class', 'stage-point')
        .attr('data-stage', k)
        .attr('cx', x(px))
        .attr('cy', y(py))
        .attr('r', 4)
        .attr('fill', k === 0 ? 'white' : COLORS[s])
        .attr('stroke', COLORS[s])
        .append('title')
        .text(`“${word}”, sentence ${s + 1}: ${stageName(stage)}`);
    });
  });
  labels.forEach((label, n) => {
    if (!placed[n]) return; // no free place (a model of many layers): its point's title names it
    svg
      .append('text')
      .attr('class', 'point-label')
      .attr('x', placed[n].x)
      .attr('y', placed[n].y)
      .attr('text-anchor', 'middle')
      .attr('dominant-baseline', 'central')
      .attr('fill', label.sentence === null ? 'currentColor' : COLORS[label.sentence])
      .text(label.text);
  });
  return svg.node();
}

/** The cosine between the two vectors at each stage: a line over the stages, each point with its value. */
function cosinePlot({ stages, word }) {
  const { width, height, margin } = COSINE;
  const names = stages.map(stageName);
  const x = scalePoint().domain(names).range([0, width]).padding(0.3);
  const y = scaleLinear()
    .domain([Math.min(0, ...stages.map((s) => s.cosine)), 1])
    .range([height, 0])
    .nice();
  const svg = select(document.createElementNS(SVG_NS, 'svg'))
    .attr('viewBox', `0 0 ${width + margin.left + margin.right} ${height + margin.top + margin.bottom}`)
    .attr('width', width + margin.left + margin.right)
    .attr('class', 'context-cosines')
    .attr('role', 'img')
    .attr(
      'aria-label',
      `Cosine between the two “${word}” vectors at each stage: ${stages.map((s, k) => `${names[k]} ${s.cosine.toFixed(2)}`).join(', ')}`,
    );
  const plot = svg.append('g').attr('transform', `translate(${margin.left}, ${margin.top})`);
  plot
    .append('g')
    .attr('class', 'axis stage-axis')
    .attr('transform', `translate(0, ${height})`)
    .call(axisBottom(x).tickSizeOuter(0));
  plot.append('g').attr('class', 'axis').call(axisLeft(y).ticks(5));
  plot
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(${-36}, ${height / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('cosine');
  plot
    .append('text')
    .attr('class', 'plot-title')
    .attr('x', -margin.left)
    .attr('y', -28)
    .text(`cosine between the two “${word}” vectors`);
  plot
    .append('path')
    .attr('d', line()(stages.map((s, k) => [x(names[k]), y(s.cosine)])))
    .attr('fill', 'none')
    .attr('stroke', 'currentColor')
    .attr('stroke-width', 1.5);
  stages.forEach((stage, k) => {
    const at = plot
      .append('g')
      .attr('class', 'stage-cosine')
      .attr('data-stage', k)
      .attr('data-cosine', String(stage.cosine));
    at.append('circle').attr('cx', x(names[k])).attr('cy', y(stage.cosine)).attr('r', 3.5).attr('fill', 'currentColor');
    at.append('text')
      .attr('class', 'cosine-value')
      .attr('x', x(names[k]))
      .attr('y', y(stage.cosine) - 8)
      .attr('text-anchor', 'middle')
      .text(stage.cosine.toFixed(2));
  });
  return svg.node();
}

/**
 * @param {object} data  trained-context.js contextData(), or {} (lens-data.js NOTHING: it failed before it ever
 *   worked, and the section's message says why)
 * @returns {HTMLElement} a <figure data-figure="context-trained">: the paths' <svg class="context-paths"> (a <circle
 *   data-stage> per stage and sentence) and the cosines' <svg class="context-cosines"> (a <g class="stage-cosine" data-stage
 *   data-cosine> per stage, its value as text)
 */
export function contextTrainedView(data) {
  if (!data.closed && !data.kind) return shell();
  if (data.closed)
    return note(
      'Compare “bank” (the button above) to follow one word through the trained model’s layers in two sentences.',
    );
  if (data.error) return note(`The trained model could not be loaded: ${data.error}`, 'status error');
  if (data.loading) return note('Loading the trained model (once; about 2 MB)…');
  const name = modelKindName(data.config);
  if (data.noShared)
    return note(
      'The two sentences share no word: type one word in both to follow it through the trained ' + name + '.',
    );
  const { word, stages, variance, positions, tokens } = data;
  const figure = shell();
  const caption = figure.appendChild(document.createElement('figcaption'));
  caption.textContent =
    `“${word}” in the two sentences, through the trained ${name}: its vector at each stage, on the first two ` +
    `principal axes of these ${2 * stages.length} points (PC 1 holds ${pct(variance[0] / (variance[0] + variance[1] || 1))} of the ` +
    `plotted variance), and the cosine between its two vectors.`;
  const facts = figure.appendChild(document.createElement('p'));
  facts.className = 'hint model-facts';
  facts.textContent = modelFacts(data.config);
  const key = figure.appendChild(document.createElement('p'));
  key.className = 'line-legend';
  tokens.forEach((sentence, s) => {
    const swatch = key.appendChild(document.createElement('span'));
    swatch.style.setProperty('--swatch', COLORS[s]);
    swatch.textContent = `“${sentence.join(' ')}”`;
  });
  const plots = figure.appendChild(document.createElement('div'));
  plots.className = 'context-plots';
  plots.append(pathsPlot(data), cosinePlot(data));
  const stagesKey = figure.appendChild(document.createElement('p'));
  stagesKey.className = 'hint stage-key';
  stagesKey.textContent = STAGE_KEY;
  if (data.leftToRight) {
    // The decoder's causal mask: the word's vector can only take in the words before it.
    const seen = tokens.map((sentence, s) => `“${sentence.slice(0, positions[s] + 1).join(' ')}”`);
    stagesKey.textContent +=
      ` The decoder reads left to right (causal mask): here “${word}” sees only ${seen[0]} and ${seen[1]}; ` +
      'choose the trained encoder to let it see both sides.';
  }
  return figure;
}
