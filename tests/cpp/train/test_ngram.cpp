#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "attn/train/ngram.hpp"

using namespace attn::train;

namespace {

using Sentences = std::vector<std::vector<std::int32_t>>;
constexpr std::int32_t S = KneserNeyBigram::kSentenceStart;

// The hand-worked corpus: V = 4, three sentences, 8 tokens.
const Sentences kTiny = {{0, 1, 2}, {0, 1, 3}, {1, 2}};

// Sentences of 4–12 tokens in [0, V) from a Markov chain: after w comes (7 w + 3) mod V (a permutation
// of [0, V) when V is prime to 7) with probability 7/8, otherwise a uniform token; the first token is
// uniform. std::mt19937's output is fixed by the standard, and the draws use it directly (modulo), so the
// text is the same everywhere.
Sentences markov_text(std::size_t count, std::int32_t V, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Sentences sentences(count);
  for (std::vector<std::int32_t>& sentence : sentences) {
    const std::size_t length = 4 + rng() % 9;
    std::int32_t w = static_cast<std::int32_t>(rng() % static_cast<std::uint32_t>(V));
    sentence.push_back(w);
    while (sentence.size() < length) {
      w = rng() % 8 != 0 ? (7 * w + 3) % V : static_cast<std::int32_t>(rng() % static_cast<std::uint32_t>(V));
      sentence.push_back(w);
    }
  }
  return sentences;
}

}  // namespace

// Counts of kTiny (S = <s>):
//   bigrams        c(S 0) = 2, c(S 1) = 1, c(0 1) = 2, c(1 2) = 2, c(1 3) = 1      (5 types, 8 tokens)
//   counts/counts  n1 = 2 (S 1, 1 3), n2 = 3 (S 0, 0 1, 1 2)  →  D = 2 / (2 + 2·3) = 1/4
//   contexts       c(S) = 3, N1+(S •) = 2;  c(0) = 2, N1+(0 •) = 1;  c(1) = 3, N1+(1 •) = 2;
//                  c(2) = c(3) = 0 (2 and 3 only end sentences: unseen contexts)
//   continuation   N1+(• 0) = 1 {S}, N1+(• 1) = 2 {S, 0}, N1+(• 2) = 1 {1}, N1+(• 3) = 1 {1}; N1+(• •) = 5
//                  p_cont(w) = (N1+(• w) + 1) / (5 + 4):  2/9, 3/9, 2/9, 2/9
// p(w | v) = (max(c(v w) − 1/4, 0) + 1/4 · N1+(v •) · p_cont(w)) / c(v):
//   <s>  p(0|S) = (7/4 + 1/2 · 2/9) / 3 = 7/12 + 1/27 = 67/108      (seen)
//        p(1|S) = (3/4 + 1/2 · 3/9) / 3 = 1/4 + 1/18 = 33/108
//        p(2|S) = p(3|S) = (1/2 · 2/9) / 3 = 1/27 = 4/108           (unseen, seen context)
//   0    p(1|0) = (7/4 + 1/4 · 3/9) / 2 = 7/8 + 1/24 = 11/12
//        p(0|0) = p(2|0) = p(3|0) = (1/4 · 2/9) / 2 = 1/36
//   1    p(2|1) = (7/4 + 1/2 · 2/9) / 3 = 67/108,  p(3|1) = (3/4 + 1/9) / 3 = 31/108,
//        p(0|1) = (1/2 · 2/9) / 3 = 4/108,        p(1|1) = (1/2 · 3/9) / 3 = 6/108
//   2, 3 p(w|2) = p(w|3) = p_cont(w)                                 (unseen contexts)
// Unigram: counts 2, 3, 2, 1, N = 8, p(w) = (count + 1) / (8 + 4) = 3/12, 4/12, 3/12, 2/12.
TEST_CASE("ngram: Kneser-Ney bigram and add-one unigram on a hand-worked corpus", "[train]") {
  const KneserNeyBigram kn(kTiny, 4);
  CHECK(kn.discount() == Approx(0.25).epsilon(0).margin(1e-12));

  struct Case {
    std::int32_t previous, word;
    double expected;
  };
  const Case cases[] = {
      {S, 0, 67.0 / 108}, {S, 1, 33.0 / 108}, {S, 2, 4.0 / 108}, {S, 3, 4.0 / 108},  {0, 1, 11.0 / 12},
      {0, 0, 1.0 / 36},   {0, 2, 1.0 / 36},   {0, 3, 1.0 / 36},  {1, 2, 67.0 / 108}, {1, 3, 31.0 / 108},
      {1, 0, 4.0 / 108},  {1, 1, 6.0 / 108},  {2, 0, 2.0 / 9},   {2, 1, 3.0 / 9},    {2, 2, 2.0 / 9},
      {2, 3, 2.0 / 9},    {3, 0, 2.0 / 9},    {3, 1, 3.0 / 9},   {3, 2, 2.0 / 9},    {3, 3, 2.0 / 9},
  };
  double max_diff = 0;
  for (const Case& c : cases) {
    const double p = std::exp(kn.log_prob(c.previous, c.word));
    max_diff = std::max(max_diff, std::abs(p - c.expected));
    INFO("p(" << c.word << " | " << c.previous << ") = " << p << ", by hand " << c.expected);
    CHECK(p == Approx(c.expected).epsilon(0).margin(1e-12));
  }
  {
    INFO("bigram: max |p − hand| = " << max_diff);
    CHECK(max_diff <= 1e-12);
  }

  const UnigramModel uni(kTiny, 4);
  CHECK(uni.training_tokens() == 8);
  const double unigram_expected[] = {3.0 / 12, 4.0 / 12, 3.0 / 12, 2.0 / 12};
  for (std::int32_t w = 0; w < 4; ++w)
    CHECK(std::exp(uni.log_prob(w)) == Approx(unigram_expected[w]).epsilon(0).margin(1e-12));

  // Empty sentences add no token and no bigram.
  const KneserNeyBigram with_empty({{}, {0, 1, 2}, {}, {0, 1, 3}, {1, 2}}, 4);
  CHECK(with_empty.discount() == kn.discount());
  for (const Case& c : cases) CHECK(with_empty.log_prob(c.previous, c.word) == kn.log_prob(c.previous, c.word));
}

