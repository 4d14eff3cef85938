#include "attn/matmul.hpp"

#include <stdexcept>
#include <string>

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
  xt::xtensor<float, 2> c = xt::zeros<float>({n, m});
  const float* pa = a.data();
  const float* pb = b.data();
  float* pc = c.data();
  // i-p-j order: the inner loop walks rows of B and C contiguously (row-major, no strides).
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      const float a_ip = pa[i * k + p];
      for (std::size_t j = 0; j < m; ++j) pc[i * m + j] += a_ip * pb[p * m + j];
    }
  }
  return c;
}

xt::xtensor<float, 2> matmul_transposed(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b) {
  if (a.shape(1) != b.shape(1)) {
    throw std::invalid_argument("matmul_transposed: A " + shape_of(a) + " and B " + shape_of(b) +
                                " must have the same number of columns");
  }
  const std::size_t n = a.shape(0), k = a.shape(1), m = b.shape(0);
  xt::xtensor<float, 2> c = xt::empty<float>({n, m});
  const float* pa = a.data();
  const float* pb = b.data();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) {
      float dot = 0.0f;
      for (std::size_t p = 0; p < k; ++p) dot += pa[i * k + p] * pb[j * k + p];
      c(i, j) = dot;
    }
  }
  return c;
}

}  // namespace attn
