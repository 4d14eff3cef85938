// The tokens the core found, in order, with their positions; out-of-vocabulary words (dashed, with a
// tooltip saying why), [MASK]ed words and padding (beyond the valid length) are marked.
import { setAttrs, setText } from './dom-update.js';

/** "25,477-word " for a vocabulary of that size ('' when unknown), formatted once per size (toLocaleString is slow). */
const vocabularyWords = (() => {
  const made = new Map();
  return (size) => {
    if (!made.has(size)) made.set(size, size ? `${size.toLocaleString('en-US')}-word ` : '');
    return made.get(size);
  };
})();

function describe(token, i, padding, vocabSize, maskable) {
  if (token.masked) return `position ${i}: "${token.text}" replaced by [MASK] (the mean word vector); click to restore`;
  const words = vocabularyWords(vocabSize);
  const vector = token.oov
    ? `"${token.text}" is not in the ${words}GloVe vocabulary: a stand-in vector hashed from the word, which carries no meaning`
    : token.id === undefined
      ? `"${token.text}", in the ${words}GloVe vocabulary`
      : `"${token.text}", vocabulary row ${token.id}`;
  return `position ${i}: ${vector}${padding ? ' — padding: no query attends to it' : ''}${maskable ? '; click to mask' : ''}`;
}

/**
 * @param {{ tokens: object[], validLength: number }} trace  a Run (models/run.js) or core.explain()'s trace
 * @param {{ vocabSize?: number, maskable?: boolean }} [vocabulary]  the loaded vocabulary's size, named in the tooltips;
 *   maskable: a click replaces a word by [MASK] (default true; a model that writes the next word takes no [MASK])
 * @param {HTMLOListElement} [last]  the strip drawn before: its items are updated in place by position (a keystroke
 *   rewrites the chips whose token changed, adds or removes those at the end, and rebuilds none)
 * @returns {HTMLElement} an ordered list; each item carries data-index, data-start, data-end (UTF-16 offsets) and
 *   data-maskable
 */
export function tokenStrip(trace, { vocabSize, maskable = true } = {}, last) {
  const list = last?.dataset.figure === 'tokens' ? last : document.createElement('ol');
  list.className = 'token-strip';
  list.dataset.figure = 'tokens';
  while (list.children.length > trace.tokens.length) list.lastChild.remove();
  trace.tokens.forEach((token, i) => {
    const padding = i >= trace.validLength;
    const item = list.children[i] ?? tokenItem(list, i);
    setAttrs(item, {
      class: ['token', token.oov && 'oov', token.masked && 'masked', padding && 'padding'].filter(Boolean).join(' '),
      'data-start': token.start,
      'data-end': token.end,
      title: describe(token, i, padding, vocabSize, maskable),
      'data-maskable': maskable,
    });
    setText(item.lastChild, token.masked ? '[MASK]' : token.text); // text, never HTML
  });
  return list;
}

/** The chip of position i, appended to the list; tokenStrip() gives it its token. */
function tokenItem(list, i) {
  const item = list.appendChild(document.createElement('li'));
  item.dataset.index = String(i);
  item.tabIndex = 0;
  item.dataset.focusKey = `token-${i}`; // focus stays on the chip across redraws (explorer/keep-focus.js)
  const index = item.appendChild(document.createElement('span'));
  index.className = 'token-index';
  index.textContent = String(i);
  const text = item.appendChild(document.createElement('span'));
  text.className = 'token-text';
  return item;
}

/**
 * A line saying how many of the sentence's words have no vector, when that is many (3 or more, and a
 * quarter or more): a cut-down vocabulary (the single file's) would otherwise turn a typed sentence into
 * stand-in vectors with only dashed outlines to show it.
 * @param {object} trace  core.explain() result  @param {number} vocabSize  the loaded vocabulary's size
 * @returns {string} the line, or '' when few or no words are unknown ([MASK]ed tokens do not count)
 */
export function unknownWordsNote(trace, vocabSize) {
  const words = trace.tokens.filter((token) => !token.masked);
  const unknown = words.filter((token) => token.oov).length;
  if (unknown < 3 || unknown < words.length / 4) return '';
  return (
    `${unknown} of ${words.length} words are not in this build's vocabulary (it carries ${vocabSize.toLocaleString('en-US')} words); ` +
    'they get stand-in vectors.'
  );
}
