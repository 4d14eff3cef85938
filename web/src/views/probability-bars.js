// Words with their probabilities as bars, most likely first: a model's next-word or fill-in-the-blank
// predictions. A list passed back is updated in place (a keystroke rewrites the words and widths that changed).
import { format } from 'd3-format';
import { select } from 'd3-selection';
import { setAttr, setHidden, setStyle, setText } from './dom-update.js';

/** A bar's percentage, one decimal: "12.1%" (its bar shows how small a smaller one is). */
export const percent = format('.1%');

/**
 * A probability said in a sentence, with enough digits to read it however small: "12.1 %", "0.42 %", "0.0031 %".
 * @param {number} p  in [0, 1]  @returns {string}
 */
export function readablePercent(p) {
  const value = 100 * p;
  return `${value >= 0.1 ? value.toFixed(1) : value.toPrecision(2)} %`;
}

/**
 * @param {{ word: string, p: number }[]} top  most likely first; p in [0, 1]
 * @param {{ hidden?: string, full?: number, last?: HTMLOListElement }} [options]  hidden: a word to mark (the one that
 *   was hidden or came next); full: the probability that fills the row (default: the first's), the same for lists drawn
 *   side by side to be compared, so that one length means one probability in each; last: a list this function
 *   returned before, updated in place and returned
 * @returns {HTMLOListElement} <ol class="prediction-bars">, each <li data-word data-p> a bar as long as its probability
 *   relative to `full`, with the percentage
 */
export function probabilityBars(top, { hidden, full = top[0]?.p ?? 0, last } = {}) {
  const list = last ?? Object.assign(document.createElement('ol'), { className: 'prediction-bars' });
  const most = Math.max(full, 1e-9);
  select(list)
    .selectAll(':scope > li')
    .data(top)
    .join((enter) =>
      enter.append('li').call((item) => {
        item.append('span').attr('class', 'prediction-word');
        item.append('span').attr('class', 'prediction-bar');
        item.append('span').attr('class', 'prediction-p');
      }),
    )
    .each(function ({ word, p }) {
      setAttr(this, 'data-word', word);
      setAttr(this, 'data-p', String(p));
      this.classList.toggle('hidden-word', word === hidden);
      const [name, bar, value] = this.children;
      setText(name, word);
      setStyle(bar, { width: `${(100 * p) / most}%` });
      setText(value, percent(p));
    });
  return list;
}

/**
 * The line for <unk> (every word outside a model's output vocabulary), apart from the ranked words: "a rarer word (one
 * of the words outside its 8,191): 13.0 %", and where it is more likely than the first word, why that can be. Never a
 * bar: it is not a word one can write.
 * @param {number | null} unk  the model's p(<unk>) (softmax at temperature 1); null: it has none (the line is hidden)
 * @param {number} words  how many words it can output
 * @param {number} [first]  the first bar's probability, to say when the line is larger
 * @param {HTMLParagraphElement} [last]  a line this function returned before: updated in place and returned
 * @returns {HTMLParagraphElement} <p class="unk-line" data-unk>
 */
export function unkLine(unk, words, first = Infinity, last) {
  const line = last ?? Object.assign(document.createElement('p'), { className: 'unk-line' });
  setHidden(line, unk === null); // a model with no <unk> (GPT-2's BPE pieces spell every text)
  if (unk === null) return line;
  setAttr(line, 'data-unk', String(unk));
  setText(
    line,
    `a rarer word (one of the words outside its ${words.toLocaleString('en-US')}): ${percent(unk)}` +
      (unk > first ? ' — more than any one word: it is all those words together' : ''),
  );
  setAttr(
    line,
    'title',
    `<unk>: the model's probability that the word is none of the ${words} it can output ` +
      '(at temperature 1; never sampled)',
  );
  return line;
}
