// A bipartite line view (after BertViz): queries on the left, keys on the right, one line per
// (query, key) pair whose weight reaches the threshold, its thickness the weight. Several heads at
// once in distinct colours, of any model: the heads of its Run, in any layer. Hovering a query shows only its
// lines; clicking pins it.
import { schemeTableau10 } from 'd3-scale-chromatic';
import { select } from 'd3-selection';
import { headCounts, headIndex, headName, headWeights, resolveHead } from '../../models/run.js';
import { tokenLabels } from '../../views/labels.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ROW_PX = 22;
const TEXT_PX = 110; // room for a token label on each side
const GAP_PX = 220; // between the two columns (less on a narrow screen)
const MAX_STROKE = 7;

const headColor = (h) => schemeTableau10[h % schemeTableau10.length];

/**
 * The heads the line view draws: those of `lineHeads` (layer-major indices, state.lineHeads) that the run's model has,
 * else the selected head, so that it always draws one.
 * @param {import('../../models/run.js').Run} run  @param {number[]} lineHeads  @param {{ layer: number, head: number }} selected
 * @returns {number[]}  layer-major head indices into run.heads
 */
export function lineHeadsShown(run, lineHeads, selected) {
  const counts = headCounts(run);
  const shown = lineHeads.filter((h) => h < run.heads.length);
  return shown.length ? shown : [headIndex(counts, resolveHead(counts, selected))];
}

/** The { layer, head } of the run's h-th head, layer-major (a flat index in { layer: 0, head: h }: run.js headIndex). */
const refOf = (run, h) => resolveHead(headCounts(run), { layer: 0, head: h });

/** A head's name in the line view: its layer and number, and what it does ("L2 H3: previous word 0.45"). */
export function lineHeadName(run, h) {
  return `${headName(refOf(run, h))}: ${run.heads[h].label}`;
}

/**
 * @param {import('../../models/run.js').Run} run  any model's
 * @param {{ heads: number[], query: number | null, threshold: number }} options  heads to draw (lineHeadsShown), the
 *   pinned query (or null: all queries), weights below `threshold` are hidden
 * @returns {HTMLElement} a <figure>; token clicks dispatch CustomEvent("choose", { detail: { lineQuery: i | null }, bubbles })
 */
export function lineView(run, { heads, query, threshold }) {
  const labels = tokenLabels(run);
  const n = labels.length;
  const gap = Math.max(80, Math.min(GAP_PX, window.innerWidth - 2 * TEXT_PX - 32));
  const width = 2 * TEXT_PX + gap,
    height = Math.max(1, n) * ROW_PX + 8;
  const y = (i) => 4 + (i + 0.5) * ROW_PX;
  const shown = heads.filter((h) => h < run.heads.length);

  const figure = document.createElement('figure');
  figure.className = 'line-view';
  figure.dataset.figure = 'line-view';
  figure.dataset.query = query === null ? '' : String(query);
  const caption = figure.appendChild(document.createElement('figcaption'));
  caption.textContent =
    `Who attends to whom: line thickness = weight (≥ ${threshold.toFixed(2)}); ` +
    (query === null
      ? 'hover a query on the left, click to pin it.'
      : `pinned: query "${labels[query]}" (click it again to unpin).`);

  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', width)
    .attr('height', height)
    .attr('role', 'group')
    .attr('aria-label', `Line view of ${shown.length} head(s) over ${n} tokens`);
  const lines = svg.append('g').attr('class', 'lines');
  for (const h of shown) {
    const w = headWeights(run, refOf(run, h));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const weight = w[i * n + j];
        if (weight < threshold || weight === 0) continue;
        lines
          .append('line')
          .attr('x1', TEXT_PX)
          .attr('y1', y(i))
          .attr('x2', TEXT_PX + gap)
          .attr('y2', y(j))
          .attr('stroke', headColor(h))
          .attr('stroke-width', 0.5 + MAX_STROKE * weight)
          .attr('stroke-opacity', 0.25 + 0.6 * weight)
          .attr('data-head', h)
          .attr('data-query', i)
          .attr('data-key', j)
          .attr('data-weight', weight.toFixed(4))
          .append('title')
          .text(`${headName(refOf(run, h))}: "${labels[i]}" → "${labels[j]}" ${weight.toFixed(3)}`);
      }
    }
  }
  const show = (i) =>
    lines.selectAll('line').attr('display', function () {
      return i === null || Number(this.dataset.query) === i ? null : 'none';
    });
  show(query);

  const side = (x, anchor, cls) =>
    svg
      .append('g')
      .attr('class', `tokens ${cls}`)
      .selectAll('text')
      .data(labels)
      .join('text')
      .attr('x', x)
      .attr('y', (_, i) => y(i))
      .attr('dy', '0.32em')
      .attr('text-anchor', anchor)
      .text((t) => t);
  const queries = side(TEXT_PX - 8, 'end', 'queries')
    .attr('tabindex', 0)
    .attr('role', 'button')
    .attr('data-index', (_, i) => i)
    .classed('pinned', (_, i) => i === query);
  side(TEXT_PX + gap + 8, 'start', 'keys');
  queries
    .on('mouseenter focus', function () {
      show(Number(this.dataset.index));
    })
    .on('mouseleave blur', () => show(query))
    .on('click keydown', function (event) {
      if (event.type === 'keydown' && event.key !== 'Enter' && event.key !== ' ') return;
      const i = Number(this.dataset.index);
      this.dispatchEvent(new CustomEvent('choose', { detail: { lineQuery: i === query ? null : i }, bubbles: true }));
    });

  const key = figure.appendChild(document.createElement('p'));
  key.className = 'line-legend';
  for (const h of shown) {
    const swatch = key.appendChild(document.createElement('span'));
    swatch.style.setProperty('--swatch', headColor(h));
    swatch.textContent = lineHeadName(run, h);
  }
  return figure;
}
