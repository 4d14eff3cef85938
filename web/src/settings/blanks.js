// Which blanks (state.maskedPositions) survive a new sentence. A blank belongs to a word, not to a slot:
// after select-all and typing, "opened" at position 6 must not come back as [MASK] under whatever word
// lands at position 6 (docs/page.md, "Tokens").

/**
 * The blanks a new sentence keeps: position i stays blanked only when token i is the same word in the old
 * and the new sentence (compared as the vocabulary does, lower-cased), so editing elsewhere keeps a blank and
 * retyping it, inserting a word before it or deleting it drops it.
 * @param {number[]} masked  token positions blanked in the old sentence (from 0)
 * @param {{ text: string }[]} before  the old sentence's tokens (core.tokenize)
 * @param {{ text: string }[]} after  the new sentence's tokens (core.tokenize)
 * @returns {number[]}  the positions kept, ascending, without repeats (a subset of `masked`)
 */
export function blanksKept(masked, before, after) {
  const same = (i) =>
    i < before.length && i < after.length && before[i].text.toLowerCase() === after[i].text.toLowerCase();
  return [...new Set(masked)].filter(same).sort((a, b) => a - b);
}

/**
 * A change of the state with the blanks a new sentence keeps (blanksKept) added: a change that sets
 * maskedPositions itself (a link, a tour step, el.change({ sentence, maskedPositions })) is returned as it is,
 * and so is one that leaves the sentence or the blanks alone.
 * @param {object} change  a partial state  @param {{ sentence: string, maskedPositions: number[] }} state  the current state
 * @param {(text: string) => { text: string }[]} tokenize  core.tokenize
 * @returns {object}  `change`, or a copy of it with maskedPositions
 */
export function keepingBlanks(change, state, tokenize) {
  if (!('sentence' in change) || 'maskedPositions' in change || change.sentence === state.sentence) return change;
  if (state.maskedPositions.length === 0) return change;
  const kept = blanksKept(state.maskedPositions, tokenize(state.sentence), tokenize(change.sentence));
  return { ...change, maskedPositions: kept };
}
