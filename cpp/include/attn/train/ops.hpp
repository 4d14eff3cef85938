#pragma once
// The trainable transformer's operations, one forward and one backward function each (as llm.c's
// train_gpt2.c): model.cpp calls the forward functions in order and the backward ones in reverse.
// Each backward function ADDS its gradients to the buffers it is given (they start at zero), so a
// tensor used twice (the residual stream) collects both contributions.
//
// Letters: N = rows (B·T positions), B = sequences, T = seq_len, d = d_model, H = n_heads,
// d_k = d / H, k, m = a matrix product's inner and output widths, V = logits per row.
// Row-major throughout. Real is float (the core's kernels: gemm, attend_head) or double (plain loops,
// the reference for the finite-difference checks).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "attn/core/attention_head.hpp"

namespace attn::train {

// row(id) (d): the input row of id, frozen[id] (frozen: (frozen_rows, d)) for id < frozen_rows, else
// learned[id − frozen_rows] (learned: (V − frozen_rows, d)). The one rule for reading an input row: the
// embedding, a tied output matrix (model.cpp output_matrix) and the rows LanguageModel reports all use it.
template <typename Real>
inline const Real* input_row(std::size_t id, std::size_t d, const Real* frozen, std::size_t frozen_rows,
                             const Real* learned) {
  return id < frozen_rows ? frozen + id * d : learned + (id - frozen_rows) * d;
}

// x (N, d) = row(tokens[r]) + P[r mod T], row as input_row. positional (T, d) may be null (no position information).
template <typename Real>
void embedding_forward(Real* x, const std::int32_t* tokens, std::size_t N, std::size_t T, std::size_t d,
                       const Real* frozen, std::size_t frozen_rows, const Real* learned, const Real* positional);
// dlearned (rows, d) += dx rows of the tokens with learned rows; dpositional (T, d) += dx (if not null).
template <typename Real>
void embedding_backward(Real* dlearned, Real* dpositional, const Real* dx, const std::int32_t* tokens, std::size_t N,
                        std::size_t T, std::size_t d, std::size_t frozen_rows);

// A weight matrix w (k, m) made ready for products in · w: for float, gemm_packed's column panels
// (kernels.hpp pack_panels); for double, w as it is (gemm_rowwise reads it row-major). A matrix used in many
// products (a LanguageModel's output matrix U) is packed once and kept.
template <typename Real>
struct PackedWeights {
  std::vector<Real> data;
  std::size_t k = 0, m = 0;
};
template <typename Real>
void pack_weights(PackedWeights<Real>& out, const Real* w, std::size_t k, std::size_t m);

// out (N, m) = in (N, k) · w (k, m) + bias (m; null: none), or out += in · w + bias when accumulate.
template <typename Real>
void matmul_forward(Real* out, const Real* in, const Real* w, const Real* bias, std::size_t N, std::size_t k,
                    std::size_t m, bool accumulate = false);
// The same with w packed by pack_weights (k = w.k, m = w.m): the bias first, then the product added to it, as
// the unpacked form does, so both give the same bits.
template <typename Real>
void matmul_forward(Real* out, const Real* in, const PackedWeights<Real>& w, const Real* bias, std::size_t N,
                    bool accumulate = false);
// din (N, k) += dout · wᵀ; dw (k, m) += inᵀ · dout; dbias (m) += Σ_rows dout. Any output may be null
// (not needed). scratch holds the transposes.
template <typename Real>
void matmul_backward(Real* din, Real* dw, Real* dbias, const Real* dout, const Real* in, const Real* w, std::size_t N,
                     std::size_t k, std::size_t m, std::vector<Real>& scratch);

// Multi-head scaled dot-product attention (Vaswani et al. 2017, eq. 1 and §3.2.2) over B sequences of T:
// z (N, d) = [A_1 V_1 | … | A_H V_H], A_h = softmax(Q_h K_hᵀ / √d_k + mask) (B, H, T, T) into weights;
// head h reads columns h·d_k … (h+1)·d_k − 1 of q, k, v (N, d). causal: key j > i is masked (weight
// exactly 0). ablated (H flags, or null): a flagged head's block of z is 0. Throws std::domain_error if
// a score is NaN (parameters that are not finite).
template <typename Real>
void attention_forward(Real* z, Real* weights, const Real* q, const Real* k, const Real* v, std::size_t B,
                       std::size_t T, std::size_t d, std::size_t H, bool causal, const std::uint8_t* ablated,
                       HeadWorkspace& head);
// dq, dk, dv (N, d) += the gradients through every head that is not ablated:
//   dA = dZ_h V_hᵀ, dV_h = Aᵀ dZ_h, dS = A ⊙ (dA − rowsum(A ⊙ dA)) / √d_k (softmax's Jacobian; masked
//   cells have A = 0), dQ_h = dS K_h, dK_h = dSᵀ Q_h.
template <typename Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dz, const Real* q, const Real* k, const Real* v,
                        const Real* weights, std::size_t B, std::size_t T, std::size_t d, std::size_t H,
                        const std::uint8_t* ablated, std::vector<Real>& scratch);

