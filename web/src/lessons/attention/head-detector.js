// The head detector (TransformerLens's, after Olsson et al. 2022, "In-context learning and induction heads"): every head
// of a trained model on repeated random words (R random words, then the same R again; core repeatedWords). Per head,
// three scores, each a mean attention weight of a word on: the word just before it (a previous-word head), its own
// first occurrence (a duplicate-word head), and the word after its first occurrence (an induction head: the one that
// lets a model copy from its context). The loss on each copy says whether the model does copy.
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { headName } from '../../models/run.js';
import { element } from '../../views/layout.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The three scores: the probe's name, the column's title, and where the weight goes from a word of the second copy. */
const DETECTOR_SCORES = [
  ['previous', 'previous word', 'the word just before it'],
  ['duplicate', 'duplicate word', 'its own first occurrence'],
  ['induction', 'induction', 'the word after its first occurrence'],
];
const ROW = 20; // pixels per head
const LABEL = 52; // room for "L1 H2"
const BAR = 130; // a column's bar, for a score of 1 (less on a narrow screen, so that the three columns fit)
const NUMBER = 48; // after a bar, its number
const TOP = 34; // the columns' titles
const fmt = format('.2f');
// A second copy this many nats a word easier than the first is copying: the induction study's models
// (docs/language-models.md) reach 2.6, GPT-2 small several.
const COPYING_NATS = 2;

/**
 * @param {import('../../core/head-measurement.js').RepeatedWords & { text: string }} probe  the model's
 *   languageModel.repeatedWords(), with its example as a text (models/trained.js repeatedWordsOf)
 * @param {{ threshold: number, selected: { layer: number, head: number }, model: string }} options  threshold: the score
 *   at which a head is labelled by it (the Run's labelThreshold), drawn as a dashed line in each column; selected: the
 *   head shown in the heatmap, outlined; model: what to call the model ("decoder")
 * @returns {HTMLElement} <figure data-figure="head-detector">: one <g class="detector-head"> per head (data-layer,
 *   data-head from 0) whose click (or Enter) dispatches "choose" { head } (the head shown above); a button that
 *   dispatches "choose" { sentence } with the probe's first sequence; `figure.exportData` the scores [heads, 3]
 */
