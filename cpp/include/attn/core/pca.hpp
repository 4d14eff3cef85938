#pragma once
// Principal component analysis, for drawing d_model-wide vectors in 2-D.
#include <cstddef>

#include <xtensor/xtensor.hpp>

namespace attn {

struct Pca {
  xt::xtensor<float, 1> mean;         // [d]     column means of the rows
  xt::xtensor<float, 2> components;   // [k, d]  unit principal directions, largest variance first
  xt::xtensor<float, 1> variance;     // [k]     variance along each direction (÷ rows)
  xt::xtensor<float, 2> coordinates;  // [rows, k] (row − mean) · componentsᵀ
};

// The top k principal components of rows [n, d]: eigenvectors of the covariance matrix (or, when
// n < d, of the smaller Gram matrix), in double precision: the cyclic Jacobi method for matrices up
// to 32 wide, subspace iteration with Rayleigh–Ritz above. Each component's sign is fixed so that its
// largest-magnitude entry is positive (eigenvectors are otherwise defined only up to sign).
// Throws std::out_of_range unless 1 ≤ k ≤ d and d ≤ 1024; std::invalid_argument on NaN/∞.
Pca pca(const xt::xtensor<float, 2>& rows, std::size_t k);

// The top k eigenpairs of a symmetric positive semidefinite matrix a [d, d] (a covariance), by the
// same methods as pca: values [k] descending, vectors [k, d] unit, signs fixed as in pca. Only the
// upper triangle is read. Throws std::out_of_range unless 1 ≤ k ≤ d ≤ 1024; std::invalid_argument
// for a non-square matrix or NaN/∞.
struct SymmetricEigen {
  xt::xtensor<double, 1> values;   // [k]
  xt::xtensor<double, 2> vectors;  // [k, d]
};
SymmetricEigen top_eigenpairs(const xt::xtensor<double, 2>& a, std::size_t k);

}  // namespace attn
