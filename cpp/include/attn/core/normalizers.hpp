#pragma once
// Attention normalizers: the maps that turn a row of scores s into attention weights p on the
// probability simplex Δ = { p : p_j ≥ 0, Σ_j p_j = 1 }, each the solution of a regularized argmax
// (a "regularized prediction function": Blondel, Martins & Niculae 2020, "Learning with Fenchel-Young
// Losses", JMLR 21):
//
//   p = argmax_{p ∈ Δ} ⟨p, s⟩ − Ω(p)
//
//   softmax    Ω(p) = Σ_j p_j log p_j (negative Shannon entropy)  p_j = exp(s_j) / Σ_k exp(s_k)
//   sparsemax  Ω(p) = ½ ‖p‖²                                      p_j = [s_j − τ]₊
//   entmax15   Ω(p) = (Σ_j p_j^1.5 − 1) / 0.75 (Tsallis, α = 1.5)  p_j = [s_j/2 − τ]₊²
//   hardmax    Ω(p) = 0                                           p = a maximizer of ⟨p, s⟩
//
// τ is the one threshold that makes the row sum to 1. Sparsemax and entmax15 give exact zeros to
// low scores (sparse attention); hardmax is their limit as the temperature goes to 0.
//
// Shapes: scores [rows, cols] → weights [rows, cols], every row normalized on its own. Scores are in
// the units of attention scores (logits, typically Q Kᵀ / √d_k); weights are unitless.
//
// Shared conventions of every function here:
//   - Each row is divided by `temperature` (in double, so a tiny temperature cannot overflow float32)
//     before it is normalized. temperature must be finite and > 0.
//   - Cells equal to −∞ are masked: they get weight exactly 0 and take no part in the row (the other
//     cells are normalized as if the masked ones were absent). A row whose cells are all −∞ (or a row
//     of 0 columns) becomes all zeros, never NaN (masked_softmax in attention.hpp is this softmax).
//   - Cells equal to +∞ (scores that overflowed float32): the weight is shared
//     equally among the +∞ cells and every other cell gets 0. That is the limit of every normalizer
//     here as those scores grow together without bound.
//   - NaN in scores throws std::invalid_argument naming `scores` and the cell's row and column.
//   - Arithmetic is in double; results are rounded to float32 once, at the end. Every output row sums
//     to 1 within float32 rounding (≤ 1e-6 in the tests) unless it is fully masked.
#include <xtensor/xtensor.hpp>

#include "attn/core/names.hpp"

namespace attn {

enum class Normalizer {
  softmax,    // dense; Bridle 1990. Computed stably: the row maximum is subtracted before exp.
  sparsemax,  // Euclidean projection of s onto Δ; Martins & Astudillo 2016 (ICML), eq. 2, Prop. 1, Algorithm 1
  entmax15,   // 1.5-entmax; Peters, Niculae & Martins 2019 (ACL), Algorithm 2 (exact, sort-based)
  hardmax,    // one-hot at the argmax; ties share the weight equally (see normalize)
};

// JS names of the normalizers (core.limits.normalizers), in the order the page lists them.
inline constexpr NamedValue<Normalizer> kNormalizerNames[] = {{"softmax", Normalizer::softmax},
                                                              {"sparsemax", Normalizer::sparsemax},
                                                              {"entmax15", Normalizer::entmax15},
                                                              {"hardmax", Normalizer::hardmax}};

// Normalizes each row of scores [rows, cols] with `method`, after dividing it by `temperature`.
// → weights [rows, cols]: non-negative, each row sums to 1 (all zeros for a fully masked row).
//
//   softmax:   p_j = exp(z_j − max z) / Σ_k exp(z_k − max z), z = s / temperature; sums in double.
//   sparsemax: Martins & Astudillo 2016, Algorithm 1: sort z descending, z_(1) ≥ … ≥ z_(n);
//              k(z) = max{ k : 1 + k·z_(k) > Σ_{j≤k} z_(j) }; τ = (Σ_{j≤k(z)} z_(j) − 1) / k(z);
//              p_j = max(z_j − τ, 0). Exact, O(n log n).
//   entmax15:  Peters et al. 2019, Algorithm 2, with u = z / 2: sort u descending; for each support
//              size ρ, M_ρ = mean of u_(1…ρ), S_ρ = Σ_{j≤ρ} (u_(j) − M_ρ)², τ_ρ = M_ρ − √((1 − S_ρ)/ρ);
//              the support is the largest ρ with S_ρ ≤ 1 and τ_ρ < u_(ρ); p_j = max(u_j − τ, 0)².
//              (Σ_{j≤ρ} (u_(j) − τ)² = S_ρ + ρ(M_ρ − τ)² = 1 on the support.) Exact, O(n log n).
//   hardmax:   p_j = 1/t for the t cells equal to the row maximum, 0 elsewhere. TIES: the weight is
//              split equally among all maximal cells (the barycentre of the face of Δ that maximizes
//              ⟨p, s⟩), so the row stays on the simplex and is symmetric in tied cells. The temperature
//              (a positive scale) does not change the result, but it is still checked.
// Sparsemax and entmax15 are shift-invariant and are computed on z − max z, so huge scores keep
// their precision. As temperature → ∞ softmax, sparsemax and entmax15 tend to the uniform row; as
// temperature → 0 they tend to hardmax.
//
// Throws std::invalid_argument unless temperature is finite and > 0, or if scores hold NaN.
xt::xtensor<float, 2> normalize(const xt::xtensor<float, 2>& scores, Normalizer method, float temperature = 1.0f);

// α-entmax of each row of scores [rows, cols] for any α > 1, by bisection on the threshold τ
// (Peters, Niculae & Martins 2019, Algorithm 1; Blondel et al. 2020, Tsallis entropies):
//   p_j = [(α − 1)·z_j − τ]₊^(1/(α−1)),  z = s / temperature,  τ such that Σ_j p_j = 1.
// α → 1 tends to softmax, α = 1.5 is entmax15 and α = 2 is sparsemax (to the bisection's precision,
// ~1e-15 in τ); large α tends to hardmax. τ is bracketed in [(α−1)·max z − 1, (α−1)·max z − n^(1−α)]
// (n unmasked cells) and halved until the bracket stops shrinking in double (at most 200 steps); the
// row is then divided by its sum. Masks, +∞ and fully masked rows as for normalize. A reference for
// tests and experiments: normalize's exact algorithms are faster.
// → weights [rows, cols].
// Throws std::invalid_argument unless alpha is finite and > 1 (α = 1 is softmax: use normalize),
// unless temperature is finite and > 0, or if scores hold NaN.
xt::xtensor<float, 2> entmax_bisect(const xt::xtensor<float, 2>& scores, float alpha, float temperature = 1.0f);

}  // namespace attn
