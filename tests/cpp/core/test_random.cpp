#include <catch2/catch.hpp>

#include "attn/core/random.hpp"

TEST_CASE("SplitMix64 matches the reference sequence for seed 0") {
  // Reference: Vigna's splitmix64.c with x = 0, first three outputs.
  attn::SplitMix64 rng(0);
  CHECK(rng.next() == 0xE220A8397B1DCDAFULL);
  CHECK(rng.next() == 0x6E789E6AA1B965F4ULL);
  CHECK(rng.next() == 0x06C45D188009454FULL);
}

TEST_CASE("uniform() stays at least 0 and below 1, and the same seed repeats") {
  attn::SplitMix64 a(42), b(42);
  for (int i = 0; i < 10000; ++i) {
    const float x = a.uniform();
    REQUIRE(x >= 0.0f);
    REQUIRE(x < 1.0f);
    REQUIRE(x == b.uniform());
  }
}

TEST_CASE("glorot_uniform stays within ±sqrt(6 / (fan_in + fan_out)) and fills the range") {
  const auto w = attn::glorot_uniform(100, 50, 7);
  REQUIRE(w.shape(0) == 100);
  REQUIRE(w.shape(1) == 50);
  const float limit = std::sqrt(6.0f / 150.0f);
  float lo = 1.0f, hi = -1.0f;
  for (float x : w) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  CHECK(lo >= -limit);
  CHECK(hi < limit);
  CHECK(lo < -0.9f * limit);  // 5,000 draws reach near both ends
  CHECK(hi > 0.9f * limit);
  CHECK(attn::glorot_uniform(100, 50, 8)(0, 0) != w(0, 0));
  CHECK_THROWS_AS(attn::glorot_uniform(0, 5, 1), std::out_of_range);
}
