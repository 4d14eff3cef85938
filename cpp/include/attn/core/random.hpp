#pragma once
// Deterministic pseudo-random numbers, identical natively, in wasm and in every browser
// (std::uniform_real_distribution is not: its output differs between standard libraries).
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

namespace attn {

// SplitMix64 (Steele, Lea & Flood 2014): a 64-bit state advanced by a Weyl sequence and mixed.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  // Next raw 64-bit output.
  std::uint64_t next();

  // Uniform float in [0, 1): the top 24 bits of next() times 2^-24 (exact in float32).
  float uniform();

 private:
  std::uint64_t state_;
};

// Glorot/Xavier uniform initialisation (Glorot & Bengio 2010, eq. 16): entries uniform in
// [-a, a) with a = sqrt(6 / (fan_in + fan_out)). Returns [fan_in, fan_out].
// Throws std::out_of_range if either size is 0.
xt::xtensor<float, 2> glorot_uniform(std::size_t fan_in, std::size_t fan_out, std::uint64_t seed);

}  // namespace attn
