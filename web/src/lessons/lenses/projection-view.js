// Context moves meaning: each token's word vector X_i and its attention output drawn in the plane of
// their first two principal components (PCA computed in the core), with an arrow from one to the
// other. In a comparison, two sentences share the axes, so one word's two contexts pull it apart.
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { tokenLabels } from '../../views/labels.js';
import { labelWidth, placeLabels } from '../../views/label-placement.js';
import { arrowMarkers, principalAxisTitles } from '../../views/pca-axes.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SIZE = 460;
const PAD = 36;
/** The comparison's two sentences' colours (also the trained comparison's: trained-context-view.js). */
export const SENTENCE_COLORS = ['#3b5bdb', '#e8590c'];
const COLORS = SENTENCE_COLORS;
const pct = format('.0%');
const FONT = '12px system-ui, sans-serif'; // as lenses.css sets for .projection-view text
const LABEL_HEIGHT = 14;
/** A label's width in pixels, in the plot's font. */
const textWidth = (text) => labelWidth(text, FONT);
let nextId = 0;

/** Points of one sentence: rows 0…n−1 of `coordinates` from `offset` are X, the next n the outputs. */
function points(trace, coordinates, offset) {
  const labels = tokenLabels(trace);
  const xy = (row) => [coordinates.data[2 * row], coordinates.data[2 * row + 1]];
  return labels.map((label, i) => ({ label, from: xy(offset + i), to: xy(offset + labels.length + i) }));
}

/**
 * @param {{ traces: object[], projection: { coordinates, variance } | null, sentences?: string[] }} input
 *   one trace with its own projection (trace.projection), or two traces of core.compareContexts()
 *   with their shared projection
 * @returns {HTMLElement} a <figure>
 */
