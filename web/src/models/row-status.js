// Rows of attention weights that are not an ordinary distribution over the other keys, so the figures
// can say so instead of claiming "each row sums to 1" (Vaswani et al. 2017 eq. 1 normalizes a row over
// the keys the masks leave; a row with none left is empty):
//  - empty: every key masked (padding: valid length 0). The core gives it all-zero weights and a zero
//    output (attention.hpp, masked_softmax), deliberately not NaN;
//  - self only: a head that skips the query's own key (the semantic head, masksOwnPosition) left with
//    no other key — the first token under a causal mask — attends to itself (attention.hpp, mask_diagonal).

/**
 * @param {{ scores: { data: Float32Array }, masksOwnPosition?: boolean }} head  one head of a trace
 * @param {number} rows  queries @param {number} cols  keys (scores[i, j] = scores.data[i * cols + j])
 * @returns {{ empty: number[], selfOnly: number[] }} the rows of each kind, ascending
 */
export function rowStatus(head, rows, cols) {
  const scores = head.scores.data;
  const empty = [],
    selfOnly = [];
  for (let i = 0; i < rows; i++) {
    let open = 0;
    for (let j = 0; j < cols; j++) if (scores[i * cols + j] !== -Infinity) open++;
    if (open === 0) empty.push(i);
    // With masksOwnPosition the core leaves the own key unmasked only when nothing else is left.
    else if (head.masksOwnPosition && i < cols && scores[i * cols + i] !== -Infinity) selfOnly.push(i);
  }
  return { empty, selfOnly };
}

/** Quoted words, joined: “The”, “river” and “bank”. */
function quoted(labels, rows) {
  const words = rows.map((i) => `“${labels[i]}”`);
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** One sentence naming the rows that attend to themselves because nothing else is left ('' if none). */
export function selfOnlyText(labels, selfOnly) {
  if (selfOnly.length === 0) return '';
  const one = selfOnly.length === 1;
  return (
    `${quoted(labels, selfOnly)} ${one ? 'has' : 'have'} no other word ${one ? 'it' : 'they'} may see, ` +
    `so ${one ? 'it attends' : 'each attends'} to itself.`
  );
}

/** Why a row is empty, in a few words: padding when a valid length is set, else every key masked. */
export function emptyReason(options) {
  return options?.validLength !== undefined && options?.validLength !== null ? 'padding' : 'every key masked';
}

/**
 * What the rows sum to, for a caption: "each row sums to 1", or which rows are empty and why.
 * @param {{ empty: number[] }} status  @param {number} rows  @param {object} options  the trace's options
 */
export function rowSumText({ empty }, rows, options) {
  if (empty.length === 0) return 'each row sums to 1';
  const reason = `no key to attend to (${emptyReason(options)}): all 0`;
  if (empty.length === rows) return `${rows === 1 ? 'its row has' : `${rows} rows have`} ${reason}`;
  return `each row sums to 1, except ${empty.length === 1 ? '1 row' : `${empty.length} rows`} with ${reason}`;
}
