// A bipartite line view (after BertViz): queries on the left, keys on the right, one line per
// (query, key) pair whose weight reaches the threshold, its thickness the weight. Several heads at
// once in distinct colours. Hovering a query shows only its lines; clicking pins it.
import { schemeTableau10 } from 'd3-scale-chromatic';
import { select } from 'd3-selection';
import { tokenLabels } from '../../views/labels.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ROW_PX = 22;
const TEXT_PX = 110; // room for a token label on each side
const GAP_PX = 220; // between the two columns (less on a narrow screen)
const MAX_STROKE = 7;

const headColor = (h) => schemeTableau10[h % schemeTableau10.length];

/**
 * @param {object} trace  core.explain() result
 * @param {{ heads: number[], query: number | null, threshold: number }} options  heads to draw, the
 *   pinned query (or null: all queries), weights below `threshold` are hidden
 * @returns {HTMLElement} a <figure>; token clicks dispatch CustomEvent("choose", { detail: { lineQuery: i | null }, bubbles })
 */
export function lineView(trace, { heads, query, threshold }) {
  const labels = tokenLabels(trace);
  const n = labels.length;
  const gap = Math.max(80, Math.min(GAP_PX, window.innerWidth - 2 * TEXT_PX - 32));
  const width = 2 * TEXT_PX + gap,
    height = Math.max(1, n) * ROW_PX + 8;
  const y = (i) => 4 + (i + 0.5) * ROW_PX;
  const shown = heads.filter((h) => h < trace.heads.length);

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
    const w = trace.heads[h].weights.data;
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
          .text(`head ${h + 1}: "${labels[i]}" → "${labels[j]}" ${weight.toFixed(3)}`);
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
    swatch.textContent = `head ${h + 1}`;
  }
  return figure;
}
