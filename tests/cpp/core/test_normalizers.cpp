#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attn/core/attention.hpp"
#include "attn/core/normalizers.hpp"
#include "attn/core/random.hpp"

// Every test name starts with "normalizers:" so that `ctest -R normaliz` selects them all.

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr float kPosInf = std::numeric_limits<float>::infinity();
constexpr attn::Normalizer kAll[] = {attn::Normalizer::softmax, attn::Normalizer::sparsemax, attn::Normalizer::entmax15,
                                     attn::Normalizer::hardmax};

// Scores uniform in [−scale, scale) from the project's seeded generator, about one cell in six masked
// (−∞) when with_masks.
xt::xtensor<float, 2> random_scores(std::size_t rows, std::size_t cols, std::uint64_t seed, float scale = 3.0f,
                                    bool with_masks = true) {
  attn::SplitMix64 rng(seed);
  xt::xtensor<float, 2> s = xt::empty<float>({rows, cols});
  for (auto& x : s) {
    x = (2.0f * rng.uniform() - 1.0f) * scale;
    if (with_masks && rng.uniform() < 1.0f / 6.0f) x = kNegInf;
  }
  return s;
}

double max_abs_difference(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b) {
  REQUIRE(a.shape() == b.shape());
  double worst = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(double(a.flat(k)) - double(b.flat(k))));
  return worst;
}

bool row_masked(const xt::xtensor<float, 2>& s, std::size_t i) {
  for (std::size_t j = 0; j < s.shape(1); ++j) {
    if (s(i, j) != kNegInf) return false;
  }
  return true;
}

// Rows on the simplex: every entry ≥ 0, each row sums to 1 (or is all 0 when fully masked), masked cells 0.
void check_on_simplex(const xt::xtensor<float, 2>& s, const xt::xtensor<float, 2>& p) {
  for (std::size_t i = 0; i < p.shape(0); ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < p.shape(1); ++j) {
      CHECK(p(i, j) >= 0.0f);
      if (s(i, j) == kNegInf) CHECK(p(i, j) == 0.0f);
      sum += p(i, j);
    }
    CHECK(sum == Approx(row_masked(s, i) ? 0.0 : 1.0).margin(1e-6));
  }
}

// Optimality (KKT) conditions of α-entmax for α = 2 (sparsemax, power = 1, u = z) and α = 1.5
// (entmax15, power = 2, u = z/2): p_j = (u_j − τ)^power on the support with ONE common τ, and
// u_j ≤ τ where p_j = 0. τ is read off the largest weight. Checked in double on float32 results.
void check_threshold_form(const xt::xtensor<float, 2>& s, const xt::xtensor<float, 2>& p, double power) {
  const double u_scale = power == 2.0 ? 0.5 : 1.0;
  for (std::size_t i = 0; i < s.shape(0); ++i) {
    if (row_masked(s, i)) continue;
    std::size_t top = 0;
    for (std::size_t j = 0; j < s.shape(1); ++j) {
      if (p(i, j) > p(i, top)) top = j;
    }
    const double tau = u_scale * s(i, top) - std::pow(double(p(i, top)), 1.0 / power);
    for (std::size_t j = 0; j < s.shape(1); ++j) {
      if (s(i, j) == kNegInf) continue;
      const double u = u_scale * s(i, j);
      if (p(i, j) > 0.0f) {
        CHECK(u - std::pow(double(p(i, j)), 1.0 / power) == Approx(tau).margin(2e-5));
      } else {
        CHECK(u <= tau + 2e-5);
      }
    }
  }
}

}  // namespace

TEST_CASE("normalizers: sparsemax of [1, 0.5, -1] is [0.75, 0.25, 0], worked by hand") {
  // Martins & Astudillo 2016, Algorithm 1. Sorted z = (1, 0.5, −1); cumulative sums 1, 1.5, 0.5.
  //   k = 1: 1 + 1·1    = 2  > 1    yes
  //   k = 2: 1 + 2·0.5  = 2  > 1.5  yes
  //   k = 3: 1 + 3·(−1) = −2 > 0.5  no    → k(z) = 2, τ = (1.5 − 1) / 2 = 0.25
  // p = max(z − 0.25, 0) = (0.75, 0.25, 0).
  const xt::xtensor<float, 2> s = {{1.0f, 0.5f, -1.0f}};
  const auto p = attn::normalize(s, attn::Normalizer::sparsemax);
  CHECK(p(0, 0) == Approx(0.75).margin(1e-7));
  CHECK(p(0, 1) == Approx(0.25).margin(1e-7));
  CHECK(p(0, 2) == 0.0f);
  // The same scores, permuted, a masked cell added, and shifted by a constant: same weights, moved along.
  const xt::xtensor<float, 2> t = {{9.5f, kNegInf, 7.0f, 10.0f}};
  const auto q = attn::normalize(t, attn::Normalizer::sparsemax);
  CHECK(q(0, 0) == Approx(0.25).margin(1e-7));
  CHECK(q(0, 1) == 0.0f);
  CHECK(q(0, 2) == 0.0f);
  CHECK(q(0, 3) == Approx(0.75).margin(1e-7));
}

