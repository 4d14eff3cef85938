// "Why this word?" beside the predictions of a trained model: for the prediction the learner points at or chooses,
// each head's effect on it (a signed bar per head: how ln p(word) changes when that head alone is switched off;
// Michel et al. 2019 §3) and each word's (occlusion-chips.js), from the measurement (models/attribution.js
// attributeRun), computed on demand by the chapter, never per keystroke; a keystroke only rewrites the word buttons.
import { axisBottom } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { setAttrs, setText } from '../../views/dom-update.js';
import { element } from '../../views/layout.js';
import { readablePercent } from '../../views/probability-bars.js';
import { occlusionChips } from './occlusion-chips.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ROW = 18; // pixels per head
const LABEL = 48; // room for "L1 H2"
const PLOT = 200; // the bars' axis length
const NUMBER = 54; // room for the number after a bar
const signed = format('+.2f');
/** The measurement a figure shows, and its parts: drawn again only for another measurement. */
const shownMeasurement = new WeakMap();
/** How many of each prediction's words the figure offers as buttons (the keyboard's way to choose one). */
const OFFERED = 5;

/**
 * Per head, a bar from 0 to Δ ln p(word) when that head alone is switched off, on a signed axis in nats.
 * @param {{ name: string, layer: number, head: number, delta: number, off: boolean }[]} heads  layer-major
 * @param {string} word
 * @returns {SVGSVGElement} with one <g class="head-effect"> per head (data-layer, data-head from 0, data-delta)
 */
