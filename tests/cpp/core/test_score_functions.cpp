#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "../asset.hpp"
#include "attn/core/attention.hpp"
#include "attn/core/matmul.hpp"
#include "attn/core/random.hpp"
#include "attn/core/score_functions.hpp"
#include "attn/lessons/explain.hpp"

// Every test name starts with "score functions:" so that `ctest -R score` selects them all.

namespace {

xt::xtensor<float, 2> random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  attn::SplitMix64 rng(seed);
  xt::xtensor<float, 2> m = xt::empty<float>({rows, cols});
  for (auto& x : m) x = 2.0f * rng.uniform() - 1.0f;
  return m;
}

// vᵀ tanh(W_q q + W_k k) for one pair, straight from the definition (Bahdanau et al. 2014, A.1.2).
double additive_reference(const xt::xtensor<float, 2>& q, std::size_t i, const xt::xtensor<float, 2>& k, std::size_t j,
                          const attn::AdditiveScorer& s) {
  double score = 0.0;
  for (std::size_t h = 0; h < s.v.size(); ++h) {
    double hidden = 0.0;
    for (std::size_t c = 0; c < q.shape(1); ++c) hidden += double(q(i, c)) * s.w_q(c, h);
    for (std::size_t c = 0; c < k.shape(1); ++c) hidden += double(k(j, c)) * s.w_k(c, h);
    score += s.v(h) * std::tanh(hidden);
  }
  return score;
}

}  // namespace

TEST_CASE("score functions: additive score of a hand-worked case") {
  attn::AdditiveScorer s{xt::xtensor<float, 2>{{1, 0}, {0, 1}}, xt::xtensor<float, 2>{{1, 0}, {0, 1}},
                         xt::xtensor<float, 1>{1, 2}};
  const xt::xtensor<float, 2> q{{1, 0}};
  const xt::xtensor<float, 2> k{{0, 1}, {1, 1}};
  const auto scores = attn::additive_scores(q, k, s);
  REQUIRE(scores.shape() == std::array<std::size_t, 2>{1, 2});
  CHECK(scores(0, 0) == Approx(3.0 * std::tanh(1.0)));                   // tanh(1 + 0)·1 + tanh(0 + 1)·2
  CHECK(scores(0, 1) == Approx(std::tanh(2.0) + 2.0 * std::tanh(1.0)));  // tanh(1 + 1)·1 + tanh(0 + 1)·2
}

TEST_CASE("score functions: additive scores equal the pairwise definition, for queries and keys of different widths") {
  const auto s = attn::additive_scorer(3, 4, 6, 11);
  CHECK(s.w_q.shape() == std::array<std::size_t, 2>{3, 6});
  CHECK(s.w_k.shape() == std::array<std::size_t, 2>{4, 6});
  CHECK(s.v.size() == 6);
  const auto q = random_matrix(5, 3, 1), k = random_matrix(7, 4, 2);
  const auto scores = attn::additive_scores(q, k, s);
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 7; ++j) CHECK(scores(i, j) == Approx(additive_reference(q, i, k, j, s)).margin(1e-6));
  }
  // Seeded: the same seed gives the same scorer, another seed another one; entries within Glorot's bound.
  CHECK(bool(attn::additive_scorer(3, 4, 6, 11).w_k == s.w_k));
  CHECK(bool(attn::additive_scorer(3, 4, 6, 12).w_k != s.w_k));
  const float bound = std::sqrt(6.0f / (3 + 6));
  for (float x : s.w_q) CHECK(std::abs(x) <= bound);
}

