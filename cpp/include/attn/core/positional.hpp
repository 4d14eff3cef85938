#pragma once
// Sinusoidal positional encoding (Vaswani et al. 2017 §3.5; d2l.ai eq. positional-encoding-def).
#include <cstddef>

#include <xtensor/xtensor.hpp>

namespace attn {

// P [seq_len, d_model], positions i from 0, column pairs (2j, 2j+1):
//   P[i, 2j]   = sin(i / base^(2j / d_model))
//   P[i, 2j+1] = cos(i / base^(2j / d_model))
// An odd d_model fills its last column with the sine term. Computed in double, stored as float.
// Throws std::out_of_range if d_model is 0 or above 4096, seq_len above 65536, seq_len × d_model
// above 2^24 (64 MB), or base is not finite and > 1.
xt::xtensor<float, 2> sinusoidal_encoding(std::size_t seq_len, std::size_t d_model, double base = 10000.0);

// The relative-position property behind the encoding (Vaswani et al. 2017 §3.5): for every
// frequency ω_j = base^(−2j/d_model) the pair (P[i, 2j], P[i, 2j+1]) = (sin iω_j, cos iω_j) turns by
// the fixed angle δω_j when the position moves by δ:
//   (sin (i+δ)ω, cos (i+δ)ω) = (s cos δω + c sin δω, c cos δω − s sin δω)  with (s, c) = (sin iω, cos iω).
// Applies that rotation to every row of p [seq_len, d_model]: row i of the result is the encoding of
// position i + δ, computed from row i alone (no position index needed). d_model = p's width must be
// even (a lone last sine has no cosine to turn with): else std::invalid_argument; std::out_of_range
// for a base that is not finite and > 1.
xt::xtensor<float, 2> rotate_encoding(const xt::xtensor<float, 2>& p, double delta, double base = 10000.0);

}  // namespace attn
