#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "attn/train/cloze.hpp"
#include "attn/train/ngram.hpp"

using namespace attn::train;

namespace {

// The hand-worked corpus of test_ngram.cpp: V = 4, three sentences; its bigram probabilities are worked out
// there (D = 1/4). Here id 3 plays <unk>.
const std::vector<std::vector<std::int32_t>> kTiny = {{0, 1, 2}, {0, 1, 3}, {1, 2}};
constexpr std::int32_t kUnk = 3;

}  // namespace

TEST_CASE("cloze: the answer's rank leaves <unk> out", "[train][cloze]") {
  // <unk> (id 1) scores highest but is never a guess: the answer 3 (score 7) is first among the words.
  const std::vector<double> scores = {5, 9, 3, 7};
  CHECK(word_rank(scores, 3, 1) == 0);
  CHECK(word_rank(scores, 0, 1) == 1);
  CHECK(word_rank(scores, 2, 1) == 2);
  const std::vector<float> logits = {5, 9, 3, 7};
  CHECK(word_rank(logits.data(), logits.size(), 0, 1) == 1);
  // Ties go to the smaller id (the more frequent word).
  const std::vector<double> tied = {2, 2, 2, 2};
  CHECK(word_rank(tied, 0, 3) == 0);
  CHECK(word_rank(tied, 2, 3) == 2);
  CHECK(word_rank(tied, 2, 0) == 1);
  // An out-of-vocabulary answer is the caller's miss, not a rank.
  CHECK_THROWS_AS(word_rank(scores, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(word_rank(scores, 4, 1), std::out_of_range);
  CHECK_THROWS_AS(word_rank(scores, 0, -1), std::out_of_range);
  CHECK_THROWS_AS(word_rank(std::vector<double>{1, std::nan(""), 0}, 0, 2), std::invalid_argument);
}

TEST_CASE("cloze: the two-sided bigram on the hand-worked corpus", "[train][cloze]") {
  const KneserNeyBigram bigram(kTiny, 4);
  const double inf = std::numeric_limits<double>::infinity();
  SECTION("<s> _ 2: the right word overturns the left-only order") {
    // p(w | <s>) · p(2 | w) (test_ngram.cpp's values):
    //   w = 0: 67/108 · p(2 | 0) = 67/108 · 1/36  = 67/3888   ≈ 0.0172
    //   w = 1: 33/108 · p(2 | 1) = 33/108 · 67/108 = 2211/11664 ≈ 0.1896
    //   w = 2:  4/108 · p(2 | 2) = 4/108 · 2/9    = 8/972     ≈ 0.0082   (2 is an unseen context: p_cont)
    // From the left alone 0 would win (67/108 > 33/108); with the right word 2, 1 wins: order 1, 0, 2.
    const std::vector<double> s = two_sided_bigram_scores(bigram, KneserNeyBigram::kSentenceStart, 2, kUnk);
    REQUIRE(s.size() == 4);
    CHECK(std::exp(s[0]) == Approx(67.0 / 3888));
    CHECK(std::exp(s[1]) == Approx(2211.0 / 11664));
    CHECK(std::exp(s[2]) == Approx(8.0 / 972));
    CHECK(s[3] == -inf);
    CHECK(word_rank(s, 1, kUnk) == 0);
    CHECK(word_rank(s, 0, kUnk) == 1);
    CHECK(word_rank(s, 2, kUnk) == 2);
    const std::vector<double> left_only =
        two_sided_bigram_scores(bigram, KneserNeyBigram::kSentenceStart, kNoRight, kUnk);
    CHECK(word_rank(left_only, 0, kUnk) == 0);
    CHECK(word_rank(left_only, 1, kUnk) == 1);
  }
  SECTION("0 _ 2") {
    //   w = 0: p(0 | 0) · p(2 | 0) = 1/36 · 1/36   = 1/1296
    //   w = 1: p(1 | 0) · p(2 | 1) = 11/12 · 67/108 = 737/1296
    //   w = 2: p(2 | 0) · p(2 | 2) = 1/36 · 2/9    = 8/1296
    const std::vector<double> s = two_sided_bigram_scores(bigram, 0, 2, kUnk);
    CHECK(std::exp(s[0]) == Approx(1.0 / 1296));
    CHECK(std::exp(s[1]) == Approx(737.0 / 1296));
    CHECK(std::exp(s[2]) == Approx(8.0 / 1296));
    CHECK(word_rank(s, 1, kUnk) == 0);
    CHECK(word_rank(s, 2, kUnk) == 1);
    CHECK(word_rank(s, 0, kUnk) == 2);
  }
  SECTION("a right neighbour that is <unk> still counts by its id") {
    // p(w | 1) · p(3 | w): w = 1 gives p(1 | 1) · p(3 | 1) = 6/108 · 31/108; <unk> itself is never a guess.
    const std::vector<double> s = two_sided_bigram_scores(bigram, 1, kUnk, kUnk);
    CHECK(std::exp(s[1]) == Approx(6.0 / 108 * 31.0 / 108));
    CHECK(s[kUnk] == -inf);
  }
  CHECK_THROWS_AS(two_sided_bigram_scores(bigram, 4, 2, kUnk), std::out_of_range);
}

TEST_CASE("cloze: a tally counts out-of-vocabulary answers as misses", "[train][cloze]") {
  ClozeTally t;
  t.add_rank(0);
  t.add_rank(9);
  t.add_rank(10);
  t.add_miss();
  CHECK(t.items == 4);
  CHECK(t.top1 == 1);
  CHECK(t.top10 == 2);
  CHECK(t.top1_rate() == Approx(0.25));
  CHECK(t.top10_rate() == Approx(0.5));
}
