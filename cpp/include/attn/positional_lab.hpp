#pragma once
// The sinusoidal encoding examined (Vaswani et al. 2017 §3.5; d2l.ai §11.6.3): its wavelengths, the
// binary-counting analogy, the similarity of positions, and the rotation that moves a position by δ,
// checked in float32.
//
// Dimensions: n positions 0 … n−1, d_model columns, frequencies ω_j = base^(−2j/d_model) for the
// column pairs (2j, 2j+1).
#include <cstddef>

#include <xtensor/xtensor.hpp>

namespace attn {

// Wavelength of every column in positions: 2π / ω_j = 2π·base^(2j/d_model) for columns 2j and 2j+1.
// [d_model]. Throws as sinusoidal_encoding for d_model and base.
xt::xtensor<double, 1> wavelengths(std::size_t d_model, double base = 10000.0);

// The bits of 0 … n−1, least significant first: bits(i, b) = (i >> b) & 1, as 0 or 1 → [n, n_bits]
// with n_bits the width of n − 1 (at least 1). Bit b flips every 2^b positions, as column pair j
// completes a turn every 2π/ω_j: the lower the frequency, the slower the change.
// Throws std::out_of_range for n above 65536.
xt::xtensor<float, 2> binary_positions(std::size_t n);

// Position similarity S = P Pᵀ [n, n] for p [n, d_model]: S[i, j] = p_i · p_j, which for the
// sinusoidal encoding is Σ_j cos((i − j) ω_j), a function of the offset alone. With cosine, each
// entry is divided by ‖p_i‖‖p_j‖ (0 where a norm is 0). Throws std::out_of_range above kMaxCells.
xt::xtensor<float, 2> position_similarity(const xt::xtensor<float, 2>& p, bool cosine = false);

// Where the angle i·ω_j is formed before its sine and cosine are taken. The core uses double and
// rounds the encoding to float32; frameworks computing in float32 (position · div_term) round the
// angle itself, whose error grows with i (the ulp of i·ω).
enum class AnglePrecision { float64, float32 };

// Sinusoidal encoding [n, d_model] with the angles formed in `precision` (float64: exactly
// sinusoidal_encoding). Throws as sinusoidal_encoding.
xt::xtensor<float, 2> sinusoidal_encoding_at(std::size_t n, std::size_t d_model, double base, AnglePrecision precision);

// One application of the rotation identity (positional.hpp, rotate_encoding), all in float32 except
// where `precision` forms the angles: for every frequency the 2×2 rotation R(δω_j) turns
// (p_i[2j], p_i[2j+1]) and the result is compared with p_{i+δ}.
struct RotationCheck {
  xt::xtensor<float, 1> angles;   // δ·ω_j in radians [d_model / 2]
  xt::xtensor<float, 1> cosines;  // cos δω_j: R(δω_j) = [[cos, sin], [−sin, cos]]  [d_model / 2]
  xt::xtensor<float, 1> sines;    // sin δω_j                                          [d_model / 2]
  xt::xtensor<float, 1> from;     // p_i          [d_model]
  xt::xtensor<float, 1> rotated;  // R(δ) p_i     [d_model]
  xt::xtensor<float, 1> target;   // p_{i+δ}      [d_model]
  float max_error;                // max |rotated − target|
};

// Throws std::invalid_argument for an odd d_model (a lone sine has no cosine to turn with),
// std::out_of_range if i + δ is negative or above 65535, and as sinusoidal_encoding.
RotationCheck rotation_check(std::size_t position, long delta, std::size_t d_model, double base,
                             AnglePrecision precision = AnglePrecision::float64);

// rotation_check(i, δ, …).max_error for i = 0 … n−1 → [n] (positions with i + δ < 0 give 0).
xt::xtensor<float, 1> rotation_error_by_position(std::size_t n, long delta, std::size_t d_model, double base,
                                                 AnglePrecision precision);

}  // namespace attn
