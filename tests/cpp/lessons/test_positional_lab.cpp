#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/positional.hpp"
#include "attn/lessons/positional_lab.hpp"

using attn::AnglePrecision;

TEST_CASE("wavelengths are 2π·base^(2j/d_model), shared by each column pair") {
  const auto w = attn::wavelengths(32, 10000.0);
  REQUIRE(w.shape(0) == 32);
  CHECK(w(0) == Approx(2 * M_PI));
  CHECK(w(1) == w(0));
  // d2l.ai's figure: columns 6–9 of d_model = 32 have j = 3, 4 → 2π·10000^(6/32), 2π·10000^(8/32).
  CHECK(w(6) == Approx(2 * M_PI * std::pow(10000.0, 6.0 / 32.0)));
  CHECK(w(9) == Approx(2 * M_PI * std::pow(10000.0, 8.0 / 32.0)));
  CHECK(attn::wavelengths(4, 100.0)(3) == Approx(2 * M_PI * 10.0));
  CHECK_THROWS_AS(attn::wavelengths(0, 10000.0), std::out_of_range);
  CHECK_THROWS_AS(attn::wavelengths(8, 1.0), std::out_of_range);
}

TEST_CASE("binary positions: bit b of i, least significant first") {
  const auto bits = attn::binary_positions(9);  // 0 … 8 needs 4 bits
  REQUIRE(bits.shape(0) == 9);
  REQUIRE(bits.shape(1) == 4);
  for (std::size_t i = 0; i < 9; ++i) {
    int value = 0;
    for (std::size_t b = 0; b < 4; ++b) value += static_cast<int>(bits(i, b)) << b;
    CHECK(value == static_cast<int>(i));
  }
  CHECK(attn::binary_positions(1).shape(1) == 1);
  CHECK(attn::binary_positions(2).shape(1) == 1);
  CHECK(attn::binary_positions(1024).shape(1) == 10);
  CHECK_THROWS_AS(attn::binary_positions(65537), std::out_of_range);
}

TEST_CASE("P Pᵀ depends only on the offset i − j and falls with it") {
  for (std::size_t d : {16, 100, 512}) {
    const std::size_t n = 300;
    const auto s = attn::position_similarity(attn::sinusoidal_encoding(n, d));
    double max_diff = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        // The same offset from row 0 or column 0: S[i, j] = S[i − j, 0] or S[0, j − i].
        const double same_offset = i >= j ? s(i - j, 0) : s(0, j - i);
        max_diff = std::max(max_diff, std::abs(s(i, j) - same_offset));
      }
    }
    // A float32 sum of d/2 terms near 1 is exact to about 1e-6 of d/2, the size of S.
    INFO("d_model " << d << ": max |S[i, j] − S[i − j, 0]| = " << max_diff);
    CHECK(max_diff < 1e-4 * std::max(1.0, d / 200.0));
    const auto cosine = attn::position_similarity(attn::sinusoidal_encoding(n, d), true);
    double max_cosine_diff = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        max_cosine_diff =
            std::max(max_cosine_diff,
                     static_cast<double>(std::abs(cosine(i, j) - (i >= j ? cosine(i - j, 0) : cosine(0, j - i)))));
      }
    }
    CHECK(max_cosine_diff < 1e-4);
    CHECK(s(0, 0) == Approx(d / 2.0));  // Σ cos 0 over d/2 pairs
    CHECK(s(5, 5) > s(5, 6));
    CHECK(s(5, 6) > s(5, 9));
  }
  const auto cosine = attn::position_similarity(attn::sinusoidal_encoding(20, 64), true);
  for (std::size_t i = 0; i < 20; ++i) CHECK(cosine(i, i) == Approx(1.0f));
  CHECK(cosine(3, 4) == Approx(attn::position_similarity(attn::sinusoidal_encoding(20, 64))(3, 4) / 32.0));
}

TEST_CASE("float32 angles equal the core's encoding at small positions and drift at large ones") {
  const auto exact = attn::sinusoidal_encoding_at(4096, 64, 10000.0, AnglePrecision::float64);
  const auto f32 = attn::sinusoidal_encoding_at(4096, 64, 10000.0, AnglePrecision::float32);
  CHECK(xt::amax(xt::abs(exact - attn::sinusoidal_encoding(4096, 64)))() == 0.0f);
  double early = 0.0, late = 0.0;
  for (std::size_t i = 0; i < 4096; ++i) {
    double& worst = i < 16 ? early : late;
    for (std::size_t c = 0; c < 64; ++c)
      worst = std::max(worst, static_cast<double>(std::abs(exact(i, c) - f32(i, c))));
  }
  INFO("max |P_f32 − P| over positions < 16: " << early << ", 16 … 4095: " << late);
  CHECK(early < 1e-6);
  CHECK(late > 1e-4);  // the ulp of i·ω near 4096 is 2^-11 ≈ 5e-4
}

TEST_CASE("the rotation identity holds to 1e-5 in float32 for d_model up to 512 and positions up to 1,024") {
  double worst = 0.0;
  for (std::size_t d : {2, 64, 100, 512}) {
    for (long delta : {1L, 7L, 100L, -3L, 1023L}) {
      const auto errors = attn::rotation_error_by_position(1024, delta, d, 10000.0, AnglePrecision::float64);
      const double max_error = xt::amax(errors)();
      INFO("d_model " << d << ", δ " << delta << ": max error " << max_error);
      CHECK(max_error < 1e-5);
      worst = std::max(worst, max_error);
    }
  }
  WARN("rotation identity, core encoding (angles in double, values float32): max error " << worst);
}

