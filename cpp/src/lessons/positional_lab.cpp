#include "attn/lessons/positional_lab.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <xtensor/xview.hpp>

#include "attn/core/limits.hpp"
#include "attn/core/matmul.hpp"
#include "attn/core/positional.hpp"

namespace attn {

namespace {

constexpr double kTwoPi = 6.283185307179586;

double frequency(std::size_t two_j, std::size_t d_model, double base) {
  return std::pow(base, -static_cast<double>(two_j) / static_cast<double>(d_model));
}

// sin and cos of position·ω with the angle formed in `precision`.
void sine_cosine(double position, double omega, AnglePrecision precision, float& s, float& c) {
  if (precision == AnglePrecision::float32) {
    const float angle = static_cast<float>(position) * static_cast<float>(omega);
    s = std::sin(angle);
    c = std::cos(angle);
  } else {
    const double angle = position * omega;
    s = static_cast<float>(std::sin(angle));
    c = static_cast<float>(std::cos(angle));
  }
}

void check_even(std::size_t d_model, const char* who) {
  if (d_model == 0 || d_model % 2 != 0) {
    throw std::invalid_argument(std::string(who) + ": d_model must be even and positive, got " +
                                std::to_string(d_model));
  }
}

// Row i + δ of the encoding must exist.
std::size_t shifted(std::size_t position, long delta) {
  const long target = static_cast<long>(position) + delta;
  if (target < 0 || target >= static_cast<long>(kMaxSeqLen)) {
    throw std::out_of_range("rotation_check: position + delta must be 0 … " + std::to_string(kMaxSeqLen - 1) +
                            ", got " + std::to_string(target));
  }
  return static_cast<std::size_t>(target);
}

// Turns p_i by R(δω_j) pair by pair in float32 and writes the largest deviation from p_{i+δ}.
float rotate_row(const float* from, const float* target, const float* cos_a, const float* sin_a, std::size_t d_model,
                 float* rotated) {
  float max_error = 0.0f;
  for (std::size_t col = 0; col < d_model; col += 2) {
    const float s = from[col], c = from[col + 1], ca = cos_a[col / 2], sa = sin_a[col / 2];
    rotated[col] = s * ca + c * sa;      // sin(iω + δω)
    rotated[col + 1] = c * ca - s * sa;  // cos(iω + δω)
    max_error =
        std::max({max_error, std::abs(rotated[col] - target[col]), std::abs(rotated[col + 1] - target[col + 1])});
  }
  return max_error;
}

// cos and sin of the rotation angles δω_j, and the angles themselves.
struct Rotation {
  xt::xtensor<float, 1> angles, cos_a, sin_a;
};

Rotation rotation(long delta, std::size_t d_model, double base, AnglePrecision precision) {
  const std::size_t pairs = d_model / 2;
  Rotation r{xt::empty<float>({pairs}), xt::empty<float>({pairs}), xt::empty<float>({pairs})};
  for (std::size_t j = 0; j < pairs; ++j) {
    const double omega = frequency(2 * j, d_model, base);
    r.angles(j) = precision == AnglePrecision::float32 ? static_cast<float>(delta) * static_cast<float>(omega)
                                                       : static_cast<float>(static_cast<double>(delta) * omega);
    sine_cosine(static_cast<double>(delta), omega, precision, r.sin_a(j), r.cos_a(j));
  }
  return r;
}

}  // namespace

xt::xtensor<double, 1> wavelengths(std::size_t d_model, double base) {
  sinusoidal_encoding(0, d_model, base);  // the same argument checks
  xt::xtensor<double, 1> out = xt::empty<double>({d_model});
  for (std::size_t col = 0; col < d_model; ++col) out(col) = kTwoPi / frequency(col - col % 2, d_model, base);
  return out;
}

xt::xtensor<float, 2> binary_positions(std::size_t n) {
  if (n > kMaxSeqLen) {
    throw std::out_of_range("binary_positions: n must be 0 … " + std::to_string(kMaxSeqLen) + ", got " +
                            std::to_string(n));
  }
  std::size_t n_bits = 1;
  while (n > 1 && ((n - 1) >> n_bits) != 0) ++n_bits;
  xt::xtensor<float, 2> bits = xt::empty<float>({n, n_bits});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t b = 0; b < n_bits; ++b) bits(i, b) = static_cast<float>((i >> b) & 1U);
  }
  return bits;
}

xt::xtensor<float, 2> position_similarity(const xt::xtensor<float, 2>& p, bool cosine) {
  const std::size_t n = p.shape(0);
  check_cells(std::uint64_t{n} * n,
              "position_similarity: [n, n] = [" + std::to_string(n) + ", " + std::to_string(n) + "]");
  xt::xtensor<float, 2> s = matmul_transposed(p, p);
  if (!cosine) return s;
  std::vector<float> norm(n);
  for (std::size_t i = 0; i < n; ++i) norm[i] = std::sqrt(std::max(s(i, i), 0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) s(i, j) = norm[i] > 0 && norm[j] > 0 ? s(i, j) / (norm[i] * norm[j]) : 0.0f;
  }
  return s;
}

