// The soft lookup drawn (d2l.ai §11.1): per key, the attention weight α_j beside the exact lookup's
// Kronecker delta δ(q, k_j); per distinct value, the returned mixture beside the exact lookup's result.
// Pure: new DOM from core.softLookup()'s result and the table it was given.
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ROW = 30; // pixels per row: a weight bar and a delta bar
const BAR_WIDTH = 220; // the length of weight 1
const NUMBER_WIDTH = 52; // room for the number after a bar
const percent = format('.1%');
const fixed = format('.3f');

/** Label width in pixels for these labels at 12px (about 7 px a character, at least 60). */
function labelWidth(labels) {
  return Math.min(260, Math.max(60, ...labels.map((label) => 7 * [...label].length + 12)));
}

/**
 * Horizontal pairs of bars: for each row a filled bar (attention) over an outlined one (exact lookup).
 * @param {{ name: string, caption: string, label: string, rows: { label: string, soft: number, exact: number,
 *   title: string }[] }} spec  soft, exact in [0, 1]; title: the hover text
 * @returns {HTMLElement} <figure data-figure=name> whose bars carry data-row, data-soft, data-exact
 */
function pairedBars({ name, caption, label, rows }) {
  const figure = document.createElement('figure');
  figure.className = 'lookup-bars';
  figure.dataset.figure = name;
  figure.appendChild(document.createElement('figcaption')).textContent = caption;
  const left = labelWidth(rows.map((r) => r.label));
  const x = scaleLinear().domain([0, 1]).range([0, BAR_WIDTH]);
  const width = left + BAR_WIDTH + NUMBER_WIDTH,
    height = rows.length * ROW + 22;
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', width)
    .attr('height', height)
    .attr('role', 'img')
    .attr('aria-label', `${label}: ${rows.map((r) => `${r.label} ${percent(r.soft)} (exact ${r.exact})`).join('; ')}`);
  const row = svg
    .selectAll('g.row')
    .data(rows)
    .join('g')
    .attr('class', 'row')
    .attr('transform', (_, i) => `translate(0, ${i * ROW})`)
    .attr('data-row', (_, i) => i)
    .attr('data-soft', (r) => r.soft)
    .attr('data-exact', (r) => r.exact);
  row.append('title').text((r) => r.title);
  row
    .append('text')
    .attr('class', 'row-label')
    .attr('x', left - 8)
    .attr('y', 13)
    .attr('text-anchor', 'end')
    .text((r) => r.label);
  row.append('rect').attr('class', 'track').attr('x', left).attr('y', 3).attr('width', BAR_WIDTH).attr('height', 13);
  row
    .append('rect')
    .attr('class', 'soft')
    .attr('x', left)
    .attr('y', 3)
    .attr('width', (r) => x(r.soft))
    .attr('height', 13);
  row
    .append('rect')
    .attr('class', 'exact')
    .attr('x', left)
    .attr('y', 19)
    .attr('width', (r) => x(r.exact))
    .attr('height', 5);
  row
    .append('text')
    .attr('class', 'bar-number')
    .attr('x', left + BAR_WIDTH + 6)
    .attr('y', 14)
    .text((r) => percent(r.soft));
  // Axis: 0, ½, 1 under the bars.
  const axis = svg
    .append('g')
    .attr('class', 'axis lookup-axis')
    .attr('transform', `translate(0, ${rows.length * ROW + 4})`);
  for (const v of [0, 0.5, 1]) {
    axis
      .append('line')
      .attr('x1', left + x(v))
      .attr('x2', left + x(v))
      .attr('y1', -rows.length * ROW - 4)
      .attr('y2', 0);
    axis
      .append('text')
      .attr('x', left + x(v))
      .attr('y', 14)
      .attr('text-anchor', 'middle')
      .text(v === 0.5 ? '½' : String(v));
  }
  return figure;
}

/**
 * @param {object} result  core.softLookup()'s result
 * @param {{ keys: string[], values: string[], query: string, temperature: number,
 *   similarity: 'letters' | 'wordVectors', normalizer: string }} table  the rows given to the core (blank rows left out)
 * @returns {HTMLElement} the two figures side by side, and a line saying what the lookups return
 */
export function lookupBars(result, { keys, values, query, temperature, similarity, normalizer }) {
  const {
    similarities,
    scores,
    weights,
    exact,
    distinctValues,
    mixture,
    exactMixture,
    sharedBigrams,
    keyOov,
    queryOov,
  } = result;
  const container = document.createElement('div');
  container.className = 'lookup-figures';
  const why = (j) =>
    similarity === 'letters'
      ? `shared bigrams: ${sharedBigrams[j].length ? sharedBigrams[j].join(' ') : 'none'}`
      : keyOov[j]
        ? 'a word without a vector (hashed)'
        : 'word-vector cosine';
  const keyRows = keys.map((key, j) => ({
    label: `${key} → ${values[j].trim()}`,
    soft: weights[j],
    exact: exact[j],
    title:
      `“${key}”: similarity ${fixed(similarities[j])} (${why(j)}), score s/τ = ${fixed(scores[j])}, ` +
      `weight α = ${fixed(weights[j])}; exact lookup δ = ${exact[j]}`,
  }));
  const valueRows = distinctValues.map((value, i) => ({
    label: value,
    soft: mixture[i],
    exact: exactMixture[i],
    title: `“${value}”: attention returns ${percent(mixture[i])} of it; the exact lookup ${percent(exactMixture[i])}`,
  }));
  const shownQuery = query.trim() === '' ? 'the empty query' : `“${query.trim()}”`;
  container.append(
    pairedBars({
      name: 'lookup-weights',
      label: 'Weight per key',
      rows: keyRows,
      caption:
        `Weight per key for ${shownQuery}${similarity === 'wordVectors' && queryOov ? ' (a word without a vector: hashed)' : ''}: ` +
        `attention α (bar${normalizer === 'softmax' ? '' : `, ${normalizer} instead of softmax`}) and exact lookup δ (line below)`,
    }),
    pairedBars({
      name: 'lookup-mixture',
      label: 'Returned value',
      rows: valueRows,
      caption: "Returned value: the mix of values attention returns (bar) and the exact lookup's (line below)",
    }),
  );
  const verdict = container.appendChild(document.createElement('p'));
  verdict.className = 'verdict lookup-verdict';
  const top = [...mixture.keys()]
    .sort((a, b) => mixture[b] - mixture[a])
    .slice(0, 3)
    .filter((i) => mixture[i] >= 0.005);
  const matched = distinctValues.filter((_, i) => exactMixture[i] > 0);
  const rest = 1 - top.reduce((sum, i) => sum + mixture[i], 0);
  verdict.textContent =
    `τ = ${temperature}: attention returns ${top.map((i) => `${percent(mixture[i])} ${distinctValues[i]}`).join(' + ')}` +
    `${rest >= 0.0005 ? ` + ${percent(rest)} of the rest` : ''}. ` +
    (matched.length
      ? `The exact lookup returns ${matched.join(' / ')}.`
      : `The exact lookup fails: no key equals ${shownQuery}.`);
  return container;
}
