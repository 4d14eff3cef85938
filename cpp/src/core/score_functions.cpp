#include "attn/core/score_functions.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"
#include "attn/core/matmul.hpp"
#include "attn/core/random.hpp"

namespace attn {

AdditiveScorer additive_scorer(std::size_t d_q, std::size_t d_k, std::size_t hidden, std::uint64_t seed) {
  if (d_q == 0 || d_k == 0) throw std::out_of_range("additive_scorer: the query and key widths must be ≥ 1");
  if (hidden == 0 || hidden > kMaxAdditiveHidden) {
    throw std::out_of_range("additive_scorer: hidden must be 1 … " + std::to_string(kMaxAdditiveHidden) + ", got " +
                            std::to_string(hidden));
  }
  const xt::xtensor<float, 2> column = glorot_uniform(hidden, 1, seed * 3 + 2);
  xt::xtensor<float, 1> v = xt::empty<float>({hidden});
  std::copy_n(column.data(), hidden, v.data());
  return {glorot_uniform(d_q, hidden, seed * 3), glorot_uniform(d_k, hidden, seed * 3 + 1), std::move(v)};
}

xt::xtensor<float, 2> additive_scores(const xt::xtensor<float, 2>& queries, const xt::xtensor<float, 2>& keys,
                                      const AdditiveScorer& scorer) {
  const std::size_t n = queries.shape(0), m = keys.shape(0), hidden = scorer.v.size();
  if (queries.shape(1) != scorer.w_q.shape(0) || keys.shape(1) != scorer.w_k.shape(0) ||
      scorer.w_q.shape(1) != hidden || scorer.w_k.shape(1) != hidden) {
    throw std::invalid_argument("additive_scores: queries [n, " + std::to_string(scorer.w_q.shape(0)) +
                                "] and keys [m, " + std::to_string(scorer.w_k.shape(0)) +
                                "] must match W_q, W_k and v of " + std::to_string(hidden) + " hidden units");
  }
  for (const auto* t : {&queries, &keys}) {
    for (float x : *t) {
      if (!std::isfinite(x)) throw std::invalid_argument("additive_scores: queries and keys must hold finite numbers");
    }
  }
  check_cells(std::uint64_t{n} * m * hidden, "additive_scores: n · m · hidden");
  const xt::xtensor<float, 2> a = matmul(queries, scorer.w_q);  // [n, hidden]
  const xt::xtensor<float, 2> b = matmul(keys, scorer.w_k);     // [m, hidden]
  xt::xtensor<float, 2> scores = xt::empty<float>({n, m});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) {
      double sum = 0.0;
      for (std::size_t h = 0; h < hidden; ++h) sum += scorer.v(h) * std::tanh(static_cast<double>(a(i, h)) + b(j, h));
      scores(i, j) = static_cast<float>(sum);
    }
  }
  return scores;
}

ScoreCost score_cost(ScoreFunction function, std::size_t n, std::size_t m, std::size_t d_k, std::size_t hidden) {
  const double pairs = static_cast<double>(n) * static_cast<double>(m);
  switch (function) {
    case ScoreFunction::dot:
      return {pairs * d_k, 0.0, 0.0, 0.0};
    case ScoreFunction::scaled_dot:
      return {pairs * d_k, 0.0, pairs, 0.0};
    case ScoreFunction::additive: {
      const double h = static_cast<double>(hidden);
      return {(static_cast<double>(n) + m) * d_k * h + pairs * h, pairs * h, 0.0, pairs * h};
    }
  }
  throw std::invalid_argument("score_cost: unknown score function");
}

}  // namespace attn
