#include "attn/core/random.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

float SplitMix64::uniform() {
  constexpr float kTwoToMinus24 = 1.0f / 16777216.0f;
  return static_cast<float>(next() >> 40) * kTwoToMinus24;
}

xt::xtensor<float, 2> glorot_uniform(std::size_t fan_in, std::size_t fan_out, std::uint64_t seed) {
  if (fan_in == 0 || fan_out == 0) {
    throw std::out_of_range("glorot_uniform: fan_in and fan_out must be at least 1");
  }
  const float limit = static_cast<float>(std::sqrt(6.0 / static_cast<double>(fan_in + fan_out)));
  SplitMix64 rng(seed);
  xt::xtensor<float, 2> w = xt::empty<float>({fan_in, fan_out});
  for (auto& x : w) x = (2.0f * rng.uniform() - 1.0f) * limit;
  return w;
}

}  // namespace attn
