#include "attn/train/ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "attn/core/kernels.hpp"
#include "attn/train/parameters.hpp"

namespace attn::train {

namespace {

constexpr std::size_t kLanes = 8;  // one AVX register of floats: the softmax's reductions run in this many lanes

// C (n, m) = A (n, k) · B (k, m), or C += A · B when accumulate; row strides lda, ldb, ldc.
// float: the core's register-blocked kernel; double: plain loops (the reference for gradient checks).
void matmul(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc, std::size_t n,
            std::size_t k, std::size_t m, bool accumulate) {
  thread_local std::vector<float> packed;
  packed.resize(packed_size(k, m));
  pack_panels_into(b, ldb, k, m, packed.data());
  gemm_packed(a, lda, packed.data(), c, ldc, n, k, m, 0, accumulate);
}

void matmul(const double* a, std::size_t lda, const double* b, std::size_t ldb, double* c, std::size_t ldc,
            std::size_t n, std::size_t k, std::size_t m, bool accumulate) {
  gemm_rowwise(a, lda, b, ldb, c, ldc, n, k, m, accumulate);
}

// out (cols, rows) = aᵀ for a (rows, cols) with row stride lda.
template <typename Real>
void transpose(const Real* a, std::size_t lda, std::size_t rows, std::size_t cols, Real* out) {
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) out[j * rows + i] = a[i * lda + j];
  }
}

// One head over one sequence: out (T, d_k) = softmax(scale · Q Kᵀ, mask) V and its weights (T, T);
// q, k, v, out have row stride ld. Returns false if a score is NaN.
bool attend(const float* q, const float* k, const float* v, std::size_t ld, std::size_t T, std::size_t dk, float scale,
            bool causal, float* out, float* weights, HeadWorkspace& head) {
  return attend_head(q, ld, k, ld, v, ld, T, T, dk, dk, scale, PrefixMask{causal, T}, out, ld, head, weights);
}

bool attend(const double* q, const double* k, const double* v, std::size_t ld, std::size_t T, std::size_t dk,
            double scale, bool causal, double* out, double* weights, HeadWorkspace&) {
  for (std::size_t i = 0; i < T; ++i) {
    double* w = weights + i * T;
    const std::size_t visible = causal ? i + 1 : T;
    // pass 1: scores of the visible keys and their maximum
    double max = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < visible; ++j) {
      double s = 0;
      for (std::size_t c = 0; c < dk; ++c) s += q[i * ld + c] * k[j * ld + c];
      w[j] = scale * s;
      max = std::max(max, w[j]);
    }
    if (std::isnan(max)) return false;
    // pass 2: exponentials and their sum; pass 3: normalize (masked keys get exactly 0)
    double sum = 0;
    for (std::size_t j = 0; j < visible; ++j) sum += (w[j] = std::exp(w[j] - max));
    for (std::size_t j = 0; j < visible; ++j) w[j] /= sum;
    std::fill(w + visible, w + T, 0.0);
    // pass 4: the weighted sum of the value rows
    std::fill(out + i * ld, out + i * ld + dk, 0.0);
    for (std::size_t j = 0; j < visible; ++j) {
      for (std::size_t c = 0; c < dk; ++c) out[i * ld + c] += w[j] * v[j * ld + c];
    }
  }
  return true;
}

}  // namespace

template <typename Real>
void embedding_forward(Real* x, const std::int32_t* tokens, std::size_t N, std::size_t T, std::size_t d,
                       const Real* frozen, std::size_t frozen_rows, const Real* learned, const Real* positional) {
  for (std::size_t r = 0; r < N; ++r) {
    const auto id = static_cast<std::size_t>(tokens[r]);
    const Real* e = input_row(id, d, frozen, frozen_rows, learned);
    Real* row = x + r * d;
    for (std::size_t j = 0; j < d; ++j) row[j] = e[j] + (positional ? positional[(r % T) * d + j] : Real{0});
  }
}

