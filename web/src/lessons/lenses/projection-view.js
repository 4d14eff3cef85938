// Context moves meaning: each token's word vector X_i and its attention output drawn in the plane of
// their first two principal components (PCA computed in the core), with an arrow from one to the
// other. In a comparison, two sentences share the axes, so one word's two contexts pull it apart.
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { setAttrs, setHidden, setStyle, setText } from '../../views/dom-update.js';
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

/** The figure's parts made once: its caption, the plot with its arrowheads and axis titles, the comparison's key. */
function skeleton() {
  const figure = document.createElement('figure');
  figure.className = 'projection-view';
  figure.dataset.figure = 'projection';
  figure.appendChild(document.createElement('figcaption'));
  const id = nextId++;
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', SIZE)
    .attr('height', SIZE)
    .attr('role', 'img')
    .attr('aria-label', 'Principal-component plot of word vectors and attention outputs');
  arrowMarkers(svg.append('defs'), COLORS, (g) => `projection-arrow-${id}-${g}`, 9);
  principalAxisTitles(svg, SIZE, SIZE);
  figure.dataset.markers = String(id);
  const key = figure.appendChild(document.createElement('p'));
  key.className = 'line-legend';
  return figure;
}

/**
 * @param {{ traces: object[], projection: { coordinates, variance } | null, sentences?: string[] }} input
 *   one trace with its own projection (trace.projection), or two traces of core.compareContexts()
 *   with their shared projection
 * @param {HTMLElement} [last]  the figure drawn before: updated in place (its points, arrows and labels rewritten, the
 *   words joined by position), not rebuilt
 * @returns {HTMLElement} a <figure>
 */
export function projectionView({ traces, projection }, last) {
  const figure = last?.dataset.figure === 'projection' && last.dataset.markers ? last : skeleton();
  const caption = figure.querySelector(':scope > figcaption');
  const svgNode = figure.querySelector(':scope > svg');
  const key = figure.querySelector(':scope > .line-legend');
  setHidden(svgNode, !projection);
  if (!projection) {
    setText(caption, 'Nothing to project yet.');
    setHidden(key, true);
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
  setText(
    caption,
    `Word vectors (○) and what attention made of them (●), on their two principal components ` +
      `(PC 1 holds ${pct(v1 / (total || 1))} of the plotted variance): each arrow is how context moved a word.`,
  );
  const marker = (g) => `projection-arrow-${figure.dataset.markers}-${g}`;
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
  select(svgNode)
    .selectAll('g.sentence')
    .data(groups)
    .join((enter) =>
      enter
        .append('g')
        .attr('class', (_, g) => `sentence sentence-${g}`)
        .attr('data-sentence', (_, g) => g),
    )
    .each(function (group, g) {
      const color = COLORS[g];
      select(this)
        .selectAll('g.moved-token')
        .data(group)
        .join((enter) => {
          const item = enter.append('g').attr('class', 'moved-token');
          item.append('line').attr('class', 'arrow').attr('stroke-opacity', 0.7).attr('stroke-width', 1.5);
          item.append('circle').attr('class', 'from').attr('r', 4).attr('fill', 'white');
          item.append('circle').attr('class', 'to').attr('r', 3.5);
          item.append('title');
          item
            .append('line')
            .attr('class', 'leader')
            .attr('stroke-opacity', 0.5)
            .attr('stroke-width', 0.75)
            .attr('stroke-dasharray', '2 2');
          item
            .append('text')
            .attr('class', 'point-label')
            .attr('text-anchor', 'middle')
            .attr('dominant-baseline', 'central');
          return item;
        })
        .each(function (p) {
          drawToken(this, p, placed[k++], { x, y, color, marker: marker(g) });
        });
    });
  setHidden(key, traces.length < 2);
  if (traces.length > 1) {
    const swatches = traces.map((trace) => `“${trace.tokens.map((t) => t.text).join(' ')}”`);
    select(key)
      .selectAll('span')
      .data(swatches)
      .join('span')
      .each(function (text, g) {
        setStyle(this, { '--swatch': COLORS[g] });
        setText(this, text);
      });
  }
  return figure;
}

/**
 * One word's parts (skeleton's join): its arrow from word vector to attention output, the two points, the title, and its
 * label at `at` (with a leader when pushed away from its point), or none (named by another label, or no free place).
 */
function drawToken(item, p, at, { x, y, color, marker }) {
  const [arrow, from, to, title, leader, label] = item.children;
  const [fx, fy, tx, ty] = [x(p.from[0]), y(p.from[1]), x(p.to[0]), y(p.to[1])];
  setAttrs(item, { 'data-token': p.label });
  setAttrs(arrow, { x1: fx, y1: fy, x2: tx, y2: ty, stroke: color, 'marker-end': `url(#${marker})` });
  setAttrs(from, { cx: fx, cy: fy, stroke: color });
  setAttrs(to, { cx: tx, cy: ty, fill: color });
  setText(title, `"${p.label}": word vector → attention output`);
  setHidden(label, !at);
  const width = textWidth(p.label);
  const nearest = at && [
    Math.max(at.x - width / 2, Math.min(fx, at.x + width / 2)),
    Math.max(at.y - LABEL_HEIGHT / 2, Math.min(fy, at.y + LABEL_HEIGHT / 2)),
  ];
  const leads = Boolean(nearest) && Math.hypot(nearest[0] - fx, nearest[1] - fy) > 12;
  setHidden(leader, !leads);
  if (leads) setAttrs(leader, { x1: fx, y1: fy, x2: nearest[0], y2: nearest[1], stroke: color });
  if (at) {
    setAttrs(label, { x: at.x, y: at.y, fill: color });
    setText(label, p.label);
  }
}
