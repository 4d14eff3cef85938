// Words with their probabilities as bars, most likely first: a model's next-word or fill-in-the-blank
// predictions. Pure: new DOM from the list.
import { format } from 'd3-format';

export const percent = format('.1%');

/**
 * @param {{ word: string, p: number }[]} top  most likely first; p in [0, 1]
 * @param {string} [hidden]  a word to mark (the one that was hidden or came next)
 * @param {number} [full]  the probability that fills the row (default: the first's); lists drawn side by side to be
 *   compared pass them all the same one, so that one length means one probability in each
 * @returns {HTMLOListElement} <ol class="prediction-bars">, each <li data-word data-p> a bar as long as its probability
 *   relative to `full`, with the percentage
 */
export function probabilityBars(top, hidden, full = top[0]?.p ?? 0) {
  const list = document.createElement('ol');
  list.className = 'prediction-bars';
  const most = Math.max(full, 1e-9);
  for (const { word, p } of top) {
    const item = list.appendChild(document.createElement('li'));
    Object.assign(item.dataset, { word, p: String(p) });
    if (word === hidden) item.classList.add('hidden-word');
    const name = item.appendChild(document.createElement('span'));
    name.className = 'prediction-word';
    name.textContent = word;
    const bar = item.appendChild(document.createElement('span'));
    bar.className = 'prediction-bar';
    bar.style.width = `${(100 * p) / most}%`;
    const value = item.appendChild(document.createElement('span'));
    value.className = 'prediction-p';
    value.textContent = percent(p);
  }
  return list;
}

/**
 * The line for <unk> (every word outside a model's output vocabulary), apart from the ranked words: "a rarer word (one
 * of the words outside its 8,191): 13.0 %", and where it is more likely than the first word, why that can be. Never a
 * bar: it is not a word one can write.
 * @param {number} unk  the model's p(<unk>) (softmax at temperature 1)  @param {number} words  how many words it can output
 * @param {number} [first]  the first bar's probability, to say when the line is larger
 * @returns {HTMLParagraphElement} <p class="unk-line" data-unk>
 */
export function unkLine(unk, words, first = Infinity) {
  const line = document.createElement('p');
  line.className = 'unk-line';
  line.dataset.unk = String(unk);
  line.textContent =
    `a rarer word (one of the words outside its ${words.toLocaleString('en-US')}): ${percent(unk)}` +
    (unk > first ? ' — more than any one word: it is all those words together' : '');
  line.title =
    `<unk>: the model's probability that the word is none of the ${words} it can output ` +
    '(at temperature 1; never sampled)';
  return line;
}
