#include <catch2/catch.hpp>

#include <cmath>

#include <xtensor/xsort.hpp>
#include <xtensor/xview.hpp>

#include "attn/core/random.hpp"
#include "attn/lessons/simplex.hpp"

// Every test name starts with "simplex:" so that `ctest -R simplex` selects them all.

namespace {

constexpr attn::Normalizer kAll[] = {attn::Normalizer::softmax, attn::Normalizer::sparsemax, attn::Normalizer::entmax15,
                                     attn::Normalizer::hardmax};

// `count` points uniform on the simplex with m coordinates (normalized exponentials), plus its vertices.
xt::xtensor<float, 2> simplex_points(std::size_t count, std::size_t m, std::uint64_t seed) {
  attn::SplitMix64 rng(seed);
  xt::xtensor<float, 2> p = xt::zeros<float>({count + m, m});
  for (std::size_t i = 0; i < count; ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < m; ++j) sum += p(i, j) = -std::log(1.0f - rng.uniform());
    for (std::size_t j = 0; j < m; ++j) p(i, j) = static_cast<float>(p(i, j) / sum);
  }
  for (std::size_t j = 0; j < m; ++j) p(count + j, j) = 1.0f;
  return p;
}

}  // namespace

TEST_CASE("simplex: the regularizers at a vertex and at the centre") {
  const xt::xtensor<double, 1> vertex{0, 1, 0}, centre{1.0 / 3, 1.0 / 3, 1.0 / 3};
  for (auto method : kAll) CHECK(attn::regularizer(vertex, method) == Approx(0.0).margin(1e-12));
  CHECK(attn::regularizer(centre, attn::Normalizer::softmax) == Approx(-std::log(3.0)));  // Σ p ln p
  CHECK(attn::regularizer(centre, attn::Normalizer::sparsemax) == Approx(-1.0 / 3));      // ½(1/3 − 1)
  CHECK(attn::regularizer(centre, attn::Normalizer::entmax15) == Approx((1 / std::sqrt(3.0) - 1) / 0.75));
  CHECK(attn::regularizer(centre, attn::Normalizer::hardmax) == 0.0);
}

TEST_CASE("simplex: each normalizer's weights maximize its objective over the simplex") {
  for (std::size_t m : {3u, 4u}) {
    const auto points = simplex_points(3000, m, m);
    attn::SplitMix64 rng(40 + m);
    for (int trial = 0; trial < 5; ++trial) {
      xt::xtensor<float, 2> s = xt::empty<float>({std::size_t{1}, m});
      for (auto& x : s) x = 4.0f * rng.uniform() - 2.0f;
      const xt::xtensor<float, 1> scores = xt::row(s, 0);
      for (float temperature : {0.5f, 1.0f, 2.0f}) {
        for (auto method : kAll) {
          const auto best = attn::normalize(s, method, temperature);
          const float at_best = attn::simplex_objective(best, scores, method, temperature)(0);
          const auto values = attn::simplex_objective(points, scores, method, temperature);
          for (float v : values) REQUIRE(v <= at_best + 1e-5f);
        }
      }
    }
  }
}

TEST_CASE("simplex: the best point of a fine grid lies next to the normalizer's weights") {
  const xt::xtensor<float, 2> s{{1.0f, 0.5f, -0.5f}};
  const xt::xtensor<float, 1> scores = xt::row(s, 0);
  const std::size_t steps = 200;
  xt::xtensor<float, 2> grid = xt::empty<float>({(steps + 1) * (steps + 2) / 2, std::size_t{3}});
  std::size_t k = 0;
  for (std::size_t a = 0; a <= steps; ++a) {
    for (std::size_t b = 0; a + b <= steps; ++b, ++k) {
      grid(k, 0) = float(a) / steps;
      grid(k, 1) = float(b) / steps;
      grid(k, 2) = float(steps - a - b) / steps;
    }
  }
  for (auto method : {attn::Normalizer::softmax, attn::Normalizer::sparsemax, attn::Normalizer::entmax15}) {
    const auto values = attn::simplex_objective(grid, scores, method);
    const std::size_t best = xt::argmax(values)();
    const auto weights = attn::normalize(s, method);
    for (std::size_t j = 0; j < 3; ++j) CHECK(grid(best, j) == Approx(weights(0, j)).margin(0.011));
  }
  // sparsemax([1, 0.5, −0.5]) = [0.75, 0.25, 0]: the grid's best point has the exact zero too.
  const auto sparse = attn::simplex_objective(grid, scores, attn::Normalizer::sparsemax);
  CHECK(grid(xt::argmax(sparse)(), 2) == 0.0f);
}

TEST_CASE("simplex: points off the simplex and bad arguments are refused") {
  const xt::xtensor<float, 1> scores{1, 2, 3};
  CHECK_THROWS_AS(attn::simplex_objective(xt::xtensor<float, 2>{{0.5f, 0.6f, 0.0f}}, scores, attn::Normalizer::softmax),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      attn::simplex_objective(xt::xtensor<float, 2>{{1.1f, -0.1f, 0.0f}}, scores, attn::Normalizer::softmax),
      std::invalid_argument);
  CHECK_THROWS_AS(attn::simplex_objective(xt::xtensor<float, 2>{{0.5f, 0.5f}}, scores, attn::Normalizer::softmax),
                  std::invalid_argument);
  CHECK_THROWS_AS(attn::simplex_objective(xt::xtensor<float, 2>{{1, 0, 0}}, scores, attn::Normalizer::softmax, 0.0f),
                  std::out_of_range);
  CHECK_THROWS_AS(attn::simplex_objective(xt::xtensor<float, 2>{{1, 0, 0}}, xt::xtensor<float, 1>{1, NAN, 0},
                                          attn::Normalizer::softmax),
                  std::invalid_argument);
  // Rounding just below 0 is accepted as 0.
  CHECK(attn::simplex_objective(xt::xtensor<float, 2>{{1.0f, -1e-7f, 0.0f}}, scores, attn::Normalizer::softmax)(0) ==
        Approx(1.0));
}
