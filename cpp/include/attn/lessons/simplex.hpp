#pragma once
// Attention weights as a choice on the probability simplex Δ = { p : p_j ≥ 0, Σ_j p_j = 1 }: each
// normalizer (normalizers.hpp) returns the p ∈ Δ that maximizes a regularized objective
// (Blondel, Martins & Niculae 2020, "Learning with Fenchel-Young Losses", JMLR 21, §2 and Table 1):
//
//   f(p) = ⟨p, s⟩ / τ − Ω(p)
//
//   softmax    Ω(p) = Σ_j p_j ln p_j              (negative Shannon entropy; 0 ln 0 = 0)
//   sparsemax  Ω(p) = ½ (‖p‖² − 1)                (Gini; Martins & Astudillo 2016)
//   entmax15   Ω(p) = (Σ_j p_j^1.5 − 1) / 0.75    (Tsallis α = 1.5; Peters et al. 2019)
//   hardmax    Ω(p) = 0                           (a linear program: its maximum is at a vertex)
//
// The constants make Ω = 0 at every vertex, so the objectives are comparable there. These are the
// functions whose level sets the explorer draws on the triangle of three tokens' weights.
#include <cstdint>

#include <xtensor/xtensor.hpp>

#include "attn/core/normalizers.hpp"

namespace attn {

// Most point coordinates (N·m) one simplex_objective call evaluates: 2²⁰, a 1024 × 1024 grid of a
// 2-simplex with room to spare, and far below kMaxCells.
constexpr std::uint64_t kMaxSimplexCoordinates = std::uint64_t{1} << 20;

// Ω(p) of one weight vector p (on Δ, as simplex_objective checks), in nats for softmax.
double regularizer(const xt::xtensor<double, 1>& p, Normalizer method);

// f(p) = ⟨p, s⟩ / τ − Ω(p) for each row p of `points` [N, m] → [N] (computed in double, float32 out).
//   scores [m] (finite), temperature finite and > 0.
// Throws std::invalid_argument if the widths disagree, scores or points hold NaN/∞, or a point is not
// on the simplex (a coordinate below −1e-6, or a row sum off 1 by more than 1e-4; coordinates in
// [−1e-6, 0) count as 0); std::out_of_range for a bad temperature or more than kMaxSimplexCoordinates
// point coordinates (N·m).
xt::xtensor<float, 1> simplex_objective(const xt::xtensor<float, 2>& points, const xt::xtensor<float, 1>& scores,
                                        Normalizer method, float temperature = 1.0f);

}  // namespace attn
