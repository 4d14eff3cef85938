#include <catch2/catch.hpp>

#include <cmath>

#include "attn/core/positional.hpp"

namespace {
// The formula, written independently in double precision (Vaswani et al. 2017 §3.5).
double reference(std::size_t i, std::size_t col, std::size_t d, double base) {
  const double omega = 1.0 / std::pow(base, static_cast<double>(2 * (col / 2)) / static_cast<double>(d));
  return col % 2 == 0 ? std::sin(i * omega) : std::cos(i * omega);
}
}  // namespace

TEST_CASE("sinusoidal encoding equals the formula in double precision") {
  for (std::size_t d : {1, 2, 7, 64, 100}) {
    for (double base : {10000.0, 100.0}) {
      const auto p = attn::sinusoidal_encoding(300, d, base);
      REQUIRE(p.shape(0) == 300);
      REQUIRE(p.shape(1) == d);
      double max_err = 0.0;
      for (std::size_t i = 0; i < 300; ++i) {
        for (std::size_t c = 0; c < d; ++c) max_err = std::max(max_err, std::abs(p(i, c) - reference(i, c, d, base)));
      }
      INFO("d_model " << d << " base " << base << " max abs error " << max_err);
      CHECK(max_err < 1e-6);  // float32 rounding of values in [−1, 1]
    }
  }
}

TEST_CASE("row 0 is (0, 1, 0, 1, …) and an odd d_model ends on a sine") {
  const auto p = attn::sinusoidal_encoding(3, 9);
  for (std::size_t c = 0; c < 9; ++c) CHECK(p(0, c) == (c % 2 == 0 ? 0.0f : 1.0f));
  CHECK(p(1, 8) == Approx(std::sin(1.0 / std::pow(10000.0, 8.0 / 9.0))));
}

TEST_CASE("an offset δ is a fixed rotation of each (sin, cos) pair") {
  // [P(i+δ, 2j), P(i+δ, 2j+1)] = [[cos δω, sin δω], [−sin δω, cos δω]] · [P(i, 2j), P(i, 2j+1)]
  const std::size_t d = 32;
  const auto p = attn::sinusoidal_encoding(64, d);
  for (std::size_t delta : {1, 5, 17}) {
    double max_err = 0.0;
    for (std::size_t j = 0; j < d / 2; ++j) {
      const double omega = std::pow(10000.0, -2.0 * j / d);
      const double c = std::cos(delta * omega), s = std::sin(delta * omega);
      for (std::size_t i = 0; i + delta < 64; ++i) {
        const double sin_i = p(i, 2 * j), cos_i = p(i, 2 * j + 1);
        max_err = std::max(max_err, std::abs(p(i + delta, 2 * j) - (c * sin_i + s * cos_i)));
        max_err = std::max(max_err, std::abs(p(i + delta, 2 * j + 1) - (-s * sin_i + c * cos_i)));
      }
    }
    INFO("delta " << delta << " max abs error " << max_err);
    CHECK(max_err < 1e-5);
  }
}

TEST_CASE("sinusoidal encoding rejects invalid arguments") {
  CHECK(attn::sinusoidal_encoding(0, 4).shape(0) == 0);
  CHECK_THROWS_AS(attn::sinusoidal_encoding(4, 0), std::out_of_range);
  CHECK_THROWS_AS(attn::sinusoidal_encoding(4, 5000), std::out_of_range);
  CHECK_THROWS_AS(attn::sinusoidal_encoding(70000, 4), std::out_of_range);
  CHECK_THROWS_WITH(attn::sinusoidal_encoding(65536, 4096), Catch::Contains("64 MB"));
  CHECK_THROWS_AS(attn::sinusoidal_encoding(4, 4, 1.0), std::out_of_range);
  CHECK_THROWS_AS(attn::sinusoidal_encoding(4, 4, std::nan("")), std::out_of_range);
  CHECK_THROWS_WITH(attn::sinusoidal_encoding(4, 0), Catch::Contains("d_model"));
}

TEST_CASE("positions up to 10,000 keep float32 accuracy (computed in double, rounded once)") {
  const auto p = attn::sinusoidal_encoding(10001, 64);
  double max_err = 0.0;
  for (std::size_t i : {0, 1, 999, 5000, 10000})
    for (std::size_t c = 0; c < 64; ++c) max_err = std::max(max_err, std::abs(p(i, c) - reference(i, c, 64, 10000.0)));
  INFO("max abs error " << max_err);
  CHECK(max_err <= 6e-8);  // half an ulp of values near 1
}