TEST_CASE("normalizers: sparsemax of a row with one dominant score is exactly one-hot") {
  // A gap of at least 1 between the top score and the rest: k(z) = 1, τ = z_(1) − 1, the rest clip to 0.
  const xt::xtensor<float, 2> s = {{0.2f, 3.0f, 1.9f, -4.0f}, {1e30f, 3.0f, -1e30f, 0.0f}};
  const auto p = attn::normalize(s, attn::Normalizer::sparsemax);
  const float expected[2][4] = {{0, 1, 0, 0}, {1, 0, 0, 0}};
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 4; ++j) CHECK(p(i, j) == expected[i][j]);
  }
}

TEST_CASE("normalizers: entmax15 of [2, 1.6, 0, -inf] is [0.64, 0.36, 0, 0], worked by hand") {
  // Peters et al. 2019, Algorithm 2 on u = z/2 = (1, 0.8, 0), sorted; the masked cell takes no part.
  //   ρ = 1: M = 1,   S = 0,                       τ = 1 − √(1/1)          = 0    ; u_(1) = 1   > 0   feasible
  //   ρ = 2: M = 0.9, S = 0.1² + 0.1² = 0.02,      τ = 0.9 − √(0.98/2 = 0.49) = 0.2; u_(2) = 0.8 > 0.2 feasible
  //   ρ = 3: M = 0.6, S = 0.16 + 0.04 + 0.36 = 0.56, τ = 0.6 − √(0.44/3) ≈ 0.217; u_(3) = 0 < τ  not feasible
  // → τ = 0.2, p = ((1 − 0.2)², (0.8 − 0.2)², 0, 0) = (0.64, 0.36, 0, 0).
  const xt::xtensor<float, 2> s = {{2.0f, 1.6f, 0.0f, kNegInf}};
  const auto p = attn::normalize(s, attn::Normalizer::entmax15);
  CHECK(p(0, 0) == Approx(0.64).margin(1e-6));
  CHECK(p(0, 1) == Approx(0.36).margin(1e-6));
  CHECK(p(0, 2) == 0.0f);
  CHECK(p(0, 3) == 0.0f);
  // Optimality conditions, checked directly: sum 1, one common τ on the support, u ≤ τ outside.
  const double tau0 = 1.0 - std::sqrt(double(p(0, 0))), tau1 = 0.8 - std::sqrt(double(p(0, 1)));
  CHECK(p(0, 0) + p(0, 1) == Approx(1.0).margin(1e-6));
  CHECK(tau0 == Approx(0.2).margin(1e-6));
  CHECK(tau1 == Approx(0.2).margin(1e-6));
  CHECK(0.0 / 2 <= tau0);  // the cell outside: u_3 = 0/2 ≤ τ
  check_threshold_form(s, p, 2.0);
}

TEST_CASE("normalizers: softmax equals the formula in double and agrees with masked_softmax") {
  const auto s = random_scores(40, 9, 11);
  const auto p = attn::normalize(s, attn::Normalizer::softmax);
  for (std::size_t i = 0; i < s.shape(0); ++i) {
    double max = -INFINITY, sum = 0.0;
    for (std::size_t j = 0; j < s.shape(1); ++j) max = std::max(max, double(s(i, j)));
    for (std::size_t j = 0; j < s.shape(1); ++j) sum += std::exp(double(s(i, j)) - max);
    for (std::size_t j = 0; j < s.shape(1); ++j) {
      const double expected = max == -INFINITY ? 0.0 : std::exp(double(s(i, j)) - max) / sum;
      CHECK(p(i, j) == Approx(expected).margin(1e-7));
    }
  }
  const double difference = max_abs_difference(p, attn::masked_softmax(s));
  INFO("max |normalize(softmax) − masked_softmax| = " << difference);
  CHECK(difference <= 1e-6);
}

