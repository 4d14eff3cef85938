#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "attn/core/pca.hpp"
#include "attn/core/random.hpp"

namespace {

// Independent reference: power iteration with deflation on the covariance matrix, in double.
std::vector<std::vector<double>> power_iteration_components(const xt::xtensor<float, 2>& x, std::size_t k,
                                                            std::vector<double>& variances) {
  const std::size_t n = x.shape(0), d = x.shape(1);
  std::vector<double> mean(d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) mean[t] += x(i, t) / double(n);
  std::vector<double> cov(d * d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = 0; p < d; ++p)
      for (std::size_t q = 0; q < d; ++q) cov[p * d + q] += (x(i, p) - mean[p]) * (x(i, q) - mean[q]) / double(n);
  std::vector<std::vector<double>> components;
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<double> v(d, 1.0 / std::sqrt(double(d)));
    double lambda = 0.0;
    for (int iter = 0; iter < 5000; ++iter) {
      std::vector<double> w(d, 0.0);
      for (std::size_t p = 0; p < d; ++p)
        for (std::size_t q = 0; q < d; ++q) w[p] += cov[p * d + q] * v[q];
      double norm = 0.0;
      for (double e : w) norm += e * e;
      norm = std::sqrt(norm);
      lambda = norm;
      for (std::size_t p = 0; p < d; ++p) v[p] = w[p] / norm;
    }
    for (std::size_t p = 0; p < d; ++p)
      for (std::size_t q = 0; q < d; ++q) cov[p * d + q] -= lambda * v[p] * v[q];
    components.push_back(v);
    variances.push_back(lambda);
  }
  return components;
}

xt::xtensor<float, 2> fixed_matrix(std::size_t n, std::size_t d) {
  // Rows spread mostly along two directions, with small noise: well-separated eigenvalues.
  attn::SplitMix64 rng(2024);
  xt::xtensor<float, 2> x = xt::empty<float>({n, d});
  for (std::size_t i = 0; i < n; ++i) {
    const float a = 6.0f * (rng.uniform() - 0.5f), b = 3.0f * (rng.uniform() - 0.5f);
    for (std::size_t t = 0; t < d; ++t) {
      x(i, t) = a * std::cos(0.3f * t) + b * std::sin(0.7f * t + 1.0f) + 0.05f * (rng.uniform() - 0.5f) + 2.0f;
    }
  }
  return x;
}

}  // namespace

TEST_CASE("PCA matches power iteration on fixed matrices, through the covariance and the Gram path") {
  for (auto [n, d] : {std::pair<std::size_t, std::size_t>{40, 12}, {6, 12}}) {  // n ≥ d: covariance; n < d: Gram
    const auto x = fixed_matrix(n, d);
    const auto result = attn::pca(x, 2);
    std::vector<double> variances;
    const auto reference = power_iteration_components(x, 2, variances);
    for (std::size_t c = 0; c < 2; ++c) {
      double dot = 0.0;
      for (std::size_t t = 0; t < d; ++t) dot += result.components(c, t) * reference[c][t];
      INFO("n " << n << " component " << c << " |cos| with the reference " << std::abs(dot));
      CHECK(std::abs(dot) == Approx(1.0).margin(1e-4));
      CHECK(result.variance(c) == Approx(variances[c]).epsilon(1e-4));
    }
    CHECK(result.variance(0) >= result.variance(1));
    // Coordinates are the centred rows projected on the components.
    for (std::size_t i = 0; i < n; ++i) {
      double dot = 0.0;
      for (std::size_t t = 0; t < d; ++t) dot += (x(i, t) - result.mean(t)) * result.components(0, t);
      CHECK(result.coordinates(i, 0) == Approx(dot).margin(1e-4));
    }
  }
}

TEST_CASE("PCA fixes the sign: each component's largest entry is positive") {
  const auto r = attn::pca(fixed_matrix(30, 8), 2);
  for (std::size_t c = 0; c < 2; ++c) {
    float biggest = 0.0f;
    for (std::size_t t = 0; t < 8; ++t)
      if (std::abs(r.components(c, t)) > std::abs(biggest)) biggest = r.components(c, t);
    CHECK(biggest > 0.0f);
  }
}

TEST_CASE("PCA rejects bad arguments") {
  CHECK_THROWS_AS(attn::pca(fixed_matrix(5, 3), 4), std::out_of_range);
  CHECK_THROWS_AS(attn::pca(fixed_matrix(5, 3), 0), std::out_of_range);
  CHECK_THROWS_AS(attn::pca(xt::xtensor<float, 2>({{1, NAN}}), 1), std::invalid_argument);
}
