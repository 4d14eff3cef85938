// Words with their probabilities as bars, most likely first: a model's next-word or fill-in-the-blank
// predictions. Pure: new DOM from the list.
import { format } from 'd3-format';

export const percent = format('.1%');

/**
 * @param {{ word: string, p: number }[]} top  most likely first; p in [0, 1]
 * @param {string} [hidden]  a word to mark (the one that was hidden or came next)
 * @returns {HTMLOListElement} <ol class="prediction-bars">, each <li data-word data-p> a bar as long as its probability
 *   relative to the first (which fills the row), with the percentage
 */
export function probabilityBars(top, hidden) {
  const list = document.createElement('ol');
  list.className = 'prediction-bars';
  const most = Math.max(top[0]?.p ?? 0, 1e-9);
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
