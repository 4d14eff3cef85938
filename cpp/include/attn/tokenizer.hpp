#pragma once
// Splits text into words and punctuation, the units the word vectors are keyed by.
#include <cstddef>
#include <string>
#include <vector>

namespace attn {

// One token of the input text.
struct Token {
  std::string text;   // the token as typed (UTF-8)
  std::string key;    // lookup key into the vocabulary: lower-cased (ASCII and Latin-1 letters)
  std::size_t start;  // offset of the first UTF-16 code unit in the original text
  std::size_t end;    // one past the last UTF-16 code unit (JavaScript's String.slice(start, end))
};

// Tokenizes UTF-8 text. Rules:
//  - white space (ASCII, U+00A0, U+1680, U+2000–U+200B, U+2028/9, U+202F, U+205F, U+3000, U+FEFF)
//    separates tokens and is dropped;
//  - a word is a run of letters, digits and any other code point ≥ U+0080 that is not white space
//    or punctuation (so accents, combining marks, CJK and emoji stay inside their word);
//  - every other character (ASCII punctuation and symbols, General Punctuation U+2010–U+2027,
//    U+2030–U+205E, CJK punctuation U+3001–U+303F, fullwidth ASCII punctuation) is a token of its own,
//    matching the vocabulary, which keys "'", "," and "." separately.
// Any byte sequence is accepted: each byte that does not start a valid UTF-8 sequence becomes one
// U+FFFD (one UTF-16 unit), and a valid sequence is never split. Text from JavaScript is always
// valid UTF-8, so spans match String.slice there. Never throws.
std::vector<Token> tokenize(const std::string& text);

// The decoder and lower-casing tokenize uses, for other code that compares strings as the vocabulary
// does. utf8_code_points: the code points of UTF-8 text; each byte that does not start a valid UTF-8
// sequence becomes one U+FFFD. to_utf8: the inverse (valid UTF-8 for any code point ≤ U+10FFFF).
// lookup_form: a code point as Token::key spells it (ASCII and Latin-1 capitals lower-cased, curly
// quotes and apostrophes made ASCII). None of them throws.
std::u32string utf8_code_points(const std::string& text);
std::string to_utf8(const std::u32string& points);
char32_t lookup_form(char32_t c);

}  // namespace attn
