// What a trained model predicts on the learner's sentence, the thing learners know transformers by: the
// decoder's next word after the sentence, or the encoder's words for each blank ([MASK], a clicked word),
// as bars of the sampling distribution (output temperature, top-k: sampling.hpp), with where the hidden word ranks,
// and the probability of <unk> (every word outside the output vocabulary) as one line apart, never a bar.
import { sampledBars } from '../../models/output-layer.js';
import { modelFacts, modelKindName } from '../../models/model-facts.js';
import { select } from 'd3-selection';
import { setAttr, setText } from '../../views/dom-update.js';
import { element } from '../../views/layout.js';
import { probabilityBars as bars, readablePercent, unkLine } from '../../views/probability-bars.js';

/** What the decoder expected after `context` and how it rated the word that came (models/trained.js predictionAt). */
function focusTitle({ context, next, known, rank, p }, config) {
  const after = `After “${context}” it expected:`;
  if (next === undefined) return after;
  const rated = !known
    ? `not one of the ${config.outputSize - 1} words it can output (for it, <unk>)`
    : rank
      ? `rank ${rank}, p = ${readablePercent(p)}`
      : 'not in its top 100';
  return `${after} the word that came, “${next}”: ${rated}.`;
}

/**
 * How the bars were made: the model's own probabilities at the defaults (output temperature 1, every word kept), else
 * the sampling distribution, "softmax(logits / T) over the words, T = 0.7, the 5 most likely kept, renormalised"; and
 * for the decoder, what Generate draws from; withUnk: the model has an <unk> output, shown apart (its line).
 */
function samplingNote({ outputTemperature, topK }, causal, withUnk) {
  if (!sampledBars({ outputTemperature, topK })) {
    // A model without <unk> (a checkpoint's BPE pieces spell every text): its bars are all of it.
    if (!withUnk)
      return `Bars: the model's probabilities, softmax of its logits over all its outputs${causal ? '; Generate draws from them.' : '.'}`;
    return (
      "Bars: the model's probabilities, softmax of its logits over all its outputs (the rarer words' line below is the " +
      `rest)${causal ? '; Generate draws from them, without the rarer words, renormalised.' : '.'}`
    );
  }
  const kept = topK === 0 ? 'every word kept' : `the ${topK} most likely kept, renormalised`;
  return (
    `Bars: the sampling distribution, softmax(logits / T) over the words with T = ${outputTemperature}, ${kept}` +
    (causal ? '; Generate draws from it.' : '.')
  );
}

/**
 * @param {import('../../models/run.js').Run} run  a trained model's Run (its config and predictions)
 * @param {{ focus?: object, outputTemperature?: number, topK?: number }} [options]  focus: the decoder's prediction at a
 *   row the learner points at (models/trained.js predictionAt), shown instead of the next word while it is of this
 *   sentence; the state's sampling settings, for the caption
 * @param {HTMLElement} [last]  a figure this function returned before: updated in place and returned (a keystroke
 *   rewrites the words, bars and titles that changed, and builds no section it had)
 * @returns {HTMLElement} a <figure data-figure="predictions">: per prediction a <section data-position> with its words as
 *   <li data-word data-p> (most likely first; never <unk>), a <p class="unk-line" data-unk> and, for a blank, data-hidden
 *   and data-rank (1-based among the model's own most likely words; absent past 100);
 *   a pointed-at position's section has data-focus, and data-rank when the word that came is in the top 100
 */
export function predictionsView(run, { focus, outputTemperature = 1, topK = 0 } = {}, last) {
  const { config } = run;
  const nextWord = run.can.generate; // the decoder's next word; else the encoder's blanks
  let { predictions } = run;
  const pointed = nextWord && focus && focus.tokens === run.reading ? focus : null;
  if (pointed) predictions = [{ position: pointed.position, top: pointed.top, focus: pointed }];
  const figure = last?.dataset.figure === 'predictions' ? last : skeleton();
  // Found by their classes: the figure's Download menu (figure-export.js) sits after the caption.
  const [caption, note, facts] = ['figcaption', '.sampling-note', '.model-facts'].map((part) =>
    figure.querySelector(`:scope > ${part}`),
  );
  setText(
    caption,
    nextWord
      ? `The next word, as the trained ${modelKindName(config)} predicts it after your sentence (point at a row ` +
          'of the weights: what it predicted there, against the word that came).'
      : 'The blanks, as the trained encoder fills them in from both sides.',
  );
  setText(note, samplingNote({ outputTemperature, topK }, nextWord, predictions[0]?.unk !== null));
  setText(facts, modelFacts(config));
  const empty = figure.querySelector(':scope > .empty-figure');
  if (predictions.length > 0) empty?.remove();
  else if (!empty) {
    figure.append(
      element(
        'p',
        'empty-figure',
        'Click a word of your sentence to hide it ([MASK]): the encoder guesses it from the words around it.',
      ),
    );
  }
  select(figure)
    .selectAll(':scope > section')
    .data(predictions)
    .join((enter) => enter.append('section').call((section) => section.append('p').attr('class', 'prediction-title')))
    .each(function ({ position, top, unk, hidden, known, rank, focus: at }) {
      const [title, shownBars, shownUnk] = this.children;
      setAttr(this, 'data-position', String(position));
      setAttr(this, 'data-focus', at ? '' : null);
      setAttr(this, 'data-hidden', !at && !nextWord ? (hidden ?? '') : null);
      setAttr(this, 'data-rank', at ? at.rank : !nextWord ? rank : null);
      setText(title, titleOf({ position, top, hidden, known, rank, at }, run, nextWord));
      const list = bars(top, { hidden: hidden ?? at?.next, last: shownBars });
      const line = unkLine(at ? at.unk : unk, config.outputSize - 1, top[0]?.p, shownUnk);
      if (!shownBars) this.append(list, line);
    });
  return figure;
}

/** A prediction's title: the pointed row's rating, the decoder's sentence, or the blank and where its word ranks. */
function titleOf({ position, top, hidden, known, rank, at }, run, nextWord) {
  if (at) return focusTitle(at, run.config);
  if (nextWord) return `After “${run.reading}”:`;
  const where = hidden === undefined ? 'a typed [MASK]' : `“${hidden}”`;
  return (
    `[MASK] at position ${position} (${where}): ` +
    (hidden === undefined
      ? ''
      : !known
        ? `not one of the ${run.config.outputSize - 1} words it can output (for it, <unk>).`
        : rank
          ? `the hidden word ranks ${rank}${rank <= top.length ? ', highlighted' : ''}.`
          : 'the hidden word is not in its top 100.')
  );
}

/** The figure's fixed parts, empty: its caption, the sampling note and the model's facts. */
function skeleton() {
  const figure = document.createElement('figure');
  figure.dataset.figure = 'predictions';
  figure.append(
    document.createElement('figcaption'),
    element('p', 'hint sampling-note', ''),
    element('p', 'hint model-facts', ''),
  );
  return figure;
}