template <typename Real>
void embedding_backward(Real* dlearned, Real* dpositional, const Real* dx, const std::int32_t* tokens, std::size_t N,
                        std::size_t T, std::size_t d, std::size_t frozen_rows) {
  for (std::size_t r = 0; r < N; ++r) {
    const Real* g = dx + r * d;
    const auto id = static_cast<std::size_t>(tokens[r]);
    if (id >= frozen_rows) {
      Real* e = dlearned + (id - frozen_rows) * d;
      for (std::size_t j = 0; j < d; ++j) e[j] += g[j];
    }
    if (dpositional) {
      Real* p = dpositional + (r % T) * d;
      for (std::size_t j = 0; j < d; ++j) p[j] += g[j];
    }
  }
}

template <typename Real>
void pack_weights(PackedWeights<Real>& out, const Real* w, std::size_t k, std::size_t m) {
  out.k = k, out.m = m;
  if constexpr (std::is_same_v<Real, float>) {
    out.data.resize(packed_size(k, m));
    pack_panels_into(w, m, k, m, out.data.data());
  } else {
    out.data.assign(w, w + k * m);
  }
}

template <typename Real>
void matmul_forward(Real* out, const Real* in, const PackedWeights<Real>& w, const Real* bias, std::size_t N,
                    bool accumulate) {
  const std::size_t k = w.k, m = w.m;
  for (std::size_t r = 0; bias && r < N; ++r) {
    Real* row = out + r * m;
    for (std::size_t j = 0; j < m; ++j) row[j] = accumulate ? row[j] + bias[j] : bias[j];
  }
  if constexpr (std::is_same_v<Real, float>) {
    gemm_packed(in, k, w.data.data(), out, m, N, k, m, 0, accumulate || bias);
  } else {
    gemm_rowwise(in, k, w.data.data(), m, out, m, N, k, m, accumulate || bias);
  }
}

template <typename Real>
void matmul_forward(Real* out, const Real* in, const Real* w, const Real* bias, std::size_t N, std::size_t k,
                    std::size_t m, bool accumulate) {
  thread_local PackedWeights<Real> packed;  // packed for this one product
  pack_weights(packed, w, k, m);
  matmul_forward(out, in, packed, bias, N, accumulate);
}

template <typename Real>
void matmul_backward(Real* din, Real* dw, Real* dbias, const Real* dout, const Real* in, const Real* w, std::size_t N,
                     std::size_t k, std::size_t m, std::vector<Real>& scratch) {
  scratch.resize(std::max(dw ? k * N : 0, din ? m * k : 0));
  if (dw) {  // dW += inᵀ dout
    transpose(in, k, N, k, scratch.data());
    matmul(scratch.data(), N, dout, m, dw, m, k, N, m, true);
  }
  if (din) {  // dIn += dout Wᵀ
    transpose(w, m, k, m, scratch.data());
    matmul(dout, m, scratch.data(), k, din, k, N, m, k, true);
  }
  if (dbias) {
    for (std::size_t r = 0; r < N; ++r) {
      for (std::size_t j = 0; j < m; ++j) dbias[j] += dout[r * m + j];
    }
  }
}

template <typename Real>
void attention_forward(Real* z, Real* weights, const Real* q, const Real* k, const Real* v, std::size_t B,
                       std::size_t T, std::size_t d, std::size_t H, bool causal, const std::uint8_t* ablated,
                       HeadWorkspace& head) {
  const std::size_t dk = d / H;
  const Real scale = Real{1} / std::sqrt(static_cast<Real>(dk));
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t h = 0; h < H; ++h) {
      const std::size_t at = b * T * d + h * dk;
      if (!attend(q + at, k + at, v + at, d, T, dk, scale, causal, z + at, weights + (b * H + h) * T * T, head)) {
        throw std::domain_error("the attention scores hold NaN: the parameters are not finite (training diverged)");
      }
      if (ablated && ablated[h]) {
        for (std::size_t t = 0; t < T; ++t) std::fill(z + at + t * d, z + at + t * d + dk, Real{0});
      }
    }
  }
}