export function headDetector(probe, { threshold, selected, model }) {
  const { heads, repeat, sequences } = probe;
  const figure = element('figure', 'head-detector');
  figure.dataset.figure = 'head-detector';
  const caption =
    `Each head of the ${model} on ${repeat} random words repeated (${sequences} sequences, the head detector's test): ` +
    'the mean weight a word puts on the word just before it, on its own first occurrence, and on the word after that ' +
    `occurrence (an induction head's). Dashed: ${threshold}, where a head is labelled by the score.`;
  figure.append(element('figcaption', '', caption));
  const bar = Math.max(
    50,
    Math.min(BAR, Math.floor((window.innerWidth - 32 - LABEL) / DETECTOR_SCORES.length) - NUMBER),
  );
  const column = bar + NUMBER;
  const x = scaleLinear().domain([0, 1]).range([0, bar]);
  const svg = select(figure.appendChild(document.createElementNS(SVG_NS, 'svg')))
    .attr('width', LABEL + DETECTOR_SCORES.length * column)
    .attr('height', TOP + heads.length * ROW + 4)
    .attr('role', 'group')
    .attr('aria-label', 'Head scores on repeated random words');
  DETECTOR_SCORES.forEach(([, title], c) => {
    const left = LABEL + c * column;
    svg.append('text').attr('class', 'detector-title').attr('x', left).attr('y', 14).text(title);
    svg
      .append('line')
      .attr('class', 'detector-axis')
      .attr('x1', left)
      .attr('x2', left)
      .attr('y1', TOP - 4)
      .attr('y2', TOP + heads.length * ROW);
  });
  const row = svg
    .selectAll('g.detector-head')
    .data(heads)
    .join('g')
    .attr('class', (h) => `detector-head${h.layer === selected.layer && h.head === selected.head ? ' selected' : ''}`)
    .attr('transform', (_, i) => `translate(0, ${TOP + i * ROW})`)
    .attr('data-layer', (h) => h.layer)
    .attr('data-head', (h) => h.head)
    .attr('tabindex', 0)
    .attr('role', 'button')
    .attr(
      'aria-label',
      (h) =>
        `${headName(h)}: ` + DETECTOR_SCORES.map(([key, title]) => `${title} ${fmt(h[key])}`).join(', ') + ' (show it)',
    );
  row
    .append('rect')
    .attr('class', 'detector-row')
    .attr('width', LABEL + DETECTOR_SCORES.length * column)
    .attr('height', ROW);
  row
    .append('text')
    .attr('class', 'row-label')
    .attr('x', LABEL - 8)
    .attr('y', ROW / 2)
    .attr('dy', '0.32em')
    .attr('text-anchor', 'end')
    .text((h) => headName(h));
  DETECTOR_SCORES.forEach(([key, title, where], c) => {
    const left = LABEL + c * column;
    const passes = (h) => h[key] >= threshold;
    // The bar's track, 0 … 1, so that its number at the track's end reads as its length's.
    row
      .append('rect')
      .attr('class', 'detector-track')
      .attr('x', left)
      .attr('y', 4)
      .attr('width', bar)
      .attr('height', ROW - 8);
    row
      .append('rect')
      .attr('class', (h) => `detector-bar ${key}${passes(h) ? ' passes' : ''}`)
      .attr('x', left)
      .attr('y', 4)
      .attr('width', (h) => Math.max(1, x(h[key])))
      .attr('height', ROW - 8)
      .append('title')
      .text((h) => `${headName(h)}, ${title}: a word puts ${fmt(h[key])} of its weight on ${where}`);
    row
      .append('text')
      .attr('class', 'detector-number')
      .attr('x', left + bar + 4) // after the whole bar's length: clear of the dashed threshold at any score
      .attr('y', ROW / 2)
      .attr('dy', '0.32em')
      .text((h) => fmt(h[key]));
  });
  const choose = (event, h) => {
    if (event.type === 'keydown' && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    figure.dispatchEvent(
      new CustomEvent('choose', { detail: { head: { layer: h.layer, head: h.head } }, bubbles: true }),
    );
  };
  row.on('click keydown', choose);
  // Over the bars and their tracks: the score at which a head is labelled by it.
  DETECTOR_SCORES.forEach((_, c) =>
    svg
      .append('line')
      .attr('class', 'detector-threshold')
      .attr('x1', LABEL + c * column + x(threshold))
      .attr('x2', LABEL + c * column + x(threshold))
      .attr('y1', TOP - 12)
      .attr('y2', TOP + heads.length * ROW),
  );

  figure.append(element('p', 'detector-copy', copyingSentence(probe)));
  const offer = figure.appendChild(element('p', 'detector-example'));
  const button = offer.appendChild(element('button', '', 'Put such a sentence in the box'));
  button.type = 'button';
  offer.append(
    ` “${probe.text}”. In the heatmap, an induction head's weights in the second copy form a stripe ${repeat - 1} ` +
      'keys left of the diagonal: each word looks at the word that followed it the first time.',
  );
  button.addEventListener('click', () =>
    figure.dispatchEvent(new CustomEvent('choose', { detail: { sentence: probe.text }, bubbles: true })),
  );
  figure.exportData = {
    name: 'head-detector',
    caption,
    rowTitle: 'head',
    colTitle: 'score',
    rowLabels: heads.map((h) => headName(h)),
    colLabels: DETECTOR_SCORES.map(([, title]) => title),
    shape: [heads.length, DETECTOR_SCORES.length],
    values: Float32Array.from(heads.flatMap((h) => DETECTOR_SCORES.map(([key]) => h[key]))),
  };
  return figure;
}

/** What the losses on the two copies say: a model that copies from its context finds the second copy far easier. */
function copyingSentence({ firstHalfLoss: first, secondHalfLoss: second }) {
  if (first === null || second === null)
    return 'The encoder sees both copies at once, so its loss on each copy is not measured; its heads are.';
  const easier = first - second;
  return (
    `On these sequences a word of the first copy costs it ${fmt(first)} nats, of the second ${fmt(second)}: ` +
    `${fmt(easier)} nats easier. A model that copies from its context (GPT-2 small) finds the second copy several ` +
    `nats easier; ${easier >= COPYING_NATS ? 'this one copies.' : 'this one barely copies yet.'}`
  );
}
