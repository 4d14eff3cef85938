#pragma once
// Score functions: how a query q and a key k become one attention score (d2l.ai §11.3).
//
//   dot product         a(q, k) = qᵀk                                  (Luong, Pham & Manning 2015, "dot")
//   scaled dot product  a(q, k) = qᵀk / √d_k                           (Vaswani et al. 2017 §3.2.1, eq. 1)
//   additive            a(q, k) = vᵀ tanh(W_q q + W_k k)               (Bahdanau, Cho & Bengio 2014 §3.1 and
//                                                                       appendix A.1.2; d2l.ai §11.3.2, eq. 11.3.6)
//
// Dot products need queries and keys of the same width; the additive score does not (W_q and W_k
// map both into a hidden space of `hidden` units). Every score is then divided by the temperature τ.
// Scores are unitless logits; the normalizer (normalizers.hpp) turns a row of them into weights.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

#include "attn/core/names.hpp"

namespace attn {

enum class ScoreFunction { dot, scaled_dot, additive };

// JS names of the score functions (core.limits.scoreFunctions); the default, scaledDot, first.
inline constexpr NamedValue<ScoreFunction> kScoreFunctionNames[] = {
    {"scaledDot", ScoreFunction::scaled_dot}, {"dot", ScoreFunction::dot}, {"additive", ScoreFunction::additive}};

// The learned parameters of additive attention, here seeded instead of learned.
// Row-major and multiplied on the right like the projections (multi_head.hpp): q W_q, k W_k.
struct AdditiveScorer {
  xt::xtensor<float, 2> w_q;  // [d_q, hidden]
  xt::xtensor<float, 2> w_k;  // [d_k, hidden]
  xt::xtensor<float, 1> v;    // [hidden]
};

// Largest hidden size additive_scorer accepts.
constexpr std::size_t kMaxAdditiveHidden = 1024;

// W_q, W_k and v Glorot-uniform (random.hpp, glorot_uniform) from the seeds seed·3 + 0, 1, 2, so the
// same seed gives the same scorer natively, in wasm and in every browser. v is drawn as a
// [hidden, 1] matrix. Throws std::out_of_range if d_q, d_k or hidden is 0 or hidden > kMaxAdditiveHidden.
AdditiveScorer additive_scorer(std::size_t d_q, std::size_t d_k, std::size_t hidden, std::uint64_t seed);

// scores(i, j) = Σ_h v_h tanh((q_i W_q)_h + (k_j W_k)_h), computed as the projections Q W_q [n, hidden]
// and K W_k [m, hidden] once, then one tanh per (i, j, h) — not one projection per pair.
//   queries [n, d_q], keys [m, d_k] → [n, m]. Accumulated in double, rounded to float32 once.
// Throws std::invalid_argument if the widths disagree with the scorer's, or an input holds NaN/∞;
// std::out_of_range if n · m · hidden exceeds kMaxCells (limits.hpp).
xt::xtensor<float, 2> additive_scores(const xt::xtensor<float, 2>& queries, const xt::xtensor<float, 2>& keys,
                                      const AdditiveScorer& scorer);

// What one score matrix costs, counted per elementary operation (a multiply-add counts once).
struct ScoreCost {
  double multiply_adds;  // products accumulated: qᵀk, and for additive the projections and vᵀ(·)
  double additions;      // element-wise additions outside multiply-adds (additive: W_q q + W_k k)
  double divisions;      // ÷ √d_k (scaled dot product); ÷ τ is not counted (τ = 1 costs nothing)
  double tanh;           // tanh evaluations (additive)
  double total() const { return multiply_adds + additions + divisions + tanh; }
};

// The cost of the [n, m] scores for queries and keys of width d_k:
//   dot product         n·m·d_k multiply-adds
//   scaled dot product  n·m·d_k multiply-adds + n·m divisions
//   additive            (n + m)·d_k·hidden multiply-adds for the projections, then per (i, j):
//                       hidden additions, hidden tanh and hidden multiply-adds with v
// `hidden` is used by additive only. Counts are doubles: they can exceed 2^53 only for inputs the core
// would refuse anyway.
ScoreCost score_cost(ScoreFunction function, std::size_t n, std::size_t m, std::size_t d_k, std::size_t hidden);

}  // namespace attn
