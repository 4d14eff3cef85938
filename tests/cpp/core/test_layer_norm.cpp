#include <catch2/catch.hpp>

#include <cmath>

#include "attn/core/layer_norm.hpp"

TEST_CASE("LayerNorm equals the formula computed in double precision") {
  const xt::xtensor<float, 2> x = {{1, 2, 3, 4}, {-5, 0, 5, 100}, {7, 7, 7, 7}};
  const xt::xtensor<float, 1> gamma = {1, 2, 0.5f, -1}, beta = {0, 1, -1, 3};
  for (bool affine : {false, true}) {
    const auto y = affine ? attn::layer_norm(x, 1e-5f, gamma, beta) : attn::layer_norm(x);
    for (std::size_t i = 0; i < 3; ++i) {
      double mean = 0, var = 0;
      for (std::size_t t = 0; t < 4; ++t) mean += x(i, t) / 4.0;
      for (std::size_t t = 0; t < 4; ++t) var += (x(i, t) - mean) * (x(i, t) - mean) / 4.0;
      for (std::size_t t = 0; t < 4; ++t) {
        double expected = (x(i, t) - mean) / std::sqrt(var + 1e-5);
        if (affine) expected = gamma(t) * expected + beta(t);
        CHECK(y(i, t) == Approx(expected).margin(1e-5));
      }
    }
  }
}

TEST_CASE("LayerNorm rows have mean 0 and variance ≈ 1, a constant row becomes 0, not NaN") {
  const xt::xtensor<float, 2> x = {{3, -1, 4, 1, -5, 9}, {2, 2, 2, 2, 2, 2}};
  const auto y = attn::layer_norm(x);
  double mean = 0, var = 0;
  for (std::size_t t = 0; t < 6; ++t) mean += y(0, t) / 6.0;
  for (std::size_t t = 0; t < 6; ++t) var += (y(0, t) - mean) * (y(0, t) - mean) / 6.0;
  CHECK(mean == Approx(0.0).margin(1e-6));
  CHECK(var == Approx(1.0).epsilon(1e-4));
  for (std::size_t t = 0; t < 6; ++t) CHECK(y(1, t) == 0.0f);
}

TEST_CASE("LayerNorm rejects bad arguments") {
  const xt::xtensor<float, 2> x = {{1, 2}};
  CHECK_THROWS_AS(attn::layer_norm(x, 0.0f), std::out_of_range);
  CHECK_THROWS_WITH(attn::layer_norm(x, -1.0f), Catch::Contains("epsilon"));
  CHECK_THROWS_AS(attn::layer_norm(x, 1e-5f, xt::xtensor<float, 1>({1, 2, 3})), std::invalid_argument);
  CHECK_THROWS_AS(attn::layer_norm(xt::xtensor<float, 2>({{1, NAN}})), std::invalid_argument);
}