TEST_CASE("normalizers: every method maps random rows onto the simplex, sparse ones in threshold form") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    for (std::size_t cols : {1u, 2u, 5u, 17u, 64u}) {
      const auto s = random_scores(30, cols, seed * 100 + cols);
      for (auto method : kAll) check_on_simplex(s, attn::normalize(s, method));
      check_threshold_form(s, attn::normalize(s, attn::Normalizer::sparsemax), 1.0);
      check_threshold_form(s, attn::normalize(s, attn::Normalizer::entmax15), 2.0);
      check_on_simplex(s, attn::entmax_bisect(s, 1.25f));
      check_on_simplex(s, attn::entmax_bisect(s, 3.0f));
    }
  }
}

TEST_CASE("normalizers: entmax_bisect tends to softmax as alpha -> 1, equals entmax15 at 1.5 and sparsemax at 2") {
  const auto s = random_scores(50, 12, 7, 2.0f);
  const double near_softmax =
      max_abs_difference(attn::entmax_bisect(s, 1.001f), attn::normalize(s, attn::Normalizer::softmax));
  const double at_15 = max_abs_difference(attn::entmax_bisect(s, 1.5f), attn::normalize(s, attn::Normalizer::entmax15));
  const double at_2 = max_abs_difference(attn::entmax_bisect(s, 2.0f), attn::normalize(s, attn::Normalizer::sparsemax));
  INFO("max abs difference: α = 1.001 vs softmax " << near_softmax << ", α = 1.5 vs entmax15 " << at_15
                                                   << ", α = 2 vs sparsemax " << at_2);
  CHECK(near_softmax <= 1e-3);
  CHECK(at_15 <= 1e-5);
  CHECK(at_2 <= 1e-5);
  // The gap closes linearly in α − 1 (near α = 1 the threshold acts like a temperature 1 + O((α − 1)·log n)):
  // ten times closer to 1, ten times closer to softmax; further away, further from it.
  const double nearer =
      max_abs_difference(attn::entmax_bisect(s, 1.0001f), attn::normalize(s, attn::Normalizer::softmax));
  INFO("α = 1.0001 vs softmax " << nearer);
  CHECK(nearer <= 1e-4);
  CHECK(max_abs_difference(attn::entmax_bisect(s, 1.01f), attn::normalize(s, attn::Normalizer::softmax)) >
        near_softmax);
  // Temperature is applied the same way.
  CHECK(max_abs_difference(attn::entmax_bisect(s, 2.0f, 0.3f), attn::normalize(s, attn::Normalizer::sparsemax, 0.3f)) <=
        1e-5);
  CHECK(max_abs_difference(attn::entmax_bisect(s, 1.5f, 4.0f), attn::normalize(s, attn::Normalizer::entmax15, 4.0f)) <=
        1e-5);
}

TEST_CASE("normalizers: a large temperature tends to the uniform row, a small one to hardmax") {
  const auto s = random_scores(20, 7, 5, 3.0f, false);
  const xt::xtensor<float, 2> uniform = xt::ones<float>({20, 7}) / 7.0f;
  for (auto method : {attn::Normalizer::softmax, attn::Normalizer::sparsemax, attn::Normalizer::entmax15}) {
    CHECK(max_abs_difference(attn::normalize(s, method, 1e6f), uniform) <= 1e-5);
    // Scores are multiples of 2^-24 · 6, so distinct ones differ by ≥ 3.6e-7 ≫ 1e-20: exactly hardmax.
    CHECK(max_abs_difference(attn::normalize(s, method, 1e-20f), attn::normalize(s, attn::Normalizer::hardmax)) <=
          1e-6);
  }
  // Sparsity grows as the temperature falls: the number of nonzero sparsemax weights never increases.
  std::size_t previous = s.size();
  for (float t : {100.0f, 10.0f, 1.0f, 0.1f, 0.01f, 1e-7f}) {
    const auto p = attn::normalize(s, attn::Normalizer::sparsemax, t);
    const auto nonzero = static_cast<std::size_t>(std::count_if(p.begin(), p.end(), [](float x) { return x > 0.0f; }));
    CHECK(nonzero <= previous);
    previous = nonzero;
  }
  CHECK(previous == 20);  // t = 1e-7 < the smallest gap between distinct scores: one winner per row
}