TEST_CASE("rotation check: R(δω_j) turns p_i into p_{i+δ}") {
  const auto check = attn::rotation_check(3, 5, 16, 10000.0);
  REQUIRE(check.angles.shape(0) == 8);
  CHECK(check.angles(0) == Approx(5.0f));
  CHECK(check.angles(1) == Approx(5.0 * std::pow(10000.0, -2.0 / 16.0)));
  CHECK(check.cosines(1) == Approx(std::cos(5.0 * std::pow(10000.0, -2.0 / 16.0))));
  CHECK(check.sines(0) == Approx(std::sin(5.0)));
  const auto p = attn::sinusoidal_encoding(9, 16);
  for (std::size_t c = 0; c < 16; ++c) {
    CHECK(check.from(c) == p(3, c));
    CHECK(check.target(c) == p(8, c));
    CHECK(check.rotated(c) == Approx(p(8, c)).margin(1e-6));
  }
  CHECK(check.max_error < 1e-6);
  CHECK(check.max_error == attn::rotation_error_by_position(4, 5, 16, 10000.0, AnglePrecision::float64)(3));
  const auto back = attn::rotation_check(8, -5, 16, 10000.0);
  for (std::size_t c = 0; c < 16; ++c) CHECK(back.target(c) == p(3, c));
  CHECK_THROWS_AS(attn::rotation_check(2, -3, 16, 10000.0), std::out_of_range);
  CHECK_THROWS_AS(attn::rotation_check(2, 65534, 16, 10000.0), std::out_of_range);
  CHECK_THROWS_AS(attn::rotation_check(2, 1, 15, 10000.0), std::invalid_argument);
}

TEST_CASE("with float32 angles the rotation identity fails beyond a few hundred positions") {
  const auto errors = attn::rotation_error_by_position(4096, 1, 512, 10000.0, AnglePrecision::float32);
  std::size_t first_above = errors.shape(0);
  for (std::size_t i = 0; i < errors.shape(0); ++i) {
    if (errors(i) >= 1e-5f) {
      first_above = i;
      break;
    }
  }
  WARN("float32 angles, d_model 512, δ 1: error first ≥ 1e-5 at position " << first_above << ", max "
                                                                           << xt::amax(errors)());
  CHECK(first_above > 16);
  CHECK(first_above < 1024);
  CHECK(xt::amax(errors)() > 1e-4f);
}

TEST_CASE("positional_lab is the separate calls, in one struct") {
  attn::PositionalLabOptions o;
  o.positions = 12;
  o.d_model = 8;
  o.base = 100.0;
  o.position = 3;
  o.delta = 5;
  o.error_positions = 20;
  const auto lab = attn::positional_lab(o);
  CHECK(lab.encoding == attn::sinusoidal_encoding(12, 8, 100.0));
  CHECK(lab.wavelengths == attn::wavelengths(8, 100.0));
  CHECK(lab.bits == attn::binary_positions(12));
  CHECK(lab.similarity == attn::position_similarity(lab.encoding));
  CHECK(lab.cosine_similarity == attn::position_similarity(lab.encoding, true));
  CHECK(lab.rotation_float64.max_error == attn::rotation_check(3, 5, 8, 100.0, AnglePrecision::float64).max_error);
  CHECK(lab.rotation_float32.rotated == attn::rotation_check(3, 5, 8, 100.0, AnglePrecision::float32).rotated);
  CHECK(lab.error_float64 == attn::rotation_error_by_position(20, 5, 8, 100.0, AnglePrecision::float64));
  CHECK(lab.error_float32 == attn::rotation_error_by_position(20, 5, 8, 100.0, AnglePrecision::float32));
}

TEST_CASE("positional_lab refuses values one past each limit, naming the option") {
  const auto refused = [](auto change, const std::string& option) {
    attn::PositionalLabOptions o;
    o.positions = 4;
    o.d_model = 8;
    change(o);
    try {
      attn::positional_lab(o);
      FAIL("accepted a bad " << option);
    } catch (const std::out_of_range& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(option) != std::string::npos);
    }
  };
  refused([](attn::PositionalLabOptions& o) { o.positions = 0; }, "positions");
  refused([](attn::PositionalLabOptions& o) { o.positions = attn::kMaxLabPositions + 1; }, "positions");
  refused([](attn::PositionalLabOptions& o) { o.d_model = attn::kMaxLabDModel + 2; }, "dModel");
  refused([](attn::PositionalLabOptions& o) { o.d_model = 7; }, "dModel");
  refused([](attn::PositionalLabOptions& o) { o.base = 1.0; }, "base");
  refused([](attn::PositionalLabOptions& o) { o.position = 4; }, "position");
  refused(
      [](attn::PositionalLabOptions& o) {
        o.delta = 1;
        o.position = 3;
      },
      "position + delta");
  refused([](attn::PositionalLabOptions& o) { o.delta = -1; }, "position + delta");
  refused([](attn::PositionalLabOptions& o) { o.error_positions = attn::kMaxLabErrorPositions + 1; }, "errorPositions");
  attn::PositionalLabOptions widest;
  widest.positions = 2;
  widest.d_model = attn::kMaxLabDModel;
  widest.error_positions = attn::kMaxLabErrorPositions;
  CHECK_NOTHROW(attn::positional_lab(widest));
}