template <typename Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dz, const Real* q, const Real* k, const Real* v,
                        const Real* weights, std::size_t B, std::size_t T, std::size_t d, std::size_t H,
                        const std::uint8_t* ablated, std::vector<Real>& scratch) {
  const std::size_t d_k = d / H;
  const Real scale = Real{1} / std::sqrt(static_cast<Real>(d_k));
  // per head: head_t (d_k, T) a transposed V_h; da, at, ds (T, T)
  scratch.resize(d_k * T + 3 * T * T);
  Real* head_t = scratch.data();
  Real* da = head_t + d_k * T;
  Real* at = da + T * T;
  Real* ds = at + T * T;
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t h = 0; h < H; ++h) {
      if (ablated && ablated[h]) continue;  // its output is 0: no gradient reaches it
      const std::size_t off = b * T * d + h * d_k;
      const Real* a = weights + (b * H + h) * T * T;  // (T, T)
      // dA = dZ_h V_hᵀ (T, T);  dV_h = A_hᵀ dZ_h (T, d_k)
      transpose(v + off, d, T, d_k, head_t);
      matmul(dz + off, d, head_t, T, da, T, T, d_k, T, false);
      transpose(a, T, T, T, at);
      matmul(at, T, dz + off, d, dv + off, d, T, T, d_k, true);
      // dS = A ⊙ (dA − rowsum(A ⊙ dA)) · scale (masked cells have A = 0, so their dS is 0)
      for (std::size_t i = 0; i < T; ++i) {
        Real dot = 0;
        for (std::size_t j = 0; j < T; ++j) dot += a[i * T + j] * da[i * T + j];
        for (std::size_t j = 0; j < T; ++j) ds[i * T + j] = a[i * T + j] * (da[i * T + j] - dot) * scale;
      }
      // dQ_h = dS K_h;  dK_h = dSᵀ Q_h
      matmul(ds, T, k + off, d, dq + off, d, T, T, d_k, true);
      transpose(ds, T, T, T, at);
      matmul(at, T, q + off, d, dk + off, d, T, T, d_k, true);
    }
  }
}

template <typename Real>
void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* x, const Real* gamma, const Real* beta,
                       std::size_t N, std::size_t d) {
  for (std::size_t r = 0; r < N; ++r) {
    const Real* row = x + r * d;
    double sum = 0;
    for (std::size_t j = 0; j < d; ++j) sum += row[j];
    const double mu = sum / static_cast<double>(d);
    double squares = 0;
    for (std::size_t j = 0; j < d; ++j) squares += (row[j] - mu) * (row[j] - mu);
    const double inv = 1.0 / std::sqrt(squares / static_cast<double>(d) + kLayerNormEpsilon);
    mean[r] = static_cast<Real>(mu);
    rstd[r] = static_cast<Real>(inv);
    for (std::size_t j = 0; j < d; ++j) out[r * d + j] = gamma[j] * ((row[j] - mean[r]) * rstd[r]) + beta[j];
  }
}

template <typename Real>
void layernorm_backward(Real* dx, Real* dgamma, Real* dbeta, const Real* dout, const Real* x, const Real* mean,
                        const Real* rstd, const Real* gamma, std::size_t N, std::size_t d) {
  for (std::size_t r = 0; r < N; ++r) {
    const Real* row = x + r * d;
    const Real* g = dout + r * d;
    // the two means over the row: of g ⊙ γ, and of g ⊙ γ ⊙ x̂
    double g_mean = 0, gx_mean = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double xhat = (row[j] - mean[r]) * rstd[r];
      g_mean += g[j] * gamma[j];
      gx_mean += g[j] * gamma[j] * xhat;
    }
    g_mean /= static_cast<double>(d);
    gx_mean /= static_cast<double>(d);
    for (std::size_t j = 0; j < d; ++j) {
      const Real xhat = (row[j] - mean[r]) * rstd[r];
      dgamma[j] += g[j] * xhat;
      dbeta[j] += g[j];
      dx[r * d + j] += rstd[r] * static_cast<Real>(g[j] * gamma[j] - g_mean - xhat * gx_mean);
    }
  }
}

