#include "attn/text/all_but_the_top.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/pca.hpp"

namespace attn {

namespace {
constexpr std::size_t kMaxDim = 1024;
constexpr std::size_t kSpectrumDirections = 8;
}  // namespace

AllButTheTop fit_all_but_the_top(std::size_t n, std::size_t d, const std::function<void(std::size_t, float*)>& row,
                                 const std::function<double(std::size_t)>& weight, std::size_t n_directions) {
  if (d == 0 || d > kMaxDim || n_directions > d) {
    throw std::out_of_range("fit_all_but_the_top: need 1 ≤ d ≤ " + std::to_string(kMaxDim) +
                            " and D ≤ d, got d = " + std::to_string(d) + ", D = " + std::to_string(n_directions));
  }
  std::vector<double> w(n);
  double total = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    w[r] = weight(r);
    if (!std::isfinite(w[r]) || w[r] < 0.0) {
      throw std::invalid_argument("fit_all_but_the_top: weight " + std::to_string(r) + " must be finite and ≥ 0");
    }
    total += w[r];
  }
  if (!(total > 0.0)) throw std::invalid_argument("fit_all_but_the_top: the weights must not all be 0");

  // Pass 1: the weighted mean μ.
  std::vector<float> x(d);
  std::vector<double> mean(d, 0.0);
  for (std::size_t r = 0; r < n; ++r) {
    row(r, x.data());
    for (std::size_t c = 0; c < d; ++c) {
      if (!std::isfinite(x[c])) throw std::invalid_argument("fit_all_but_the_top: rows must hold finite numbers");
      mean[c] += w[r] * x[c];
    }
  }
  for (double& m : mean) m /= total;

  // Pass 2: the weighted covariance (upper triangle), one outer product per row.
  xt::xtensor<double, 2> covariance = xt::zeros<double>({d, d});
  std::vector<double> y(d);
  for (std::size_t r = 0; r < n; ++r) {
    if (w[r] == 0.0) continue;
    row(r, x.data());
    for (std::size_t c = 0; c < d; ++c) y[c] = x[c] - mean[c];
    const double scale = w[r] / total;
    for (std::size_t p = 0; p < d; ++p) {
      const double a = scale * y[p];
      double* out = &covariance(p, 0);
      for (std::size_t q = p; q < d; ++q) out[q] += a * y[q];
    }
  }
  double variance = 0.0;
  for (std::size_t c = 0; c < d; ++c) variance += covariance(c, c);

  AllButTheTop fit;
  fit.mean = xt::empty<float>({d});
  for (std::size_t c = 0; c < d; ++c) fit.mean(c) = static_cast<float>(mean[c]);
  const std::size_t k = std::min(d, std::max(n_directions, kSpectrumDirections));
  const SymmetricEigen eigen = top_eigenpairs(covariance, k);
  fit.directions = xt::zeros<float>({n_directions, d});
  for (std::size_t i = 0; i < n_directions; ++i) {
    for (std::size_t c = 0; c < d; ++c) fit.directions(i, c) = static_cast<float>(eigen.vectors(i, c));
  }
  fit.spectrum = xt::zeros<float>({k});
  for (std::size_t i = 0; i < k; ++i) {
    fit.spectrum(i) = variance > 0.0 ? static_cast<float>(std::max(0.0, eigen.values(i)) / variance) : 0.0f;
  }
  return fit;
}

AllButTheTop fit_all_but_the_top(const xt::xtensor<float, 2>& rows, const std::vector<double>& weights,
                                 std::size_t n_directions) {
  const std::size_t n = rows.shape(0), d = rows.shape(1);
  if (weights.size() != n) {
    throw std::invalid_argument("fit_all_but_the_top: " + std::to_string(weights.size()) + " weights for " +
                                std::to_string(n) + " rows");
  }
  return fit_all_but_the_top(
      n, d, [&](std::size_t r, float* out) { std::copy_n(rows.data() + r * d, d, out); },
      [&](std::size_t r) { return weights[r]; }, n_directions);
}

xt::xtensor<float, 2> all_but_the_top(const AllButTheTop& fit, const xt::xtensor<float, 2>& rows) {
  const std::size_t n = rows.shape(0), d = fit.mean.size();
  if (rows.shape(1) != d) {
    throw std::invalid_argument("all_but_the_top: rows are " + std::to_string(rows.shape(1)) + " wide, the fit is " +
                                std::to_string(d) + " wide");
  }
  xt::xtensor<float, 2> out = xt::empty<float>({n, d});
  std::vector<double> y(d);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < d; ++c) y[c] = double(rows(r, c)) - fit.mean(c);
    for (std::size_t k = 0; k < fit.directions.shape(0); ++k) {
      double dot = 0.0;
      for (std::size_t c = 0; c < d; ++c) dot += y[c] * fit.directions(k, c);
      for (std::size_t c = 0; c < d; ++c) y[c] -= dot * fit.directions(k, c);
    }
    for (std::size_t c = 0; c < d; ++c) out(r, c) = static_cast<float>(y[c]);
  }
  return out;
}

}  // namespace attn
