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

}  // namespace attn