TEST_CASE("score functions: attention with the additive scorer divides by τ only, then normalizes and masks") {
  const auto q = random_matrix(4, 8, 3), k = random_matrix(4, 8, 4), v = random_matrix(4, 5, 5);
  const auto scorer = attn::additive_scorer(8, 8, 16, 7);
  attn::AttentionOptions options;
  options.additive = &scorer;
  options.temperature = 0.5f;
  options.causal = true;
  const auto r = attn::scaled_dot_product_attention(q, k, v, options);
  const auto raw = attn::additive_scores(q, k, scorer);
  CHECK(bool(r.dot_products == raw));
  for (std::size_t i = 0; i < 4; ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j <= i; ++j) sum += std::exp(double(raw(i, j)) / 0.5);
    for (std::size_t j = 0; j < 4; ++j) {
      if (j > i) {
        CHECK(r.weights(i, j) == 0.0f);
        CHECK(r.scores(i, j) == -std::numeric_limits<float>::infinity());
      } else {
        CHECK(r.scores(i, j) == Approx(raw(i, j) / 0.5).margin(1e-6));  // not ÷ √d_k, although scale is on
        CHECK(r.weights(i, j) == Approx(std::exp(double(raw(i, j)) / 0.5) / sum).margin(1e-6));
      }
    }
  }
}

TEST_CASE("score functions: bad additive inputs are refused with a message") {
  const auto scorer = attn::additive_scorer(3, 3, 4, 1);
  CHECK_THROWS_AS(attn::additive_scores(random_matrix(2, 4, 1), random_matrix(2, 3, 2), scorer), std::invalid_argument);
  auto nan = random_matrix(2, 3, 1);
  nan(1, 1) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(attn::additive_scores(nan, random_matrix(2, 3, 2), scorer), std::invalid_argument);
  CHECK_THROWS_AS(attn::additive_scorer(3, 3, 0, 1), std::out_of_range);
  CHECK_THROWS_AS(attn::additive_scorer(3, 3, attn::kMaxAdditiveHidden + 1, 1), std::out_of_range);
  CHECK_THROWS_AS(attn::additive_scorer(0, 3, 4, 1), std::out_of_range);
}

TEST_CASE("score functions: operation counts") {
  using attn::ScoreFunction;
  const auto dot = attn::score_cost(ScoreFunction::dot, 8, 8, 25, 16);
  CHECK(dot.multiply_adds == 1600);  // 8 · 8 · 25
  CHECK(dot.total() == 1600);
  const auto scaled = attn::score_cost(ScoreFunction::scaled_dot, 8, 8, 25, 16);
  CHECK(scaled.divisions == 64);
  CHECK(scaled.total() == 1664);
  const auto additive = attn::score_cost(ScoreFunction::additive, 8, 8, 25, 16);
  CHECK(additive.multiply_adds == 16 * 25 * 16 + 64 * 16);  // projections (8 + 8)·25·16, then v per pair
  CHECK(additive.additions == 64 * 16);
  CHECK(additive.tanh == 64 * 16);
  CHECK(additive.total() == 6400 + 3 * 1024);
}

TEST_CASE("score functions: explain scores projected heads additively, designed heads keep their dot products") {
  attn::ExplainOptions options;
  options.n_heads = 2;
  options.projection = attn::Projection::random;
  options.seed = 5;
  options.additive_hidden = 8;
  options.heads = {attn::HeadSpec{attn::HeadKind::projected}, attn::HeadSpec{attn::HeadKind::offset, -1}};
  options.position_checks = true;
  const auto t = attn::explain("the cat sat on the mat", shipped_table(), options);
  REQUIRE(t.additive.size() == 2);
  CHECK(t.additive[0].v.size() == 8);
  CHECK(bool(t.additive[0].w_q == attn::additive_scorer(50, 50, 8, (5u << 16) + 0).w_q));
  const auto& head = t.attention.heads[0];
  CHECK(
      bool(head.attention.dot_products == attn::additive_scores(head.inputs.queries, head.inputs.keys, t.additive[0])));
  const auto& designed = t.attention.heads[1];
  CHECK(
      bool(designed.attention.dot_products == attn::matmul_transposed(designed.inputs.queries, designed.inputs.keys)));
  CHECK(t.checks.score_terms.empty());  // the split of Q Kᵀ into word and position terms needs dot products
  options.additive_hidden = attn::kMaxAdditiveHidden + 1;
  CHECK_THROWS_AS(attn::explain("the cat", shipped_table(), options), std::out_of_range);
}