export function headEffectBars(heads, word) {
  const limit = Math.max(0.05, ...heads.map((h) => Math.abs(h.delta)));
  const x = scaleLinear().domain([-limit, limit]).range([0, PLOT]).nice();
  const height = heads.length * ROW + 40;
  const svg = select(document.createElementNS(SVG_NS, 'svg'))
    .attr('class', 'head-effects')
    .attr('width', LABEL + PLOT + NUMBER)
    .attr('height', height)
    .attr('role', 'img')
    .attr(
      'aria-label',
      `Change in ln p(${word}) when each head alone is switched off, in nats: ` +
        heads.map((h) => `${h.name} ${h.off ? 'already off' : signed(h.delta)}`).join('; '),
    );
  const row = svg
    .selectAll('g.head-effect')
    .data(heads)
    .join('g')
    .attr('class', (h) => `head-effect ${h.delta < 0 ? 'negative' : 'positive'}`)
    .attr('transform', (_, i) => `translate(0, ${i * ROW})`)
    .attr('data-layer', (h) => h.layer)
    .attr('data-head', (h) => h.head)
    .attr('data-delta', (h) => h.delta);
  row
    .append('title')
    .text((h) => `${h.name} off: Δ ln p(${word}) = ${signed(h.delta)} nats${h.off ? ' (already off)' : ''}`);
  row
    .append('text')
    .attr('class', 'row-label')
    .attr('x', LABEL - 6)
    .attr('y', 13)
    .attr('text-anchor', 'end')
    .text((h) => h.name);
  row
    .append('rect')
    .attr('x', (h) => LABEL + Math.min(x(0), x(h.delta)))
    .attr('y', 3)
    .attr('width', (h) => Math.max(1, Math.abs(x(h.delta) - x(0))))
    .attr('height', ROW - 6);
  row
    .append('text')
    .attr('class', 'bar-number')
    .attr('x', LABEL + PLOT + 6)
    .attr('y', 13)
    .text((h) => (h.off ? 'off' : signed(h.delta)));
  svg
    .append('line')
    .attr('class', 'zero-line')
    .attr('x1', LABEL + x(0))
    .attr('x2', LABEL + x(0))
    .attr('y1', 0)
    .attr('y2', heads.length * ROW);
  const axis = svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(${LABEL}, ${heads.length * ROW + 2})`)
    .call(axisBottom(x).ticks(5).tickFormat(format('+.1~f')));
  axis
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', PLOT / 2)
    .attr('y', 33)
    .attr('text-anchor', 'middle')
    .text('Δ ln p (nats)');
  return svg.node();
}

/**
 * Buttons for the first words of each prediction: choosing one measures it (event "why-word" { position, word }).
 * A box passed back is updated in place: a keystroke rewrites the words that changed.
 */
function wordChoices(predictions, chosen, last) {
  const box = last ?? choicesBox();
  const offered = predictions.flatMap(({ position, top }) =>
    top.slice(0, OFFERED).map(({ word }) => ({ position, word })),
  );
  select(box)
    .selectAll(':scope > button')
    .data(offered)
    .join((enter) => enter.append('button').attr('type', 'button'))
    .each(function ({ position, word }) {
      setText(this, word);
      setAttrs(this, {
        'data-position': String(position),
        'data-word': word,
        'aria-pressed': String(chosen?.position === position && chosen.word === word),
      });
    });
  return box;
}

/** The word buttons' box, empty: one listener for all its buttons, which read what they offer from their data. */
function choicesBox() {
  const box = element('div', 'why-words');
  box.append(element('span', '', 'Why this word? '));
  box.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    const detail = { position: Number(button.dataset.position), word: button.dataset.word };
    button.dispatchEvent(new CustomEvent('why-word', { detail, bubbles: true }));
  });
  return box;
}

/** Where the prediction is, in words: after which words (decoder), or at which blank (encoder). */
function whereSaid(why, causal) {
  return causal ? `after “${why.context}”` : `at the [MASK] at position ${why.position}`;
}

/** What the caption asks of the learner: our models measure a pointed word, a checkpoint a chosen one (chapter.js). */
function captionText(run) {
  const ask = run.can?.ourModel
    ? 'Point at a predicted word (or choose one here)'
    : 'Click a predicted word (or choose one here): a checkpoint takes a forward pass for each head and word, seconds in all';
  return (
    `Why this word? ${ask}: what its probability depends on in this sentence, measured by switching each head off, ` +
    'and by hiding each word, one at a time.'
  );
}

/** A measurement under way: which word, and how many of its forward passes are done, as text and a progress bar. */
function progressLine(measuring, last) {
  const line = last ?? element('p', 'why-measuring');
  if (!last) {
    const bar = document.createElement('progress');
    bar.setAttribute('aria-label', 'forward passes done');
    line.append(element('span'), bar);
  }
  const [text, bar] = line.children;
  setText(text, `Measuring “${measuring.word}”: ${measuring.done} of ${measuring.total} forward passes `);
  setAttrs(bar, { max: String(measuring.total), value: String(measuring.done) });
  return line;
}

/**
 * @param {import('../../models/run.js').Run} run  a trained model's Run
 * @param {{ why: object | null, measuring?: { word: string, done: number, total: number } | null }} options  why:
 *   attributeRun's measurement on this Run (models/attribution.js), or null when nothing is chosen yet (or it was of
 *   another sentence); measuring: a measurement under way (a checkpoint's, a forward pass at a time)
 * @param {HTMLElement} [last]  a figure this function returned before: updated in place and returned (a keystroke,
 *   which leaves nothing measured, rewrites the word buttons that changed; a measurement's parts are built anew)
 * @returns {HTMLElement} <figure data-figure="why-this-word">: the word buttons; with a measurement, data-word,
 *   data-position and data-log-prob, the head bars (headEffectBars) and the chips (occlusionChips)
 */
export function whyThisWordView(run, { why, measuring = null }, last) {
  const figure = last?.dataset.figure === 'why-this-word' ? last : skeleton();
  const [caption] = figure.children;
  setText(caption, captionText(run));
  const shown = (selector) => figure.querySelector(`:scope > ${selector}`) ?? undefined;
  setAttrs(figure, {
    'data-word': why?.word,
    'data-position': why ? String(why.position) : null,
    'data-log-prob': why ? String(why.logProb) : null,
  });
  let parts;
  if (!run.predictions?.length) {
    const hint = 'Click a word of your sentence to hide it ([MASK]): then ask why the encoder puts a word there.';
    parts = [shown('.empty-figure') ?? element('p', 'empty-figure', hint)];
  } else {
    const words = wordChoices(run.predictions, why, shown('.why-words'));
    if (why && shownMeasurement.get(figure)?.why !== why)
      shownMeasurement.set(figure, { why, parts: measured(why, run) });
    const progress = measuring ? [progressLine(measuring, shown('.why-measuring'))] : [];
    parts = why
      ? [words, ...progress, ...shownMeasurement.get(figure).parts]
      : [
          words,
          ...progress,
          ...(measuring ? [] : [shown('.nothing-yet') ?? element('p', 'hint nothing-yet', 'Nothing measured yet.')]),
        ];
  }
  const menu = shown('.export-menu'); // the figure's Download menu (figure-export.js), kept after the caption
  const children = [caption, ...(menu ? [menu] : []), ...parts];
  if (children.length !== figure.children.length || children.some((child, i) => figure.children[i] !== child))
    figure.replaceChildren(...children);
  return figure;
}

/** The figure's caption, in an empty figure. */
function skeleton() {
  const figure = document.createElement('figure');
  figure.dataset.figure = 'why-this-word';
  figure.append(element('figcaption'));
  return figure;
}

/** A measurement's title, and its parts: each head's effect (headEffectBars) and each word's (occlusionChips). */
function measured(why, run) {
  const title = element('p', 'why-title');
  const off = why.heads.filter((h) => h.off).length;
  title.textContent =
    `“${why.word}” ${whereSaid(why, run.causal)}: ln p = ${why.logProb.toFixed(2)} nats ` +
    `(p = ${readablePercent(Math.exp(why.logProb))})${off ? `, with ${off} head${off > 1 ? 's' : ''} off` : ''}.`;
  const heads = element('div', 'why-heads');
  heads.append(
    element(
      'p',
      'hint',
      'Each head alone switched off: the change in ln p(word), in nats (left: the word becomes less likely without it).',
    ),
    headEffectBars(why.heads, why.word),
  );
  const parts = element('div', 'why-parts');
  parts.append(heads, occlusionChips(why));
  return [title, parts];
}