TEST_CASE("ngram: every context's distribution sums to 1 and gives every word p > 0", "[train]") {
  struct Corpus {
    Sentences sentences;
    std::int32_t V;
  };
  // The tiny corpus; a Markov text over 50 ids of which some never occur (ids ≥ 40 are never drawn
  // because the text uses V = 40, the models V = 50).
  const Corpus corpora[] = {{kTiny, 4}, {markov_text(200, 40, 1), 50}};
  for (const Corpus& corpus : corpora) {
    const KneserNeyBigram kn(corpus.sentences, static_cast<std::size_t>(corpus.V));
    double max_error = 0, min_p = 1;
    for (std::int32_t v = S; v < corpus.V; ++v) {
      double sum = 0;
      for (std::int32_t w = 0; w < corpus.V; ++w) {
        const double p = std::exp(kn.log_prob(v, w));
        min_p = std::min(min_p, p);
        sum += p;
      }
      max_error = std::max(max_error, std::abs(sum - 1));
    }
    INFO("V = " << corpus.V << ", D = " << kn.discount() << ": bigram max |Σ_w p(w|v) − 1| = " << max_error
                << ", min p = " << min_p);
    CHECK(max_error <= 1e-9);
    CHECK(min_p > 0);

    const UnigramModel uni(corpus.sentences, static_cast<std::size_t>(corpus.V));
    double sum = 0;
    for (std::int32_t w = 0; w < corpus.V; ++w) sum += std::exp(uni.log_prob(w));
    INFO("unigram |Σ_w p(w) − 1| = " << std::abs(sum - 1));
    CHECK(std::abs(sum - 1) <= 1e-9);
  }
}

TEST_CASE("ngram: perplexity is exp(−mean log-probability) over every token", "[train]") {
  const KneserNeyBigram kn(kTiny, 4);
  const UnigramModel uni(kTiny, 4);
  const Sentences held_out = {{0, 1, 2}, {}, {3}};  // 4 tokens; the empty sentence adds none

  // Bigram: p(0|S) p(1|0) p(2|1) p(3|S) = 67/108 · 11/12 · 67/108 · 4/108 (hand values above).
  const Perplexity b = bigram_perplexity(kn, held_out);
  const double b_mean = (std::log(67.0 / 108) + std::log(11.0 / 12) + std::log(67.0 / 108) + std::log(4.0 / 108)) / 4;
  CHECK(b.tokens == 4);
  CHECK(b.mean_log_prob == Approx(b_mean).epsilon(0).margin(1e-12));
  CHECK(b.perplexity == Approx(std::exp(-b_mean)).epsilon(1e-12));

  // Unigram: p(0) p(1) p(2) p(3) = 3/12 · 4/12 · 3/12 · 2/12.
  const Perplexity u = unigram_perplexity(uni, held_out);
  const double u_mean = (std::log(3.0 / 12) + std::log(4.0 / 12) + std::log(3.0 / 12) + std::log(2.0 / 12)) / 4;
  CHECK(u.tokens == 4);
  CHECK(u.mean_log_prob == Approx(u_mean).epsilon(0).margin(1e-12));
  CHECK(u.perplexity == Approx(std::exp(-u_mean)).epsilon(1e-12));
}