export function projectionView({ traces, projection }) {
  const figure = document.createElement('figure');
  figure.className = 'projection-view';
  figure.dataset.figure = 'projection';
  const caption = figure.appendChild(document.createElement('figcaption'));
  if (!projection) {
    caption.textContent = 'Nothing to project yet.';
    return figure;
  }
  let offset = 0;
  const groups = traces.map((trace) => {
    const group = points(trace, projection.coordinates, offset);
    offset += 2 * trace.tokens.length;
    return group;
  });
  const all = groups.flat().flatMap((p) => [p.from, p.to]);
  const extent = (k) => [Math.min(...all.map((p) => p[k])), Math.max(...all.map((p) => p[k]))];
  const [x0, x1] = extent(0),
    [y0, y1] = extent(1);
  const half = (Math.max(x1 - x0, y1 - y0, 1e-6) / 2) * 1.1; // equal scales on both axes: distances stay true
  const cx = (x0 + x1) / 2,
    cy = (y0 + y1) / 2;
  const x = scaleLinear()
    .domain([cx - half, cx + half])
    .range([PAD, SIZE - PAD]);
  const y = scaleLinear()
    .domain([cy - half, cy + half])
    .range([SIZE - PAD, PAD]);
  const [v1, v2] = projection.variance.data;
  const total = v1 + v2;
  caption.textContent =
    `Word vectors (○) and what attention made of them (●), on their two principal components ` +
    `(PC 1 holds ${pct(v1 / (total || 1))} of the plotted variance): each arrow is how context moved a word.`;

  const id = nextId++;
  const marker = (g) => `projection-arrow-${id}-${g}`;
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', SIZE)
    .attr('height', SIZE)
    .attr('role', 'img')
    .attr('aria-label', 'Principal-component plot of word vectors and attention outputs');
  const defs = svg.append('defs');
  arrowMarkers(defs, COLORS, marker, 9);
  principalAxisTitles(svg, SIZE, SIZE);
  // Each word's label beside its word vector (○), placed so that labels neither overlap each other nor
  // cover a point; a thin leader joins a label pushed away from its point.
  const flat = groups.flat();
  const markers = flat.flatMap((p) => [
    { x: x(p.from[0]), y: y(p.from[1]), r: 4 },
    { x: x(p.to[0]), y: y(p.to[1]), r: 4 },
  ]);
  // A word repeated in a sentence has one word vector: its points coincide, and one label names them all (two labels
  // there were drawn over each other).
  // (Per sentence: in the comparison each sentence names its own words, in its colour.)
  const named = new Set();
  const first = groups.flatMap((group, g) =>
    group.map((p) => {
      const key = `${g}:${p.label}@${Math.round(x(p.from[0]))},${Math.round(y(p.from[1]))}`;
      return !named.has(key) && named.add(key);
    }),
  );
  const labelled = flat.filter((_, i) => first[i]);
  const placedFirst = placeLabels(
    labelled.map((p) => ({ x: x(p.from[0]), y: y(p.from[1]), width: textWidth(p.label), height: LABEL_HEIGHT })),
    markers,
    { width: SIZE, height: SIZE - PAD / 2 },
  );
  let n = 0;
  const placed = first.map((isFirst) => (isFirst ? placedFirst[n++] : null));
  let k = 0;
  groups.forEach((group, g) => {
    const color = COLORS[g];
    const layer = svg.append('g').attr('class', `sentence sentence-${g}`).attr('data-sentence', g);
    for (const p of group) {
      const at = placed[k++];
      const item = layer.append('g').attr('class', 'moved-token').attr('data-token', p.label);
      item
        .append('line')
        .attr('x1', x(p.from[0]))
        .attr('y1', y(p.from[1]))
        .attr('x2', x(p.to[0]))
        .attr('y2', y(p.to[1]))
        .attr('stroke', color)
        .attr('stroke-opacity', 0.7)
        .attr('stroke-width', 1.5)
        .attr('marker-end', `url(#${marker(g)})`);
      item
        .append('circle')
        .attr('cx', x(p.from[0]))
        .attr('cy', y(p.from[1]))
        .attr('r', 4)
        .attr('fill', 'white')
        .attr('stroke', color);
      item.append('circle').attr('cx', x(p.to[0])).attr('cy', y(p.to[1])).attr('r', 3.5).attr('fill', color);
      item.append('title').text(`"${p.label}": word vector → attention output`);
      if (!at) continue; // named by another label, or no free place for one: the title names it
      const nearest = [
        Math.max(at.x - textWidth(p.label) / 2, Math.min(x(p.from[0]), at.x + textWidth(p.label) / 2)),
        Math.max(at.y - LABEL_HEIGHT / 2, Math.min(y(p.from[1]), at.y + LABEL_HEIGHT / 2)),
      ];
      if (Math.hypot(nearest[0] - x(p.from[0]), nearest[1] - y(p.from[1])) > 12) {
        item
          .append('line')
          .attr('class', 'leader')
          .attr('x1', x(p.from[0]))
          .attr('y1', y(p.from[1]))
          .attr('x2', nearest[0])
          .attr('y2', nearest[1])
          .attr('stroke', color)
          .attr('stroke-opacity', 0.5)
          .attr('stroke-width', 0.75)
          .attr('stroke-dasharray', '2 2');
      }
      item
        .append('text')
        .attr('class', 'point-label')
        .attr('x', at.x)
        .attr('y', at.y)
        .attr('text-anchor', 'middle')
        .attr('dominant-baseline', 'central')
        .attr('fill', color)
        .text(p.label);
    }
  });
  if (traces.length > 1) {
    const key = figure.appendChild(document.createElement('p'));
    key.className = 'line-legend';
    traces.forEach((trace, g) => {
      const swatch = key.appendChild(document.createElement('span'));
      swatch.style.setProperty('--swatch', COLORS[g]);
      swatch.textContent = `“${trace.tokens.map((t) => t.text).join(' ')}”`;
    });
  }
  return figure;
}
