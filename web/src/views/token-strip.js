// The tokens the core found, in order, with their positions; out-of-vocabulary words are marked.

/**
 * @param {object} trace  core.explain() result
 * @returns {HTMLElement} an ordered list; each item carries data-start/data-end (UTF-16 offsets)
 */
export function tokenStrip(trace) {
  const list = document.createElement('ol');
  list.className = 'token-strip';
  list.dataset.figure = 'tokens';
  trace.tokens.forEach((token, i) => {
    const item = list.appendChild(document.createElement('li'));
    item.className = token.oov ? 'token oov' : 'token';
    item.dataset.start = String(token.start);
    item.dataset.end = String(token.end);
    item.title = token.oov
      ? `position ${i}: "${token.text}" is not among the 20,000 words: its vector is a deterministic hash`
      : `position ${i}: "${token.text}", vocabulary row ${token.id}`;
    const index = item.appendChild(document.createElement('span'));
    index.className = 'token-index';
    index.textContent = String(i);
    item.append(token.text);  // text node: user text is never parsed as HTML
  });
  return list;
}
