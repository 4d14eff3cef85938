#include "attn/core/matmul.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "attn/core/kernels.hpp"

namespace attn {

namespace {
std::string shape_of(const xt::xtensor<float, 2>& t) {
  return "[" + std::to_string(t.shape(0)) + ", " + std::to_string(t.shape(1)) + "]";
}
}  // namespace

xt::xtensor<float, 2> matmul(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b) {
  if (a.shape(1) != b.shape(0)) {
    throw std::invalid_argument("matmul: A " + shape_of(a) + " and B " + shape_of(b) +
                                " do not chain (A's columns must equal B's rows)");
  }
  const std::size_t n = a.shape(0), k = a.shape(1), m = b.shape(1);
  xt::xtensor<float, 2> c = xt::empty<float>({n, m});
  gemm(a.data(), k, b.data(), m, c.data(), m, n, k, m);
  return c;
}

xt::xtensor<float, 2> matmul_transposed(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b) {
  if (a.shape(1) != b.shape(1)) {
    throw std::invalid_argument("matmul_transposed: A " + shape_of(a) + " and B " + shape_of(b) +
                                " must have the same number of columns");
  }
  const std::size_t n = a.shape(0), k = a.shape(1), m = b.shape(0);
  std::vector<float> b_t(k * m);  // Bᵀ [k, m], so the product runs through the same kernel
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t p = 0; p < k; ++p) b_t[p * m + j] = b(j, p);
  xt::xtensor<float, 2> c = xt::empty<float>({n, m});
  gemm(a.data(), k, b_t.data(), m, c.data(), m, n, k, m);
  return c;
}

}  // namespace attn