template <typename Real>
void relu_forward(Real* out, const Real* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = in[i] > 0 ? in[i] : Real{0};
}

template <typename Real>
void relu_backward(Real* din, const Real* dout, const Real* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) din[i] += in[i] > 0 ? dout[i] : Real{0};
}

template <typename Real>
void gelu_forward(Real* out, const Real* in, std::size_t n) {
  const Real inv_sqrt2 = static_cast<Real>(0.70710678118654752440);
  for (std::size_t i = 0; i < n; ++i) out[i] = Real{0.5} * in[i] * (Real{1} + std::erf(in[i] * inv_sqrt2));
}

template <typename Real>
void gelu_backward(Real* din, const Real* dout, const Real* in, std::size_t n) {
  const Real inv_sqrt2 = static_cast<Real>(0.70710678118654752440),
             inv_sqrt_2pi = static_cast<Real>(0.39894228040143267794);
  for (std::size_t i = 0; i < n; ++i) {
    const Real x = in[i];
    const Real cdf = Real{0.5} * (Real{1} + std::erf(x * inv_sqrt2)), pdf = inv_sqrt_2pi * std::exp(Real{-0.5} * x * x);
    din[i] += dout[i] * (cdf + x * pdf);
  }
}

template <typename Real>
void gelu_tanh_forward(Real* out, const Real* in, std::size_t n) {
  const Real sqrt_2_over_pi = static_cast<Real>(0.79788456080286535588), cubic = static_cast<Real>(0.044715);
  for (std::size_t i = 0; i < n; ++i) {
    const Real x = in[i];
    out[i] = Real{0.5} * x * (Real{1} + std::tanh(sqrt_2_over_pi * (x + cubic * x * x * x)));
  }
}

template <typename Real>
double log_sum_exp(const Real* row, std::size_t V) {
  const double max = *std::max_element(row, row + V);
  double total = 0;
  for (std::size_t j = 0; j < V; ++j) total += std::exp(static_cast<double>(row[j]) - max);
  return max + std::log(total);
}

template <typename Real>
double log_softmax_at(const Real* row, std::size_t V, std::int32_t id) {
  return static_cast<double>(row[id]) - log_sum_exp(row, V);
}

template <typename Real>
double crossentropy_forward(const Real* logits, const std::int32_t* targets, const std::uint8_t* scored, std::size_t N,
                            std::size_t V) {
  double sum = 0;
  for (std::size_t r = 0; r < N; ++r) {
    if (!scored[r]) continue;
    const Real* row = logits + r * V;
    sum += log_sum_exp(row, V) - static_cast<double>(row[targets[r]]);
  }
  return sum;
}

template <typename Real>
double crossentropy_backward(Real* logits, const std::int32_t* targets, const std::uint8_t* scored, std::size_t N,
                             std::size_t V, Real scale) {
  double sum = 0;
  for (std::size_t r = 0; r < N; ++r) {
    Real* row = logits + r * V;
    if (!scored[r]) {
      std::fill(row, row + V, Real{0});
      continue;
    }
    const Real target = row[targets[r]];
    // The row's max, e^(row − max) and their sum: separate loops in lanes, so that each vectorizes
    Real lanes[kLanes];
    std::fill(lanes, lanes + kLanes, -std::numeric_limits<Real>::infinity());
    std::size_t j = 0;
    for (; j + kLanes <= V; j += kLanes) {
      for (std::size_t l = 0; l < kLanes; ++l) lanes[l] = std::max(lanes[l], row[j + l]);
    }
    Real max = *std::max_element(lanes, lanes + kLanes);
    for (; j < V; ++j) max = std::max(max, row[j]);
    if constexpr (std::is_same_v<Real, float>) {
      for (j = 0; j < V; ++j) row[j] = exp_nonpositive(row[j] - max);
    } else {
      for (j = 0; j < V; ++j) row[j] = std::exp(row[j] - max);
    }
    std::fill(lanes, lanes + kLanes, Real{0});
    for (j = 0; j + kLanes <= V; j += kLanes) {
      for (std::size_t l = 0; l < kLanes; ++l) lanes[l] += row[j + l];
    }
    Real total = 0;
    for (std::size_t l = 0; l < kLanes; ++l) total += lanes[l];
    for (; j < V; ++j) total += row[j];
    sum += static_cast<double>(max) + std::log(static_cast<double>(total)) - static_cast<double>(target);
    const Real factor = scale / total;
    for (j = 0; j < V; ++j) row[j] *= factor;
    row[targets[r]] -= scale;
  }
  return sum;
}