TEST_CASE("ngram: the bigram model beats the unigram on text that repeats its training patterns", "[train]") {
  const std::int32_t V = 30;
  const Sentences train = markov_text(400, V, 2), held_out = markov_text(100, V, 3);
  const KneserNeyBigram kn(train, V);
  const UnigramModel uni(train, V);
  const Perplexity b = bigram_perplexity(kn, held_out), u = unigram_perplexity(uni, held_out);
  INFO("held-out perplexity: bigram " << b.perplexity << ", unigram " << u.perplexity << " (uniform " << V
                                      << "); D = " << kn.discount());
  CHECK(b.tokens == u.tokens);
  CHECK(b.perplexity == Approx(std::exp(-b.mean_log_prob)).epsilon(1e-12));
  CHECK(u.perplexity == Approx(std::exp(-u.mean_log_prob)).epsilon(1e-12));
  CHECK(u.perplexity > 0.9 * V);             // the chain's stationary distribution is near uniform
  CHECK(b.perplexity < 0.5 * u.perplexity);  // 7/8 of the tokens follow from the previous one
  CHECK(b.perplexity > 1);
}

TEST_CASE("ngram: errors name the argument", "[train]") {
  CHECK_THROWS_AS(UnigramModel(kTiny, 0), std::invalid_argument);
  CHECK_THROWS_AS(KneserNeyBigram(kTiny, 0), std::invalid_argument);
  CHECK_THROWS_WITH(KneserNeyBigram(kTiny, 0), Catch::Contains("vocabSize"));
  CHECK_THROWS_AS(UnigramModel(kTiny, kMaxNgramVocab + 1), std::out_of_range);  // checked before allocating
  CHECK_THROWS_WITH(KneserNeyBigram(kTiny, kMaxNgramVocab + 1), Catch::Contains("vocabSize"));
  CHECK_THROWS_AS(UnigramModel({}, 4), std::invalid_argument);
  CHECK_THROWS_AS(KneserNeyBigram({{}, {}}, 4), std::invalid_argument);
  CHECK_THROWS_WITH(KneserNeyBigram({{}, {}}, 4), Catch::Contains("sentences"));

  // An id outside [0, V) in the training text.
  CHECK_THROWS_AS(UnigramModel({{0, 1}, {2, 4}}, 4), std::out_of_range);
  CHECK_THROWS_WITH(UnigramModel({{0, 1}, {2, 4}}, 4), Catch::Contains("sentences[1][1] = 4"));
  CHECK_THROWS_AS(KneserNeyBigram({{-1}}, 4), std::out_of_range);
  CHECK_THROWS_WITH(KneserNeyBigram({{-1}}, 4), Catch::Contains("sentences[0][0] = -1"));

  // No bigram seen once: D would be 0.
  CHECK_THROWS_AS(KneserNeyBigram({{0, 1}, {0, 1}}, 4), std::invalid_argument);
  CHECK_THROWS_WITH(KneserNeyBigram({{0, 1}, {0, 1}}, 4), Catch::Contains("n1"));

  const KneserNeyBigram kn(kTiny, 4);
  const UnigramModel uni(kTiny, 4);
  CHECK_THROWS_AS(uni.log_prob(4), std::out_of_range);
  CHECK_THROWS_WITH(uni.log_prob(-1), Catch::Contains("word = -1"));
  CHECK_THROWS_AS(kn.log_prob(0, 4), std::out_of_range);
  CHECK_THROWS_WITH(kn.log_prob(S, 4), Catch::Contains("word = 4"));
  CHECK_THROWS_AS(kn.log_prob(-2, 0), std::out_of_range);
  CHECK_THROWS_WITH(kn.log_prob(-2, 0), Catch::Contains("previous = -2"));
  CHECK_THROWS_WITH(kn.log_prob(4, 0), Catch::Contains("previous = 4"));

  // Held-out text: an id outside [0, V), or no token at all.
  CHECK_THROWS_AS(bigram_perplexity(kn, {{0}, {7}}), std::out_of_range);
  CHECK_THROWS_WITH(unigram_perplexity(uni, {{0}, {7}}), Catch::Contains("sentences[1][0] = 7"));
  CHECK_THROWS_AS(bigram_perplexity(kn, {}), std::invalid_argument);
  CHECK_THROWS_AS(unigram_perplexity(uni, {{}}), std::invalid_argument);
}
