#include <catch2/catch.hpp>

#include "attn/text/tokenizer.hpp"

namespace {
std::vector<std::string> texts(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> out;
  for (const auto& t : tokens) out.push_back(t.text);
  return out;
}
std::vector<std::string> keys(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> out;
  for (const auto& t : tokens) out.push_back(t.key);
  return out;
}
}  // namespace

TEST_CASE("words and punctuation, lower-cased keys, UTF-16 spans") {
  const auto t = attn::tokenize("The river bank, muddy!");
  REQUIRE(texts(t) == std::vector<std::string>{"The", "river", "bank", ",", "muddy", "!"});
  CHECK(t[0].key == "the");
  CHECK(t[0].start == 0);
  CHECK(t[0].end == 3);
  CHECK(t[3].start == 14);
  CHECK(t[3].end == 15);
  CHECK(t[5].start == 21);
}

TEST_CASE("clitics split as PTB does: did n't, it 's, we 're, and the spans slice the typed text") {
  const auto t = attn::tokenize("The animal didn't cross");
  REQUIRE(texts(t) == std::vector<std::string>{"The", "animal", "did", "n't", "cross"});
  CHECK(t[2].start == 11);
  CHECK(t[2].end == 14);
  CHECK(t[3].start == 14);
  CHECK(t[3].end == 17);
  CHECK(keys(attn::tokenize("it's we're I've they'll I'd I'm")) ==
        std::vector<std::string>{"it", "'s", "we", "'re", "i", "'ve", "they", "'ll", "i", "'d", "i", "'m"});
  CHECK(texts(attn::tokenize("can't won't ain't")) == std::vector<std::string>{"ca", "n't", "wo", "n't", "ai", "n't"});
  CHECK(keys(attn::tokenize("DIDN'T IT'S")) == std::vector<std::string>{"did", "n't", "it", "'s"});
  CHECK(keys(attn::tokenize("I'd've shouldn't've")) ==
        std::vector<std::string>{"i", "'d", "'ve", "should", "n't", "'ve"});
  CHECK(keys(attn::tokenize("Tom's mother-in-law's")) == std::vector<std::string>{"tom", "'s", "mother-in-law", "'s"});
}

TEST_CASE("the typographic apostrophe splits the same way, keyed in ASCII, spans in UTF-16 units") {
  const auto t = attn::tokenize("Don\xE2\x80\x99t it\xE2\x80\x99s");  // Don’t it’s
  REQUIRE(texts(t) == std::vector<std::string>{"Do", "n\xE2\x80\x99t", "it", "\xE2\x80\x99s"});
  CHECK(keys(t) == std::vector<std::string>{"do", "n't", "it", "'s"});
  CHECK(t[1].start == 2);
  CHECK(t[1].end == 5);  // ’ is one UTF-16 unit
  CHECK(t[3].start == 8);
  CHECK(t[3].end == 10);
}

TEST_CASE("other apostrophes are punctuation: quotes, plural possessives, o-clock") {
  CHECK(texts(attn::tokenize("'Hello,' she said")) == std::vector<std::string>{"'", "Hello", ",", "'", "she", "said"});
  CHECK(texts(attn::tokenize("the students' books")) == std::vector<std::string>{"the", "students", "'", "books"});
  CHECK(texts(attn::tokenize("five o'clock")) == std::vector<std::string>{"five", "o", "'", "clock"});
  CHECK(texts(attn::tokenize("it'sy n't 'd")) == std::vector<std::string>{"it", "'", "sy", "n", "'", "t", "'", "d"});
}

TEST_CASE("hyphenated compounds and numbers with separators stay whole, as GloVe's vocabulary has them") {
  CHECK(texts(attn::tokenize("a well-known 1,000-year-old fact")) ==
        std::vector<std::string>{"a", "well-known", "1,000-year-old", "fact"});
  CHECK(texts(attn::tokenize("3.5 and 1,000,000 in 1999.")) ==
        std::vector<std::string>{"3.5", "and", "1,000,000", "in", "1999", "."});
  // Separators that join nothing are punctuation.
  CHECK(texts(attn::tokenize("so-- well - a, 1. 2,x -3")) ==
        std::vector<std::string>{"so", "-", "-", "well", "-", "a", ",", "1", ".", "2", ",", "x", "-", "3"});
  // Abbreviations lose their period (the vocabulary keys "mr"), times and percentages split.
  CHECK(texts(attn::tokenize("Mr. Smith at 12:30, 50%")) ==
        std::vector<std::string>{"Mr", ".", "Smith", "at", "12", ":", "30", ",", "50", "%"});
}

TEST_CASE("with a vocabulary a compound it lacks is split into its parts and hyphens") {
  const auto known = [](const std::string& key) { return key == "well-known"; };
  const auto t = attn::tokenize("well-known attention-based 3.5", known);
  REQUIRE(texts(t) == std::vector<std::string>{"well-known", "attention", "-", "based", "3.5"});
  CHECK(t[1].start == 11);
  CHECK(t[1].end == 20);
  CHECK(t[2].start == 20);
  CHECK(t[3].end == 26);
  // U+2010 HYPHEN joins like "-" and is keyed as "-".
  const auto u = attn::tokenize("rabbit\xE2\x80\x90hole", known);
  CHECK(keys(u) == std::vector<std::string>{"rabbit", "-", "hole"});
  CHECK(keys(attn::tokenize("rabbit\xE2\x80\x90hole")) == std::vector<std::string>{"rabbit-hole"});
}

TEST_CASE("non-ASCII text: accents, emoji, CJK keep their code points, spans count UTF-16 units") {
  const auto t = attn::tokenize("Caf\xC3\x89 \xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC");  // CafÉ 😀 日本
  REQUIRE(t.size() == 3);
  CHECK(t[0].key == "caf\xC3\xA9");  // É lower-cased to é
  CHECK(t[1].start == 5);
  CHECK(t[1].end == 7);  // the emoji is a surrogate pair
  CHECK(t[2].start == 8);
  CHECK(t[2].end == 10);
}

TEST_CASE("any bytes are accepted: invalid UTF-8 becomes U+FFFD, never a split sequence") {
  const std::string bad = std::string("a\xFF") + "b \xE2\x82" + " \xC3";
  const auto t = attn::tokenize(bad);
  REQUIRE(t.size() == 3);
  CHECK(t[0].text ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(t[0].end == 3);
  CHECK(t[1].text == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(t[2].text == "\xEF\xBF\xBD");
}

TEST_CASE("empty and white-space-only text gives no tokens, control characters separate") {
  CHECK(attn::tokenize("").empty());
  CHECK(attn::tokenize(" \t\n\xE3\x80\x80").empty());  // includes U+3000 ideographic space
  CHECK(texts(attn::tokenize(std::string("a\0b", 3))) == std::vector<std::string>{"a", "b"});
}
