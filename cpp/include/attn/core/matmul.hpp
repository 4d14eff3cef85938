#pragma once
// Matrix products of xtensor matrices (xtensor core has none), through the kernels in kernels.hpp.
#include <xtensor/xtensor.hpp>

namespace attn {

// C = A · B.  A [n, k], B [k, m] → C [n, m].
// Throws std::invalid_argument if A's columns differ from B's rows.
xt::xtensor<float, 2> matmul(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b);

// C = A · Bᵀ.  A [n, k], B [m, k] → C [n, m]  (row i of A against row j of B: the score layout).
// Throws std::invalid_argument if A and B have different numbers of columns.
xt::xtensor<float, 2> matmul_transposed(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b);

}  // namespace attn
