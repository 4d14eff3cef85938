#include "attn/core/layer_norm.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn {

xt::xtensor<float, 2> layer_norm(const xt::xtensor<float, 2>& x, float epsilon, const xt::xtensor<float, 1>& gamma,
                                 const xt::xtensor<float, 1>& beta) {
  const std::size_t rows = x.shape(0), d = x.shape(1);
  if (!std::isfinite(epsilon) || epsilon <= 0.0f)
    throw std::out_of_range("layer_norm: epsilon must be a finite number > 0");
  if ((gamma.size() != 0 && gamma.size() != d) || (beta.size() != 0 && beta.size() != d)) {
    throw std::invalid_argument("layer_norm: gamma and beta must be empty or have d = " + std::to_string(d) +
                                " entries");
  }
  xt::xtensor<float, 2> y = xt::empty<float>({rows, d});
  for (std::size_t i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (std::size_t t = 0; t < d; ++t) {
      if (!std::isfinite(x(i, t))) throw std::invalid_argument("layer_norm: x must hold finite numbers");
      sum += x(i, t);
    }
    const double mean = sum / static_cast<double>(d);
    double sq = 0.0;  // two passes: the variance of centred values does not cancel catastrophically
    for (std::size_t t = 0; t < d; ++t) sq += (x(i, t) - mean) * (x(i, t) - mean);
    const double inv_std = 1.0 / std::sqrt(sq / static_cast<double>(d) + epsilon);
    for (std::size_t t = 0; t < d; ++t) {
      const double g = gamma.size() ? gamma(t) : 1.0, b = beta.size() ? beta(t) : 0.0;
      y(i, t) = static_cast<float>(g * (x(i, t) - mean) * inv_std + b);
    }
  }
  return y;
}

}  // namespace attn