// LayerNorm (Ba et al. 2016, eq. 4) of each row of x (N, d): out = γ ⊙ (x − μ) / √(σ² + ε) + β with the
// row's mean μ and biased variance σ², ε = kLayerNormEpsilon (parameters.hpp); keeps mean (N) and
// rstd = 1/√(σ² + ε) (N) for the backward pass.
template <typename Real>
void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* x, const Real* gamma, const Real* beta,
                       std::size_t N, std::size_t d);
// With x̂ = (x − μ)·rstd and g = dout ⊙ γ:  dx += rstd · (g − mean(g) − x̂ · mean(g ⊙ x̂)),
// dγ += Σ_rows dout ⊙ x̂,  dβ += Σ_rows dout.
template <typename Real>
void layernorm_backward(Real* dx, Real* dgamma, Real* dbeta, const Real* dout, const Real* x, const Real* mean,
                        const Real* rstd, const Real* gamma, std::size_t N, std::size_t d);

// out (n) = max(0, in);  din += dout where in > 0.
template <typename Real>
void relu_forward(Real* out, const Real* in, std::size_t n);
template <typename Real>
void relu_backward(Real* din, const Real* dout, const Real* in, std::size_t n);

// GELU (Hendrycks & Gimpel 2016, §2; BERT's output head, Devlin et al. 2019), the exact form PyTorch's nn.GELU
// computes: out (n) = x Φ(x) = x · (1 + erf(x / √2)) / 2;  din += dout · (Φ(x) + x φ(x)), φ the normal density.
template <typename Real>
void gelu_forward(Real* out, const Real* in, std::size_t n);
template <typename Real>
void gelu_backward(Real* din, const Real* dout, const Real* in, std::size_t n);

// GELU with the tanh approximation (Hendrycks & Gimpel 2016, §2), as GPT-2 computes it (Radford et al. 2019; Hugging
// Face's "gelu_new"): out (n) = x · (1 + tanh(√(2/π) · (x + 0.044715 x³))) / 2. Forward only: GPT-2 checkpoints are
// run, not trained, here.
template <typename Real>
void gelu_tanh_forward(Real* out, const Real* in, std::size_t n);

// e^x for x ≤ 0 in float, written so that a loop of it vectorizes (std::exp is a libm call per element,
// and the softmax of the output layer takes V_out = 8192 a position): Cody–Waite reduction x = n ln 2 + r,
// |r| ≤ ln 2 / 2, then Cephes' expf polynomial for e^r (Moshier 1989, "Methods and Programs for
// Mathematical Functions", expf.c) and 2^n from the exponent bits. Relative error below 3e-7 on [−87, 0]
// (test_ops.cpp). x below −87 gives e^−87 ≈ 1.6e-38: a softmax term that small adds nothing in float.
inline float exp_nonpositive(float x) {
  x = x < -87.0f ? -87.0f : x;
  const float n = std::floor(x * 1.44269504088896341f + 0.5f);
  const float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;  // ln 2 = 0.693359375 − 2.12194440e-4, the first exact
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(n) + 127) * (1 << 23);  // 2^n: n ≥ −126 for x ≥ −87
  float two_n;
  std::memcpy(&two_n, &bits, sizeof two_n);
  return y * two_n;
}

// ln Σ_j e^row[j] over one row of V logits (nats), computed stably in double: max + ln Σ_j e^(row[j] − max)
// with the row's largest logit max. Every log-softmax in the project goes through it (the loss below,
// LanguageModel's scores and knockouts).
template <typename Real>
double log_sum_exp(const Real* row, std::size_t V);
// ln softmax(row)[id] = row[id] − log_sum_exp(row) (nats, ≤ 0) for id in [0, V) (not checked).
template <typename Real>
double log_softmax_at(const Real* row, std::size_t V, std::int32_t id);

// Σ over the scored rows of logits (N, V) of −log softmax(row)[target] = log_sum_exp(row) − row[target] (nats).
template <typename Real>
double crossentropy_forward(const Real* logits, const std::int32_t* targets, const std::uint8_t* scored, std::size_t N,
                            std::size_t V);
// logits (N, V) becomes dlogits = (softmax(row) − onehot(target)) · scale on scored rows, 0 on the others
// (scale = 1 / the number of scored positions the loss averages over). Returns crossentropy_forward's
// sum, computed from the same softmax (training needs no second pass over the logits). float: its
// exponentials are exp_nonpositive's and its sums run in 8 lanes (a fixed order: the same bits every run).
template <typename Real>
double crossentropy_backward(Real* logits, const std::int32_t* targets, const std::uint8_t* scored, std::size_t N,
                             std::size_t V, Real scale);

}  // namespace attn::train