TEST_CASE("normalizers: masked cells get exactly 0, a fully masked row is all 0") {
  const xt::xtensor<float, 2> s = {{kNegInf, 0.5f, kNegInf, 0.4f, -0.3f},
                                   {kNegInf, kNegInf, kNegInf, kNegInf, kNegInf},
                                   {kNegInf, kNegInf, -7.0f, kNegInf, kNegInf}};
  for (auto method : kAll) {
    const auto p = attn::normalize(s, method);
    check_on_simplex(s, p);
    for (std::size_t j = 0; j < 5; ++j) CHECK(p(1, j) == 0.0f);
    CHECK(p(2, 2) == 1.0f);  // one unmasked cell takes all the weight
    // Masked cells take no part: the row equals the normalizer of its unmasked cells alone.
    const xt::xtensor<float, 2> unmasked = {{0.5f, 0.4f, -0.3f}};
    const auto q = attn::normalize(unmasked, method);
    CHECK(p(0, 1) == Approx(q(0, 0)).margin(1e-7));
    CHECK(p(0, 3) == Approx(q(0, 1)).margin(1e-7));
    CHECK(p(0, 4) == Approx(q(0, 2)).margin(1e-7));
  }
  const auto b = attn::entmax_bisect(s, 1.7f);
  check_on_simplex(s, b);
  CHECK(b(2, 2) == 1.0f);
  // No columns at all: nothing to normalize, no error.
  CHECK(attn::normalize(xt::xtensor<float, 2>::from_shape({3, 0}), attn::Normalizer::sparsemax).shape(0) == 3);
}

TEST_CASE("normalizers: hardmax is one-hot at the argmax and splits ties equally") {
  const xt::xtensor<float, 2> s = {
      {1.0f, 3.0f, 2.0f, kNegInf}, {1.0f, 3.0f, 3.0f, kNegInf}, {-2.0f, -2.0f, -2.0f, -2.0f}};
  const auto p = attn::normalize(s, attn::Normalizer::hardmax, 0.5f);
  const float expected[3][4] = {{0, 1, 0, 0}, {0, 0.5f, 0.5f, 0}, {0.25f, 0.25f, 0.25f, 0.25f}};
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 4; ++j) CHECK(p(i, j) == expected[i][j]);
  }
  // Ties are split the same way by the sparse normalizers (symmetry), e.g. sparsemax of (3, 3, 1).
  const auto q = attn::normalize(s, attn::Normalizer::sparsemax);
  CHECK(q(1, 1) == 0.5f);
  CHECK(q(1, 2) == 0.5f);
}

TEST_CASE("normalizers: +inf scores share the weight equally, as masked_softmax does") {
  const xt::xtensor<float, 2> s = {{kPosInf, 1.0f, kPosInf, kNegInf}, {2.0f, kPosInf, 1e30f, 0.0f}};
  for (auto method : kAll) {
    const auto p = attn::normalize(s, method);
    const float expected[2][4] = {{0.5f, 0, 0.5f, 0}, {0, 1, 0, 0}};
    for (std::size_t i = 0; i < 2; ++i) {
      for (std::size_t j = 0; j < 4; ++j) CHECK(p(i, j) == expected[i][j]);
    }
    if (method == attn::Normalizer::softmax) CHECK(max_abs_difference(p, attn::masked_softmax(s)) == 0.0);
  }
}

TEST_CASE("normalizers: invalid temperature, alpha or NaN scores throw std::invalid_argument naming them") {
  const xt::xtensor<float, 2> s = {{1.0f, 2.0f}};
  for (float t : {0.0f, -1.0f, kPosInf, std::numeric_limits<float>::quiet_NaN()}) {
    CHECK_THROWS_AS(attn::normalize(s, attn::Normalizer::softmax, t), std::invalid_argument);
    CHECK_THROWS_WITH(attn::normalize(s, attn::Normalizer::entmax15, t),
                      Catch::Contains("temperature must be a finite number > 0"));
    CHECK_THROWS_WITH(attn::entmax_bisect(s, 1.5f, t), Catch::Contains("temperature"));
  }
  const xt::xtensor<float, 2> nan = {{1.0f, 2.0f}, {0.0f, std::numeric_limits<float>::quiet_NaN()}};
  for (auto method : kAll)
    CHECK_THROWS_WITH(attn::normalize(nan, method), Catch::Contains("scores hold NaN at row 1, column 1"));
  for (float alpha : {1.0f, 0.5f, -2.0f, kPosInf, std::numeric_limits<float>::quiet_NaN()}) {
    CHECK_THROWS_AS(attn::entmax_bisect(s, alpha), std::invalid_argument);
    CHECK_THROWS_WITH(attn::entmax_bisect(s, alpha), Catch::Contains("alpha must be a finite number > 1"));
  }
}