#define ATTN_TRAIN_OPS(Real)                                                                                           \
  template void embedding_forward<Real>(Real*, const std::int32_t*, std::size_t, std::size_t, std::size_t,             \
                                        const Real*, std::size_t, const Real*, const Real*);                           \
  template void embedding_backward<Real>(Real*, Real*, const Real*, const std::int32_t*, std::size_t, std::size_t,     \
                                         std::size_t, std::size_t);                                                    \
  template void pack_weights<Real>(PackedWeights<Real>&, const Real*, std::size_t, std::size_t);                       \
  template void matmul_forward<Real>(Real*, const Real*, const Real*, const Real*, std::size_t, std::size_t,           \
                                     std::size_t, bool);                                                               \
  template void matmul_forward<Real>(Real*, const Real*, const PackedWeights<Real>&, const Real*, std::size_t, bool);  \
  template void matmul_backward<Real>(Real*, Real*, Real*, const Real*, const Real*, const Real*, std::size_t,         \
                                      std::size_t, std::size_t, std::vector<Real>&);                                   \
  template void attention_forward<Real>(Real*, Real*, const Real*, const Real*, const Real*, std::size_t, std::size_t, \
                                        std::size_t, std::size_t, bool, const std::uint8_t*, HeadWorkspace&);          \
  template void attention_backward<Real>(Real*, Real*, Real*, const Real*, const Real*, const Real*, const Real*,      \
                                         const Real*, std::size_t, std::size_t, std::size_t, std::size_t,              \
                                         const std::uint8_t*, std::vector<Real>&);                                     \
  template void layernorm_forward<Real>(Real*, Real*, Real*, const Real*, const Real*, const Real*, std::size_t,       \
                                        std::size_t);                                                                  \
  template void layernorm_backward<Real>(Real*, Real*, Real*, const Real*, const Real*, const Real*, const Real*,      \
                                         const Real*, std::size_t, std::size_t);                                       \
  template void relu_forward<Real>(Real*, const Real*, std::size_t);                                                   \
  template void relu_backward<Real>(Real*, const Real*, const Real*, std::size_t);                                     \
  template void gelu_forward<Real>(Real*, const Real*, std::size_t);                                                   \
  template void gelu_backward<Real>(Real*, const Real*, const Real*, std::size_t);                                     \
  template void gelu_tanh_forward<Real>(Real*, const Real*, std::size_t);                                              \
  template double log_sum_exp<Real>(const Real*, std::size_t);                                                         \
  template double log_softmax_at<Real>(const Real*, std::size_t, std::int32_t);                                        \
  template double crossentropy_forward<Real>(const Real*, const std::int32_t*, const std::uint8_t*, std::size_t,       \
                                             std::size_t);                                                             \
  template double crossentropy_backward<Real>(Real*, const std::int32_t*, const std::uint8_t*, std::size_t,            \
                                              std::size_t, Real);
ATTN_TRAIN_OPS(float)
ATTN_TRAIN_OPS(double)
#undef ATTN_TRAIN_OPS

}  // namespace attn::train
