#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "../asset.hpp"
#include "attn/lessons/soft_lookup.hpp"

// Every test name starts with "soft_lookup:" so that `ctest -R soft_lookup` selects them all.

namespace {

using Strings = std::vector<std::string>;
const Strings kKeys = {"Luke", "Puke", "Leia", "Han", "Lando"};
const Strings kValues = {"Sprangers", "Skywalker", "Organa", "Solo", "Calrissian"};

attn::SoftLookupOptions with_temperature(double t, attn::Normalizer normalizer = attn::Normalizer::softmax) {
  attn::SoftLookupOptions o;
  o.temperature = t;
  o.normalizer = normalizer;
  return o;
}

double sum(const xt::xtensor<float, 1>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

std::string text_of(const attn::BigramCount& b) {
  const auto shown = [](char32_t c) -> std::string {
    if (c == attn::kBigramStart) return "^";
    if (c == attn::kBigramEnd) return "$";
    return std::string(1, static_cast<char>(c));  // ASCII in these tests
  };
  return shown(b.first) + shown(b.second) + ":" + std::to_string(b.count);
}

}  // namespace

TEST_CASE("soft_lookup: bigrams of luke by hand, with boundary marks, lower-cased and trimmed") {
  Strings got;
  for (const auto& b : attn::char_bigrams("  Luke ")) got.push_back(text_of(b));
  // Sorted by code point: 'e' < 'k' < 'l' < 'u' < the marks (above U+10FFFF).
  CHECK(got == Strings{"e$:1", "ke:1", "lu:1", "uk:1", "^l:1"});
  Strings anna;
  for (const auto& b : attn::char_bigrams("anna")) anna.push_back(text_of(b));
  CHECK(anna == Strings{"an:1", "a$:1", "na:1", "nn:1", "^a:1"});  // "$" sorts after every character
  Strings repeated;
  for (const auto& b : attn::char_bigrams("aaa")) repeated.push_back(text_of(b));
  CHECK(repeated == Strings{"aa:2", "a$:1", "^a:1"});
  Strings empty;
  for (const auto& b : attn::char_bigrams("")) empty.push_back(text_of(b));
  CHECK(empty == Strings{"^$:1"});
}

TEST_CASE("soft_lookup: cosine of bigram counts by hand") {
  const auto luke = attn::char_bigrams("luke");
  // luke {^l lu uk ke e$}, puke {^p pu uk ke e$}: 3 shared of 5 each → 3 / (√5 √5) = 0.6.
  CHECK(attn::bigram_cosine(luke, attn::char_bigrams("Puke")) == Approx(0.6).epsilon(1e-12));
  // luk {^l lu uk k$}: 3 shared → 3 / (√5 · 2).
  CHECK(attn::bigram_cosine(luke, attn::char_bigrams("luk")) == Approx(3.0 / std::sqrt(20.0)).epsilon(1e-12));
  // aaa {^a, aa×2, a$} · anna {^a an nn na a$} = 1 + 1 = 2; norms √6 and √5.
  CHECK(attn::bigram_cosine(attn::char_bigrams("aaa"), attn::char_bigrams("anna")) ==
        Approx(2.0 / std::sqrt(30.0)).epsilon(1e-12));
  CHECK(attn::bigram_cosine(luke, attn::char_bigrams("LUKE")) == Approx(1.0).epsilon(1e-12));
  CHECK(attn::bigram_cosine(luke, attn::char_bigrams("xyz")) == 0.0);
}

TEST_CASE("soft_lookup: similarities, scores, softmax weights and the mixture for the query Luk") {
  const auto r = attn::soft_lookup("Luk", kKeys, kValues, with_temperature(0.5));
  REQUIRE(r.similarities.size() == 5);
  // luk {^l lu uk k$}; leia {^l le ei ia a$} shares ^l → 1/(2·√5); lando {^l la an nd do o$} shares ^l → 1/(2·√6).
  const std::vector<double> expected = {3 / std::sqrt(20.0), 1 / std::sqrt(20.0), 1 / std::sqrt(20.0), 0.0,
                                        1 / std::sqrt(24.0)};
  double z = 0.0;
  for (double s : expected) z += std::exp(s / 0.5);
  for (std::size_t j = 0; j < 5; ++j) {
    CHECK(r.similarities(j) == Approx(expected[j]).margin(1e-6));
    CHECK(r.scores(j) == Approx(expected[j] / 0.5).margin(1e-6));
    CHECK(r.weights(j) == Approx(std::exp(expected[j] / 0.5) / z).margin(1e-6));
    CHECK(r.exact(j) == 0.0f);
  }
  CHECK(r.shared_bigrams[0] == Strings{"^l", "lu", "uk"});
  CHECK(r.shared_bigrams[1] == Strings{"uk"});
  CHECK(r.shared_bigrams[3].empty());
  CHECK(r.values == kValues);
  CHECK(sum(r.mixture) == Approx(1.0).margin(1e-6));
  for (std::size_t j = 0; j < 5; ++j) CHECK(r.mixture(j) == r.weights(j));  // distinct values: one row each
  CHECK(sum(r.exact_mixture) == 0.0);                                       // no key is "luk": an exact lookup fails
}

TEST_CASE("soft_lookup: a small temperature gives the exact lookup back, a large one the uniform mix") {
  for (const auto method : {attn::Normalizer::softmax, attn::Normalizer::sparsemax, attn::Normalizer::entmax15,
                            attn::Normalizer::hardmax}) {
    const auto cold = attn::soft_lookup(" LUKE ", kKeys, kValues, with_temperature(1e-3, method));
    for (std::size_t j = 0; j < 5; ++j) {
      CHECK(cold.exact(j) == (j == 0 ? 1.0f : 0.0f));
      CHECK(cold.weights(j) == Approx(cold.exact(j)).margin(1e-6));  // the Kronecker delta
    }
    CHECK(cold.mixture(0) == Approx(1.0).margin(1e-6));
    CHECK(cold.exact_mixture(0) == 1.0f);
  }
  const auto hot = attn::soft_lookup("Luke", kKeys, kValues, with_temperature(1e4));
  for (std::size_t j = 0; j < 5; ++j) CHECK(hot.weights(j) == Approx(0.2).margin(1e-4));
  // Temperature 1 lies between: the exact key leads, the others keep some weight.
  const auto warm = attn::soft_lookup("Luke", kKeys, kValues, with_temperature(1));
  CHECK(warm.weights(0) > 0.3f);
  CHECK(warm.weights(0) < 0.9f);
  CHECK(warm.weights(1) > warm.weights(3));  // Puke shares uk ke e$ with Luke; Han shares nothing
}

TEST_CASE("soft_lookup: duplicated values are aggregated, duplicated keys share an exact match") {
  const Strings keys = {"anna", "hanna", "anne", "anna"};
  const Strings values = {"A", "B", "A", "C"};
  const auto r = attn::soft_lookup("anna", keys, values, with_temperature(0.2));
  CHECK(r.values == Strings{"A", "B", "C"});
  CHECK(r.value_index == std::vector<std::size_t>{0, 1, 0, 2});
  CHECK(r.mixture(0) == Approx(r.weights(0) + r.weights(2)).margin(1e-7));
  CHECK(r.mixture(1) == Approx(r.weights(1)).margin(1e-7));
  CHECK(r.mixture(2) == Approx(r.weights(3)).margin(1e-7));
  CHECK(sum(r.mixture) == Approx(1.0).margin(1e-6));
  CHECK(r.weights(0) == r.weights(3));  // the same key gets the same weight
  CHECK(r.exact_mixture(0) == 0.5f);
  CHECK(r.exact_mixture(2) == 0.5f);
}

TEST_CASE("soft_lookup: an empty query matches nothing and spreads the weight evenly") {
  const auto r = attn::soft_lookup("   ", kKeys, kValues, with_temperature(0.01));
  for (std::size_t j = 0; j < 5; ++j) {
    CHECK(r.similarities(j) == 0.0f);
    CHECK(r.exact(j) == 0.0f);
    CHECK(r.weights(j) == Approx(0.2).margin(1e-6));
  }
}

TEST_CASE("soft_lookup: word vectors compare meanings and flag words without a vector") {
  attn::SoftLookupOptions o = with_temperature(0.1);
  o.similarity = attn::LookupSimilarity::word_vectors;
  const auto& table = shipped_table();
  const Strings keys = {"dog", "car", "xqzzyv"};
  const Strings values = {"animal", "vehicle", "nonsense"};
  const auto r = attn::soft_lookup("cat", keys, values, o, &table);
  // Reference: cosine of the all-but-the-top vectors, x − μ with its parts along u_1 … u_D removed,
  // formed here in double from the table's fit.
  const auto processed = [&](const std::string& word) {
    const auto x = table.vector(static_cast<std::size_t>(table.id_of(word)));
    const auto& fit = table.post_processing();
    std::vector<double> y(x.size());
    for (std::size_t c = 0; c < y.size(); ++c) y[c] = double(x(c)) - fit.mean(c);
    for (std::size_t k = 0; k < fit.directions.shape(0); ++k) {
      double along = 0;
      for (std::size_t c = 0; c < y.size(); ++c) along += y[c] * fit.directions(k, c);
      for (std::size_t c = 0; c < y.size(); ++c) y[c] -= along * fit.directions(k, c);
    }
    return y;
  };
  const auto cosine = [&](const std::string& a, const std::string& b) {
    const auto u = processed(a), v = processed(b);
    double dot = 0, uu = 0, vv = 0;
    for (std::size_t i = 0; i < u.size(); ++i) {
      dot += u[i] * v[i];
      uu += u[i] * u[i];
      vv += v[i] * v[i];
    }
    return dot / std::sqrt(uu * vv);
  };
  CHECK(r.similarities(0) == Approx(cosine("cat", "dog")).margin(1e-5));
  CHECK(r.similarities(1) == Approx(cosine("cat", "car")).margin(1e-5));
  CHECK(r.similarities(0) > r.similarities(1));
  CHECK(r.weights(0) > 0.5f);
  CHECK(r.key_oov == std::vector<bool>{false, false, true});
  CHECK_FALSE(r.query_oov);
  CHECK(r.shared_bigrams[0].empty());
  // A multi-word key is the mean of its words' vectors; an empty query has none: similarity 0.
  const auto empty = attn::soft_lookup("", keys, values, o, &table);
  for (std::size_t j = 0; j < 3; ++j) CHECK(empty.similarities(j) == 0.0f);
  CHECK_THROWS_WITH(attn::soft_lookup("cat", keys, values, o), Catch::Contains("needs the embedding table"));
}

TEST_CASE("soft_lookup: bad tables, strings and temperatures are refused with the argument named") {
  const auto o = with_temperature(1);
  CHECK_THROWS_AS(attn::soft_lookup("a", {"a", "b"}, {"x"}, o), std::invalid_argument);
  CHECK_THROWS_WITH(attn::soft_lookup("a", {"a", "b"}, {"x"}, o), Catch::Contains("2 keys and 1 values"));
  CHECK_THROWS_WITH(attn::soft_lookup("a", {}, {}, o), Catch::Contains("the table is empty"));
  CHECK_THROWS_WITH(attn::soft_lookup("a", {"a", " "}, {"x", "y"}, o), Catch::Contains("keys[1] is empty"));
  CHECK_THROWS_WITH(attn::soft_lookup("a", {"a"}, {"\t"}, o), Catch::Contains("values[0] is empty"));
  const Strings many(33, "k");
  CHECK_THROWS_AS(attn::soft_lookup("a", many, many, o), std::out_of_range);
  CHECK_THROWS_WITH(attn::soft_lookup("a", many, many, o), Catch::Contains("at most 32"));
  const std::string long_text(65, 'x');
  CHECK_THROWS_WITH(attn::soft_lookup(long_text, {"a"}, {"b"}, o),
                    Catch::Contains("query has 65 characters; at most 64"));
  CHECK_THROWS_WITH(attn::soft_lookup("a", {"a", long_text}, {"b", "c"}, o), Catch::Contains("keys[1] has 65"));
  // 64 code points of two bytes each are fine: lengths count characters, not bytes.
  std::string accents;
  for (int i = 0; i < 64; ++i) accents += "\xC3\xA9";
  CHECK_NOTHROW(attn::soft_lookup(accents, {"a"}, {"b"}, o));
  for (const double t : std::vector<double>{0.0, -1.0, 1e-5, 1e5, std::nan(""), INFINITY}) {
    CHECK_THROWS_AS(attn::soft_lookup("a", {"a"}, {"b"}, with_temperature(t)), std::out_of_range);
    CHECK_THROWS_WITH(attn::soft_lookup("a", {"a"}, {"b"}, with_temperature(t)),
                      Catch::Contains("temperature must be"));
  }
}
