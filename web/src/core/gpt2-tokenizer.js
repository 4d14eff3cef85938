// GPT-2's byte-level BPE (Radford et al. 2019, §2.2: 50,257 tokens, OpenAI's `r50k_base` encoding), from the
// gpt-tokenizer package. A module of its own, imported when the first GPT-2 checkpoint loads: its tables (0.5 MB)
// are nothing the rest of the page needs, and the core's build ships it as dist/core/gpt2-tokenizer.js beside index.js.
//
// Tokens are read back to text from their bytes here, not with the package's decode(): that decodes through one shared
// streaming TextDecoder, so a call whose bytes end inside a character (a piece holding part of "東" or "🦜") leaves
// them to come out at a later call, whatever that decodes.
import r50k, { decode, EndOfText, encode as encodePieces } from 'gpt-tokenizer/encoding/r50k_base';

/** <|endoftext|>'s id: the last of the 50,257, GPT-2's document separator. */
export const END_OF_TEXT_ID = 50256;
if (decode([END_OF_TEXT_ID]) !== EndOfText)
  throw new Error(`gpt2-tokenizer: token ${END_OF_TEXT_ID} is not ${EndOfText}`);

const utf8 = new TextEncoder();
const text = new TextDecoder(); // never streaming: each call stands alone

/** A token's bytes (the package's table gives a string for some, the UTF-8 bytes of the rest). */
function bytesOf(id) {
  const bytes = r50k.bytePairEncodingCoreProcessor.tryDecodeToken(id);
  if (bytes === undefined) throw new RangeError(`gpt2-tokenizer: no token ${id}`);
  return typeof bytes === 'string' ? utf8.encode(bytes) : bytes;
}

/**
 * The token ids of `text`: <|endoftext|> written in the text is the separator token (as GPT-2 read its training
 * documents), any other text is BPE pieces (other special-token spellings too: r50k_base has no other).
 * @param {string} input @returns {number[]}
 */
export function encode(input) {
  return input
    .split(EndOfText)
    .flatMap((part, i) => [...(i ? [END_OF_TEXT_ID] : []), ...encodePieces(part, { disallowedSpecial: new Set() })]);
}

/**
 * A token as text on its own: a piece that holds only part of a character's bytes shows U+FFFD for them.
 * @param {number} id @returns {string}
 */
export function pieceText(id) {
  return text.decode(bytesOf(id));
}

/** UTF-8 bytes of a code point. */
const utf8Length = (codePoint) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * Where each token of `ids` (encode(input)) ends in `input`, in UTF-16 units, from the tokens' bytes: a piece holding
 * only the first bytes of a character ends before it (an empty span), the piece that completes it ends after it, so
 * the spans tile the text.
 * @param {string} input @param {number[]} ids @returns {number[]} ends, one per token
 */
export function tokenEnds(input, ids) {
  const boundaries = new Map([[0, 0]]); // the UTF-8 offset after each whole character → its UTF-16 offset
  let bytes = 0;
  let units = 0;
  for (const character of input) {
    bytes += utf8Length(character.codePointAt(0));
    units += character.length;
    boundaries.set(bytes, units);
  }
  let total = 0;
  let end = 0;
  return ids.map((id) => {
    total += bytesOf(id).length;
    end = boundaries.get(total) ?? end;
    return end;
  });
}
