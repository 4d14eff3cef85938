// The tokens the core found, in order, with their positions; out-of-vocabulary words, [MASK]ed words
// and padding (beyond the valid length) are marked.

function describe(token, i, padding) {
  if (token.masked) return `position ${i}: "${token.text}" replaced by [MASK] (the mean word vector); click to restore`;
  const vector = token.oov
    ? `"${token.text}" is not among the 20,000 words: its vector is a deterministic hash`
    : `"${token.text}", vocabulary row ${token.id}`;
  return `position ${i}: ${vector}${padding ? ' — padding: no query attends to it' : ''}; click to mask`;
}

/**
 * @param {object} trace  core.explain() result
 * @returns {HTMLElement} an ordered list; each item carries data-index, data-start, data-end (UTF-16 offsets)
 */
export function tokenStrip(trace) {
  const list = document.createElement('ol');
  list.className = 'token-strip';
  list.dataset.figure = 'tokens';
  trace.tokens.forEach((token, i) => {
    const padding = i >= trace.validLength;
    const item = list.appendChild(document.createElement('li'));
    item.className = ['token', token.oov && 'oov', token.masked && 'masked', padding && 'padding'].filter(Boolean).join(' ');
    item.dataset.index = String(i);
    item.dataset.start = String(token.start);
    item.dataset.end = String(token.end);
    item.title = describe(token, i, padding);
    item.tabIndex = 0;
    const index = item.appendChild(document.createElement('span'));
    index.className = 'token-index';
    index.textContent = String(i);
    const text = item.appendChild(document.createElement('span'));
    text.className = 'token-text';
    text.textContent = token.masked ? '[MASK]' : token.text;  // text, never HTML
  });
  return list;
}
