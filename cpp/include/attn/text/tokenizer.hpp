#pragma once
// Splits text into the units the word vectors are keyed by, the way GloVe's training text was split
// (the Stanford PTB tokenizer, lower-cased: Pennington et al. 2014, §4.2; PTB conventions).
#include <cstddef>
#include <functional>
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

// Tokenizes UTF-8 text. Rules, in the order they apply:
//  1. White space (ASCII, U+00A0, U+1680, U+2000–U+200B, U+2028/9, U+202F, U+205F, U+3000, U+FEFF)
//     separates tokens and is dropped.
//  2. A word is a run of letters, digits and any other code point ≥ U+0080 that is not white space
//     or punctuation (so accents, combining marks, CJK and emoji stay inside their word). Inside a
//     word, a hyphen (U+002D, U+2010, U+2011) between two word characters joins a compound
//     ("well-known"), and "," or "." between two ASCII digits joins a number ("1,000", "3.5"), as
//     GloVe's vocabulary spells them.
//  3. Clitics are split off the word before them, as PTB does: "didn't" → "did" "n't", "can't" →
//     "ca" "n't", "won't" → "wo" "n't", "it's" → "it" "'s", and likewise "'re", "'ve", "'ll", "'d",
//     "'m" (any letter case; the apostrophe may be ' or ’). A clitic needs a word before it and no
//     word character after it. Any other apostrophe is punctuation ("o'clock" → "o" "'" "clock"):
//     the vocabulary has no word with an apostrophe in it.
//  4. Every other character (ASCII punctuation and symbols, General Punctuation U+2010–U+2027,
//     U+2030–U+205E, CJK punctuation U+3001–U+303F, fullwidth ASCII punctuation) is a token of its
//     own, matching the vocabulary, which keys "'", "," and "." separately. Abbreviations lose their
//     period ("Mr." → "Mr" "."): the vocabulary keeps "mr", not "mr.".
// Any byte sequence is accepted: each byte that does not start a valid UTF-8 sequence becomes one
// U+FFFD (one UTF-16 unit), and a valid sequence is never split. Text from JavaScript is always
// valid UTF-8, so spans match String.slice there. Never throws.
std::vector<Token> tokenize(const std::string& text);

// The same, splitting a hyphenated compound the vocabulary lacks into its parts and hyphens
// ("attention-based" → "attention" "-" "based"; "well-known" stays whole when known("well-known")):
// GloVe learned common compounds as words, and the parts of a rare one are better than no vector.
// known(key) says whether a lookup key (Token::key) has a vector. Numbers are never split.
std::vector<Token> tokenize(const std::string& text, const std::function<bool(const std::string& key)>& known);

// The decoder and lower-casing tokenize uses, for other code that compares strings as the vocabulary
// does. utf8_code_points: the code points of UTF-8 text; each byte that does not start a valid UTF-8
// sequence becomes one U+FFFD. to_utf8: the inverse (valid UTF-8 for any code point ≤ U+10FFFF).
// lookup_form: a code point as Token::key spells it (ASCII and Latin-1 capitals lower-cased, curly
// quotes, apostrophes and hyphens U+2010/U+2011 made ASCII). None of them throws.
std::u32string utf8_code_points(const std::string& text);
std::string to_utf8(const std::u32string& points);
char32_t lookup_form(char32_t c);

}  // namespace attn
