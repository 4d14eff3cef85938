// Which earlier words mattered to one prediction: each token of the sentence as a chip, coloured and underlined by how
// ln p(word) changes when that token is hidden — replaced by [MASK], or in a checkpoint by the mean token embedding
// (occlusion; Zeiler & Fergus 2014 §4.2, words for image patches). Pure: new DOM from models/attribution.js
// attributeRun's measurement.
import { format } from 'd3-format';
import { divergingColor, lightInkOn } from '../../views/colors.js';
import { legend } from '../../views/legend.js';

const signed = format('+.2f');
const BAR_PX = 28; // the longest bar under a chip (the largest |Δ|)

/**
 * @param {{ word: string, hidden: { name: string, what: string },
 *   tokens: { text: string, delta: number, masked: boolean, after: boolean }[] }} why  hidden: what a hidden token becomes
 * @returns {HTMLElement} <div class="occlusion">: an <ol class="occlusion-chips"> with one <li data-token data-delta>
 *   per token (data-skipped where nothing was measured: a [MASK], or a word the decoder cannot see), a legend in nats
 *   and the caption
 */
export function occlusionChips(why) {
  const box = document.createElement('div');
  box.className = 'occlusion';
  const limit = Math.max(0.05, ...why.tokens.map((t) => Math.abs(t.delta)));
  const color = divergingColor(limit);
  const list = box.appendChild(document.createElement('ol'));
  list.className = 'occlusion-chips';
  why.tokens.forEach((token, t) => {
    const chip = list.appendChild(document.createElement('li'));
    const skipped = token.masked || token.after;
    Object.assign(chip.dataset, { token: String(t), delta: String(token.delta) });
    if (skipped) chip.dataset.skipped = '';
    chip.title = skipped
      ? `${token.text}: ${token.masked ? 'already [MASK]' : 'after the prediction: the decoder cannot see it'}`
      : `${token.text} replaced by ${why.hidden.name}: Δ ln p(${why.word}) = ${signed(token.delta)} nats`;
    const text = chip.appendChild(document.createElement('span'));
    text.className = 'chip-text';
    text.textContent = token.text;
    if (!skipped) {
      const background = color(token.delta);
      text.style.background = background;
      // White text where it reads better than black (.chip-text's colour): the diverging scale's dark ends.
      if (lightInkOn(background)) text.classList.add('strong');
    }
    const bar = chip.appendChild(document.createElement('span'));
    bar.className = `chip-bar ${token.delta < 0 ? 'negative' : 'positive'}`;
    bar.style.width = `${Math.max(1, (BAR_PX * Math.abs(token.delta)) / limit)}px`;
    chip.appendChild(document.createElement('span')).className = 'chip-number';
    chip.lastChild.textContent = skipped ? '–' : signed(token.delta);
  });
  box.append(
    legend({
      color,
      domain: [-limit, limit],
      title: 'Δ ln p when the word is hidden (nats)',
      width: 260,
    }),
  );
  box.prepend(Object.assign(document.createElement('p'), { className: 'hint' }));
  box.firstChild.textContent =
    `Each word replaced by ${why.hidden.name} (${why.hidden.what}) in turn: how ln p(“${why.word}”) changes, in nats (blue: ` +
    'without it the word became less likely; red: more likely). A measurement on this sentence, not an explanation of the model.';
  return box;
}
