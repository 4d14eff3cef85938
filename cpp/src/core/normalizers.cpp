#include "attn/core/normalizers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kPosInf = std::numeric_limits<double>::infinity();
constexpr int kMaxBisectionSteps = 200;  // the bracket stops shrinking long before (≈ 55 halvings of 1)

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// One row's normalizer. z [m]: scores ÷ temperature, finite or −∞ (masked), at least one finite,
// max_z their maximum. Writes p [m], zero at masked cells.
using RowNormalizer = std::function<void(const std::vector<double>& z, double max_z, std::vector<double>& p)>;

// Shared by every normalizer: temperature, NaN, fully masked rows, +∞ cells (see the header).
xt::xtensor<float, 2> normalize_rows(const xt::xtensor<float, 2>& scores, float temperature, const char* where,
                                     const RowNormalizer& row_normalizer) {
  if (!std::isfinite(temperature) || temperature <= 0.0f) {
    throw std::invalid_argument(std::string(where) + ": temperature must be a finite number > 0, got " +
                                number(temperature));
  }
  const std::size_t rows = scores.shape(0), cols = scores.shape(1);
  const double t = temperature;
  xt::xtensor<float, 2> weights = xt::zeros<float>({rows, cols});
  std::vector<double> z(cols), p(cols);
  for (std::size_t i = 0; i < rows; ++i) {
    double max_z = kNegInf;
    std::size_t infinite = 0;  // cells at +∞
    for (std::size_t j = 0; j < cols; ++j) {
      const float s = scores(i, j);
      if (std::isnan(s)) {
        throw std::invalid_argument(std::string(where) + ": scores hold NaN at row " + std::to_string(i) + ", column " +
                                    std::to_string(j) + " (only −∞, a masked cell, is allowed besides numbers)");
      }
      z[j] = s / t;  // in double: a float32 score over a tiny temperature stays finite
      if (z[j] == kPosInf) ++infinite;
      max_z = std::max(max_z, z[j]);
    }
    if (max_z == kNegInf) continue;  // every cell masked (or no cells): nothing to attend to, the row stays 0
    if (infinite > 0) {
      // The limit as those scores grow together without bound: equal shares among them.
      for (std::size_t j = 0; j < cols; ++j)
        weights(i, j) = z[j] == kPosInf ? 1.0f / static_cast<float>(infinite) : 0.0f;
      continue;
    }
    std::fill(p.begin(), p.end(), 0.0);
    row_normalizer(z, max_z, p);
    for (std::size_t j = 0; j < cols; ++j) weights(i, j) = static_cast<float>(p[j]);
  }
  return weights;
}

// The unmasked cells of z, shifted by −max_z (so the largest is 0), times `scale`, sorted descending.
std::vector<double> sorted_shifted(const std::vector<double>& z, double max_z, double scale) {
  std::vector<double> v;
  v.reserve(z.size());
  for (double x : z) {
    if (x != kNegInf) v.push_back((x - max_z) * scale);
  }
  std::sort(v.begin(), v.end(), std::greater<double>());
  return v;
}

void softmax_row(const std::vector<double>& z, double max_z, std::vector<double>& p) {
  double sum = 0.0;  // ≥ 1: the maximum cell contributes exp(0)
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (z[j] == kNegInf) continue;
    p[j] = std::exp(z[j] - max_z);
    sum += p[j];
  }
  for (double& x : p) x /= sum;
}

// Martins & Astudillo 2016, Algorithm 1, on v = z − max z (shift-invariant; keeps 1 + k·v_(k) exact
// for huge scores, where 1 + k·z_(k) would round the 1 away).
void sparsemax_row(const std::vector<double>& z, double max_z, std::vector<double>& p) {
  const std::vector<double> v = sorted_shifted(z, max_z, 1.0);
  double cumulative = 0.0, tau = 0.0;
  for (std::size_t k = 1; k <= v.size(); ++k) {
    cumulative += v[k - 1];
    // k = 1 always qualifies (v_(1) = 0); the qualifying k form a prefix, so the last one is k(z).
    if (1.0 + static_cast<double>(k) * v[k - 1] > cumulative) tau = (cumulative - 1.0) / static_cast<double>(k);
    else break;
  }
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (z[j] != kNegInf) p[j] = std::max(z[j] - max_z - tau, 0.0);
  }
}