xt::xtensor<float, 2> sinusoidal_encoding_at(std::size_t n, std::size_t d_model, double base,
                                             AnglePrecision precision) {
  xt::xtensor<float, 2> p = sinusoidal_encoding(n, d_model, base);  // checks; exact for float64
  if (precision == AnglePrecision::float64) return p;
  for (std::size_t col = 0; col < d_model; col += 2) {
    const double omega = frequency(col, d_model, base);
    for (std::size_t i = 0; i < n; ++i) {
      float s, c;
      sine_cosine(static_cast<double>(i), omega, precision, s, c);
      p(i, col) = s;
      if (col + 1 < d_model) p(i, col + 1) = c;
    }
  }
  return p;
}

RotationCheck rotation_check(std::size_t position, long delta, std::size_t d_model, double base,
                             AnglePrecision precision) {
  check_even(d_model, "rotation_check");
  const std::size_t target_position = shifted(position, delta);
  const std::size_t rows = std::max(position, target_position) + 1;
  const xt::xtensor<float, 2> p = sinusoidal_encoding_at(rows, d_model, base, precision);
  const Rotation r = rotation(delta, d_model, base, precision);
  RotationCheck check{r.angles,
                      r.cos_a,
                      r.sin_a,
                      xt::view(p, position, xt::all()),
                      xt::empty<float>({d_model}),
                      xt::view(p, target_position, xt::all()),
                      0.0f};
  check.max_error =
      rotate_row(check.from.data(), check.target.data(), r.cos_a.data(), r.sin_a.data(), d_model, check.rotated.data());
  return check;
}

xt::xtensor<float, 1> rotation_error_by_position(std::size_t n, long delta, std::size_t d_model, double base,
                                                 AnglePrecision precision) {
  check_even(d_model, "rotation_error_by_position");
  if (n == 0) return xt::zeros<float>({std::size_t{0}});
  if (delta > 0) shifted(n - 1, delta);
  const std::size_t rows = std::max<long>(static_cast<long>(n) + std::max(delta, 0L), 1L);
  const xt::xtensor<float, 2> p = sinusoidal_encoding_at(rows, d_model, base, precision);
  const Rotation r = rotation(delta, d_model, base, precision);
  xt::xtensor<float, 1> errors = xt::zeros<float>({n});
  std::vector<float> rotated(d_model);
  for (std::size_t i = 0; i < n; ++i) {
    const long target = static_cast<long>(i) + delta;
    if (target < 0) continue;
    errors(i) = rotate_row(&p(i, 0), &p(static_cast<std::size_t>(target), 0), r.cos_a.data(), r.sin_a.data(), d_model,
                           rotated.data());
  }
  return errors;
}

PositionalLab positional_lab(const PositionalLabOptions& o) {
  const auto range = [](const char* name, double value, double min, double max) {
    if (!(value >= min && value <= max)) {
      throw std::out_of_range(std::string("positionalEncodingLab: ") + name + " must be " +
                              std::to_string(static_cast<long long>(min)) + " … " +
                              std::to_string(static_cast<long long>(max)) + ", got " +
                              std::to_string(static_cast<long long>(value)));
    }
  };
  range("positions", static_cast<double>(o.positions), 1, kMaxLabPositions);
  range("dModel", static_cast<double>(o.d_model), 2, kMaxLabDModel);
  if (o.d_model % 2 != 0) {
    throw std::out_of_range("positionalEncodingLab: dModel must be even (each frequency is a sine–cosine pair), got " +
                            std::to_string(o.d_model));
  }
  if (!(std::isfinite(o.base) && o.base > 1))
    throw std::out_of_range("positionalEncodingLab: base must be finite and > 1");
  const double last = static_cast<double>(o.positions - 1);
  range("position", static_cast<double>(o.position), 0, last);
  range("position + delta", static_cast<double>(o.position) + static_cast<double>(o.delta), 0, last);
  range("errorPositions", static_cast<double>(o.error_positions), 1, kMaxLabErrorPositions);

  PositionalLab lab;
  lab.encoding = sinusoidal_encoding(o.positions, o.d_model, o.base);
  lab.wavelengths = wavelengths(o.d_model, o.base);
  lab.bits = binary_positions(o.positions);
  lab.similarity = position_similarity(lab.encoding);
  lab.cosine_similarity = position_similarity(lab.encoding, true);
  lab.rotation_float64 = rotation_check(o.position, o.delta, o.d_model, o.base, AnglePrecision::float64);
  lab.rotation_float32 = rotation_check(o.position, o.delta, o.d_model, o.base, AnglePrecision::float32);
  lab.error_float64 =
      rotation_error_by_position(o.error_positions, o.delta, o.d_model, o.base, AnglePrecision::float64);
  lab.error_float32 =
      rotation_error_by_position(o.error_positions, o.delta, o.d_model, o.base, AnglePrecision::float32);
  return lab;
}

}  // namespace attn
