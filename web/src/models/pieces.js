// How the page shows the tokens of a model that reads byte-level BPE pieces (a GPT-2 checkpoint: Radford et al. 2019
// §2.2), beside our models' words: a piece carries its leading space (" bank"), which a label shows as "␣bank" (SVG
// text drops a leading space), and the pieces join into the text with nothing between them, where words join with a
// space. Decided by the model's config (its architecture), here, so that no figure branches on a model.

/** Whether a model's tokens are BPE pieces (a checkpoint's architecture), not our tokenizer's words. */
export const readsPieces = (config) => config.architecture !== undefined;

/**
 * A token's text as the page labels it: a piece's leading space as "␣", and a piece that holds only the first bytes of a
 * character (its span is empty; the next piece completes the character) as "�".
 */
export function shownToken(text, config) {
  if (!readsPieces(config)) return text;
  if (text === '') return '\uFFFD';
  return text.startsWith(' ') ? `␣${text.slice(1)}` : text;
}

/** The piece behind a label shownToken made: "␣bank" → " bank" (our models' words are their own labels). */
export function pieceOf(shown, config) {
  return readsPieces(config) ? shown.replace(/^␣/, ' ') : shown;
}

/** The model's tokens as one text, as it read them: pieces joined as they are, words with a space between. */
export function readingOf(tokens, config) {
  return tokens.map((t) => t.text).join(readsPieces(config) ? '' : ' ');
}

/**
 * Whether the model's output `word` (top[i].word) is the token `text` that came: pieces as they are, our words by
 * their lower case (the word vectors' case).
 */
export function sameToken(word, text, config) {
  return readsPieces(config) ? word === text : word === text.toLowerCase();
}
