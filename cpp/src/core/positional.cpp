#include "attn/core/positional.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"

namespace attn {

xt::xtensor<float, 2> sinusoidal_encoding(std::size_t seq_len, std::size_t d_model, double base) {
  if (d_model == 0 || d_model > kMaxDModel) {
    throw std::out_of_range("sinusoidal_encoding: d_model must be 1 … " + std::to_string(kMaxDModel) + ", got " +
                            std::to_string(d_model));
  }
  if (seq_len > kMaxSeqLen) {
    throw std::out_of_range("sinusoidal_encoding: seq_len must be 0 … " + std::to_string(kMaxSeqLen) + ", got " +
                            std::to_string(seq_len));
  }
  check_cells(std::uint64_t{seq_len} * d_model, "sinusoidal_encoding: [seq_len, d_model] = [" +
                                                    std::to_string(seq_len) + ", " + std::to_string(d_model) + "]");
  if (!std::isfinite(base) || base <= 1.0) {
    throw std::out_of_range("sinusoidal_encoding: base must be a finite number > 1");
  }
  xt::xtensor<float, 2> p = xt::empty<float>({seq_len, d_model});
  for (std::size_t col = 0; col < d_model; ++col) {
    const std::size_t two_j = col - col % 2;  // both columns of a pair share one frequency
    const double inv_freq = std::pow(base, -static_cast<double>(two_j) / static_cast<double>(d_model));
    const bool is_sine = col % 2 == 0;
    for (std::size_t i = 0; i < seq_len; ++i) {
      const double angle = static_cast<double>(i) * inv_freq;
      p(i, col) = static_cast<float>(is_sine ? std::sin(angle) : std::cos(angle));
    }
  }
  return p;
}

xt::xtensor<float, 2> rotate_encoding(const xt::xtensor<float, 2>& p, double delta, double base) {
  const std::size_t seq_len = p.shape(0), d_model = p.shape(1);
  if (d_model == 0 || d_model % 2 != 0) {
    throw std::invalid_argument("rotate_encoding: the encoding's width must be even and positive, got " +
                                std::to_string(d_model));
  }
  if (!std::isfinite(base) || base <= 1.0) throw std::out_of_range("rotate_encoding: base must be a finite number > 1");
  xt::xtensor<float, 2> rotated = xt::empty<float>({seq_len, d_model});
  for (std::size_t col = 0; col < d_model; col += 2) {
    const double angle = delta * std::pow(base, -static_cast<double>(col) / static_cast<double>(d_model));
    const double cos_a = std::cos(angle), sin_a = std::sin(angle);
    for (std::size_t i = 0; i < seq_len; ++i) {
      const double s = p(i, col), c = p(i, col + 1);
      rotated(i, col) = static_cast<float>(s * cos_a + c * sin_a);      // sin(iω + δω)
      rotated(i, col + 1) = static_cast<float>(c * cos_a - s * sin_a);  // cos(iω + δω)
    }
  }
  return rotated;
}

}  // namespace attn
