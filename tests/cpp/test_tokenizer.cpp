#include <catch2/catch.hpp>

#include "attn/tokenizer.hpp"

namespace {
std::vector<std::string> texts(const std::vector<attn::Token>& tokens) {
  std::vector<std::string> out;
  for (const auto& t : tokens) out.push_back(t.text);
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

TEST_CASE("apostrophes and typographic quotes split like the vocabulary") {
  const auto t = attn::tokenize("Don\xE2\x80\x99t");  // Don’t
  REQUIRE(texts(t) == std::vector<std::string>{"Don", "\xE2\x80\x99", "t"});
  CHECK(t[1].key == "'");
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
  CHECK(t[0].text == "a\xEF\xBF\xBD" "b");
  CHECK(t[0].end == 3);
  CHECK(t[1].text == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(t[2].text == "\xEF\xBF\xBD");
}

TEST_CASE("empty and white-space-only text gives no tokens, control characters separate") {
  CHECK(attn::tokenize("").empty());
  CHECK(attn::tokenize(" \t\n\xE3\x80\x80").empty());  // includes U+3000 ideographic space
  CHECK(texts(attn::tokenize(std::string("a\0b", 3))) == std::vector<std::string>{"a", "b"});
}
