// GPT-2's byte-level BPE (Radford et al. 2019, §2.2: 50,257 tokens, OpenAI's `r50k_base` encoding), from the
// gpt-tokenizer package. A module of its own, imported when the first GPT-2 checkpoint loads: its tables (0.5 MB)
// are nothing the rest of the page needs, and the core's build ships it as dist/core/gpt2-tokenizer.js beside index.js.
import { decode, EndOfText, encode as encodePieces } from 'gpt-tokenizer/encoding/r50k_base';

/** <|endoftext|>'s id: the last of the 50,257, GPT-2's document separator. */
export const END_OF_TEXT_ID = 50256;
if (decode([END_OF_TEXT_ID]) !== EndOfText)
  throw new Error(`gpt2-tokenizer: token ${END_OF_TEXT_ID} is not ${EndOfText}`);

/**
 * The token ids of `text`: <|endoftext|> written in the text is the separator token (as GPT-2 read its training
 * documents), any other text is BPE pieces (other special-token spellings too: r50k_base has no other).
 * @param {string} text @returns {number[]}
 */
export function encode(text) {
  return text
    .split(EndOfText)
    .flatMap((part, i) => [...(i ? [END_OF_TEXT_ID] : []), ...encodePieces(part, { disallowedSpecial: new Set() })]);
}

export { decode };