// Peters, Niculae & Martins 2019, Algorithm 2, on u = (z − max z) / 2. M and S are updated with
// Welford's recurrence (no cancellation between Σu² and ρM²).
void entmax15_row(const std::vector<double>& z, double max_z, std::vector<double>& p) {
  const std::vector<double> u = sorted_shifted(z, max_z, 0.5);
  double mean = 0.0, spread = 0.0, tau = -1.0;  // ρ = 1 gives τ = u_(1) − 1 = −1
  for (std::size_t rho = 1; rho <= u.size(); ++rho) {
    const double x = u[rho - 1], delta = x - mean;
    mean += delta / static_cast<double>(rho);
    spread += delta * (x - mean);  // S_ρ = Σ_{j≤ρ} (u_(j) − M_ρ)², non-decreasing in ρ
    if (spread > 1.0) break;       // then Σ (u_(j) − τ)² > 1 for every τ: no larger support either
    const double tau_rho = mean - std::sqrt((1.0 - spread) / static_cast<double>(rho));
    if (tau_rho < x) tau = tau_rho;  // u_(ρ) is in the support of τ_ρ: ρ is feasible, keep the largest
  }
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (z[j] == kNegInf) continue;
    const double d = std::max((z[j] - max_z) * 0.5 - tau, 0.0);
    p[j] = d * d;
  }
}

void hardmax_row(const std::vector<double>& z, double max_z, std::vector<double>& p) {
  const auto ties = std::count(z.begin(), z.end(), max_z);
  for (std::size_t j = 0; j < z.size(); ++j) p[j] = z[j] == max_z ? 1.0 / static_cast<double>(ties) : 0.0;
}

}  // namespace

xt::xtensor<float, 2> normalize(const xt::xtensor<float, 2>& scores, Normalizer method, float temperature) {
  switch (method) {
    case Normalizer::softmax:
      return normalize_rows(scores, temperature, "normalize", softmax_row);
    case Normalizer::sparsemax:
      return normalize_rows(scores, temperature, "normalize", sparsemax_row);
    case Normalizer::entmax15:
      return normalize_rows(scores, temperature, "normalize", entmax15_row);
    case Normalizer::hardmax:
      return normalize_rows(scores, temperature, "normalize", hardmax_row);
  }
  throw std::invalid_argument("normalize: method must be softmax, sparsemax, entmax15 or hardmax");
}

xt::xtensor<float, 2> entmax_bisect(const xt::xtensor<float, 2>& scores, float alpha, float temperature) {
  if (!std::isfinite(alpha) || alpha <= 1.0f) {
    throw std::invalid_argument("entmax_bisect: alpha must be a finite number > 1 (α = 1 is softmax), got " +
                                number(alpha));
  }
  const double am1 = static_cast<double>(alpha) - 1.0, exponent = 1.0 / am1;
  return normalize_rows(scores, temperature, "entmax_bisect",
                        [am1, exponent](const std::vector<double>& z, double max_z, std::vector<double>& p) {
                          // On w = (α − 1)(z − max z) ≤ 0, whose largest cell is 0 (τ shifts by (α − 1)·max z):
                          // Σ_j [w_j − τ]₊^(1/(α−1)) is non-increasing in τ, ≥ 1 at τ = −1 (the largest cell alone
                          // gives 1) and ≤ 1 at τ = −n^(1−α) (every cell ≤ 1/n).
                          std::vector<double> w;
                          for (double x : z) {
                            if (x != kNegInf) w.push_back(am1 * (x - max_z));
                          }
                          const auto mass = [&](double tau) {
                            double sum = 0.0;
                            for (double x : w) sum += std::pow(std::max(x - tau, 0.0), exponent);
                            return sum;
                          };
                          double low = -1.0,
                                 high = -std::pow(static_cast<double>(w.size()), -am1);  // mass(low) ≥ 1 ≥ mass(high)
                          for (int step = 0; step < kMaxBisectionSteps; ++step) {
                            const double mid = 0.5 * (low + high);
                            if (mid <= low || mid >= high) break;  // adjacent doubles: τ is as exact as double allows
                            (mass(mid) >= 1.0 ? low : high) = mid;
                          }
                          // τ = low keeps the whole support (mass ≥ 1); dividing by the mass puts the row on the
                          // simplex.
                          const double total = mass(low);
                          for (std::size_t j = 0; j < z.size(); ++j) {
                            if (z[j] != kNegInf)
                              p[j] = std::pow(std::max(am1 * (z[j] - max_z) - low, 0.0), exponent) / total;
                          }
                        });
}

}  // namespace attn
