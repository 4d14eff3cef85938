#pragma once
// The sinusoidal encoding examined (Vaswani et al. 2017 §3.5; d2l.ai §11.6.3): its wavelengths, the
// binary-counting analogy, the similarity of positions, and the rotation that moves a position by δ,
// checked in float32.
//
// Dimensions: n positions 0 … n−1, d_model columns, frequencies ω_j = base^(−2j/d_model) for the
// column pairs (2j, 2j+1).
#include <cstddef>
#include <vector>

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

// The lab's ranges (std::out_of_range outside them). Its similarity matrices are [positions, positions]
// in float32, two of them, so 2048 positions is 32 MB; d_model is the lab's own, not the word vectors'.
constexpr std::size_t kMaxLabPositions = 2048;
constexpr std::size_t kMaxLabDModel = 1024;
constexpr std::size_t kMaxLabErrorPositions = 4096;

struct PositionalLabOptions {
  std::size_t positions = 1;           // n: 1 … kMaxLabPositions
  std::size_t d_model = 100;           // even, 2 … kMaxLabDModel
  double base = 10000.0;               // finite, > 1
  std::size_t position = 0;            // i of the rotation: 0 … n − 1
  long delta = 1;                      // δ of the rotation: i + δ in 0 … n − 1
  std::size_t error_positions = 1024;  // length of the error curve: 1 … kMaxLabErrorPositions
};

// Everything the positional-encoding lesson shows, from one call.
struct PositionalLab {
  xt::xtensor<float, 2> encoding;           // P [n, d_model] (sinusoidal_encoding)
  xt::xtensor<double, 1> wavelengths;       // [d_model] in positions (wavelengths)
  xt::xtensor<float, 2> bits;               // [n, n_bits] (binary_positions)
  xt::xtensor<float, 2> similarity;         // P Pᵀ [n, n]
  xt::xtensor<float, 2> cosine_similarity;  // [n, n]
  RotationCheck rotation_float64;           // rotation_check(i, δ) with angles in double
  RotationCheck rotation_float32;           // … with angles in float32
  xt::xtensor<float, 1> error_float64;      // rotation_error_by_position(error_positions, δ) [error_positions]
  xt::xtensor<float, 1> error_float32;      // … with angles in float32
};

// The lab for `options` (Vaswani et al. 2017 §3.5; the rotation: positional.hpp, rotate_encoding).
// Throws std::out_of_range naming the option for a value outside the ranges of PositionalLabOptions
// (an odd d_model too: each frequency is a sine–cosine pair).
PositionalLab positional_lab(const PositionalLabOptions& options);

}  // namespace attn
