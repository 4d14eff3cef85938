#include "attn/core/pca.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

namespace {

constexpr std::size_t kMaxDim = 1024;
constexpr int kMaxSweeps = 100;
constexpr int kMaxSubspaceIterations = 300;  // enough for a clear eigengap; near-ties are ill-defined anyway
constexpr std::size_t kJacobiMaxDim = 32;    // above this, subspace iteration for the top components

using Matrix = std::vector<double>;  // square, row-major

// Cyclic Jacobi: rotates away off-diagonal entries of the symmetric `a` [d, d] until they vanish.
// On return a's diagonal holds the eigenvalues and the columns of `v` the eigenvectors.
void jacobi_eigen(Matrix& a, Matrix& v, std::size_t d) {
  v.assign(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i) v[i * d + i] = 1.0;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0.0, total = 0.0;
    for (std::size_t p = 0; p < d; ++p) {
      for (std::size_t q = 0; q < d; ++q) {
        total += a[p * d + q] * a[p * d + q];
        if (p != q) off += a[p * d + q] * a[p * d + q];
      }
    }
    if (off <= 1e-24 * total || off == 0.0) return;
    for (std::size_t p = 0; p + 1 < d; ++p) {
      for (std::size_t q = p + 1; q < d; ++q) {
        const double apq = a[p * d + q];
        if (apq == 0.0) continue;
        // Angle that zeroes a[p][q] (Golub & Van Loan, Algorithm 8.5.2).
        const double theta = (a[q * d + q] - a[p * d + p]) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (std::size_t k = 0; k < d; ++k) {  // A ← A J (columns p, q)
          const double akp = a[k * d + p], akq = a[k * d + q];
          a[k * d + p] = c * akp - s * akq;
          a[k * d + q] = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < d; ++k) {  // A ← Jᵀ A (rows p, q)
          const double apk = a[p * d + k], aqk = a[q * d + k];
          a[p * d + k] = c * apk - s * aqk;
          a[q * d + k] = s * apk + c * aqk;
        }
        for (std::size_t k = 0; k < d; ++k) {  // V ← V J
          const double vkp = v[k * d + p], vkq = v[k * d + q];
          v[k * d + p] = c * vkp - s * vkq;
          v[k * d + q] = s * vkp + c * vkq;
        }
      }
    }
  }
}

// Orthonormalizes the vectors in place (modified Gram–Schmidt); a vector that collapses is left 0.
void orthonormalize(std::vector<std::vector<double>>& basis) {
  for (std::size_t c = 0; c < basis.size(); ++c) {
    for (std::size_t prev = 0; prev < c; ++prev) {
      double dot = 0.0;
      for (std::size_t t = 0; t < basis[c].size(); ++t) dot += basis[c][t] * basis[prev][t];
      for (std::size_t t = 0; t < basis[c].size(); ++t) basis[c][t] -= dot * basis[prev][t];
    }
    double norm = 0.0;
    for (double x : basis[c]) norm += x * x;
    norm = std::sqrt(norm);
    for (double& x : basis[c]) x = norm > 0.0 ? x / norm : 0.0;
  }
}

// Eigenvalues (descending) and unit eigenvectors of the symmetric matrix a [d, d].
void sorted_eigen(Matrix a, std::size_t d, std::vector<double>& values, std::vector<std::vector<double>>& vectors);

// The top k eigenpairs of the symmetric positive semidefinite a [m, m] by subspace iteration with a
// final Rayleigh–Ritz step (Golub & Van Loan §8.2.4): O(m² · block) a step, instead of the O(m³)
// per sweep of Jacobi on all of a. A few extra vectors in the block speed up convergence.
void top_eigen(const Matrix& a, std::size_t m, std::size_t k, std::vector<double>& values,
               std::vector<std::vector<double>>& vectors) {
  const std::size_t block = std::min(m, k + 4);
  std::vector<std::vector<double>> basis(block, std::vector<double>(m));
  for (std::size_t c = 0; c < block; ++c) {  // deterministic start, full rank
    for (std::size_t t = 0; t < m; ++t) basis[c][t] = (t == c ? 1.0 : 0.0) + 0.01 * std::cos(1.0 + 3.0 * t + 7.0 * c);
  }
  orthonormalize(basis);
  std::vector<double> ritz(block, 0.0);
  for (int iter = 0, calm = 0; iter < kMaxSubspaceIterations && calm < 3; ++iter) {
    double change = 0.0;
    for (std::size_t c = 0; c < block; ++c) {
      std::vector<double> image(m, 0.0);
      for (std::size_t p = 0; p < m; ++p) {
        double dot = 0.0;
        for (std::size_t q = 0; q < m; ++q) dot += a[p * m + q] * basis[c][q];
        image[p] = dot;
      }
      double quotient = 0.0;  // Rayleigh quotient of the current (orthonormal) vector
      for (std::size_t t = 0; t < m; ++t) quotient += image[t] * basis[c][t];
      if (c < k) change = std::max(change, std::abs(quotient - ritz[c]) / std::max(std::abs(quotient), 1e-300));
      ritz[c] = quotient;
      basis[c] = std::move(image);
    }
    orthonormalize(basis);
    calm = change < 1e-13 ? calm + 1 : 0;
  }
  // Rayleigh–Ritz: the eigenpairs of basisᵀ a basis, rotated back, are the best in the subspace.
  Matrix small(block * block, 0.0);
  for (std::size_t c = 0; c < block; ++c) {
    for (std::size_t e = 0; e < block; ++e) {
      double dot = 0.0;
      for (std::size_t p = 0; p < m; ++p) {
        double row = 0.0;
        for (std::size_t q = 0; q < m; ++q) row += a[p * m + q] * basis[e][q];
        dot += basis[c][p] * row;
      }
      small[c * block + e] = dot;
    }
  }
  std::vector<std::vector<double>> rotations;
  sorted_eigen(small, block, values, rotations);
  vectors.assign(block, std::vector<double>(m, 0.0));
  for (std::size_t c = 0; c < block; ++c) {
    for (std::size_t e = 0; e < block; ++e) {
      for (std::size_t t = 0; t < m; ++t) vectors[c][t] += rotations[c][e] * basis[e][t];
    }
  }
}

void sorted_eigen(Matrix a, std::size_t d, std::vector<double>& values, std::vector<std::vector<double>>& vectors) {
  Matrix v;
  jacobi_eigen(a, v, d);
  std::vector<std::size_t> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return a[x * d + x] > a[y * d + y]; });
  values.clear();
  vectors.clear();
  for (std::size_t col : order) {
    values.push_back(a[col * d + col]);
    std::vector<double> u(d);
    for (std::size_t t = 0; t < d; ++t) u[t] = v[t * d + col];
    vectors.push_back(std::move(u));
  }
}

}  // namespace

Pca pca(const xt::xtensor<float, 2>& rows, std::size_t k) {
  const std::size_t n = rows.shape(0), d = rows.shape(1);
  if (d == 0 || d > kMaxDim || k == 0 || k > d) {
    throw std::out_of_range("pca: need 1 ≤ k ≤ d ≤ " + std::to_string(kMaxDim) + ", got k = " + std::to_string(k) +
                            ", d = " + std::to_string(d));
  }
  for (float x : rows) {
    if (!std::isfinite(x)) throw std::invalid_argument("pca: rows must hold finite numbers");
  }
  const double count = static_cast<double>(std::max<std::size_t>(n, 1));
  std::vector<double> mean(d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) mean[t] += rows(i, t);
  for (double& m : mean) m /= count;
  Matrix centred(n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) centred[i * d + t] = rows(i, t) - mean[t];

  // The covariance Cᵀ C / n [d, d] and the Gram matrix C Cᵀ [n, n] share their nonzero eigenvalues
  // (×n); eigendecompose the smaller one. From the Gram side, a direction is Cᵀ u / ‖Cᵀ u‖.
  std::vector<double> values;
  std::vector<std::vector<double>> directions;
  const bool gram = n < d;
  const std::size_t m = gram ? n : d;
  Matrix sym(m * m, 0.0);
  for (std::size_t p = 0; p < m; ++p) {
    for (std::size_t q = p; q < m; ++q) {
      double dot = 0.0;
      if (gram)
        for (std::size_t t = 0; t < d; ++t) dot += centred[p * d + t] * centred[q * d + t];
      else
        for (std::size_t i = 0; i < n; ++i) dot += centred[i * d + p] * centred[i * d + q];
      sym[p * m + q] = sym[q * m + p] = dot / count;
    }
  }
  std::vector<std::vector<double>> eigenvectors;
  if (m <= kJacobiMaxDim) sorted_eigen(sym, m, values, eigenvectors);
  else top_eigen(sym, m, k, values, eigenvectors);
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<double> direction(d, 0.0);
    if (c < m && gram) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t t = 0; t < d; ++t) direction[t] += centred[i * d + t] * eigenvectors[c][i];
    } else if (c < m) {
      direction = eigenvectors[c];
    }
    double norm = 0.0;
    for (double x : direction) norm += x * x;
    norm = std::sqrt(norm);
    if (norm > 0.0)
      for (double& x : direction) x /= norm;
    directions.push_back(std::move(direction));
  }

  Pca result;
  result.mean = xt::empty<float>({d});
  for (std::size_t t = 0; t < d; ++t) result.mean(t) = static_cast<float>(mean[t]);
  result.components = xt::zeros<float>({k, d});
  result.variance = xt::zeros<float>({k});
  for (std::size_t c = 0; c < k; ++c) {
    const auto& dir = directions[c];
    const std::size_t biggest = static_cast<std::size_t>(
        std::max_element(dir.begin(), dir.end(), [](double x, double y) { return std::abs(x) < std::abs(y); }) -
        dir.begin());
    const double sign = dir[biggest] < 0 ? -1.0 : 1.0;
    for (std::size_t t = 0; t < d; ++t) result.components(c, t) = static_cast<float>(sign * dir[t]);
    result.variance(c) = c < m ? static_cast<float>(std::max(0.0, values[c])) : 0.0f;
  }
  result.coordinates = xt::empty<float>({n, k});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < k; ++c) {
      double dot = 0.0;
      for (std::size_t t = 0; t < d; ++t) dot += centred[i * d + t] * double(result.components(c, t));
      result.coordinates(i, c) = static_cast<float>(dot);
    }
  }
  return result;
}

SymmetricEigen top_eigenpairs(const xt::xtensor<double, 2>& a, std::size_t k) {
  const std::size_t d = a.shape(0);
  if (a.shape(1) != d) throw std::invalid_argument("top_eigenpairs: the matrix must be square");
  if (d == 0 || d > kMaxDim || k == 0 || k > d) {
    throw std::out_of_range("top_eigenpairs: need 1 ≤ k ≤ d ≤ " + std::to_string(kMaxDim) +
                            ", got k = " + std::to_string(k) + ", d = " + std::to_string(d));
  }
  Matrix sym(d * d);
  for (std::size_t p = 0; p < d; ++p) {
    for (std::size_t q = p; q < d; ++q) {
      if (!std::isfinite(a(p, q))) throw std::invalid_argument("top_eigenpairs: the matrix must hold finite numbers");
      sym[p * d + q] = sym[q * d + p] = a(p, q);
    }
  }
  std::vector<double> values;
  std::vector<std::vector<double>> vectors;
  if (d <= kJacobiMaxDim) sorted_eigen(sym, d, values, vectors);
  else top_eigen(sym, d, k, values, vectors);
  SymmetricEigen result{xt::zeros<double>({k}), xt::zeros<double>({k, d})};
  for (std::size_t c = 0; c < k; ++c) {
    const auto& v = vectors[c];
    const std::size_t biggest = static_cast<std::size_t>(
        std::max_element(v.begin(), v.end(), [](double x, double y) { return std::abs(x) < std::abs(y); }) - v.begin());
    const double sign = v[biggest] < 0 ? -1.0 : 1.0;
    for (std::size_t t = 0; t < d; ++t) result.vectors(c, t) = sign * v[t];
    result.values(c) = values[c];
  }
  return result;
}

}  // namespace attn
