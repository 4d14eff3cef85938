#include "attn/train/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "attn/core/kernels.hpp"
#include "attn/core/limits.hpp"
#include "attn/core/positional.hpp"
#include "attn/core/random.hpp"

namespace attn::train {

namespace {

// C (n, m) = A (n, k) · B (k, m), or C += A · B when accumulate; row strides lda, ldb, ldc.
// float: the core's register-blocked kernel; double: plain loops (the reference for gradient checks).
void matmul(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc, std::size_t n,
            std::size_t k, std::size_t m, bool accumulate) {
  gemm(a, lda, b, ldb, c, ldc, n, k, m, accumulate);
}

void matmul(const double* a, std::size_t lda, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t n,
            std::size_t k, std::size_t m, bool accumulate) {
  for (std::size_t i = 0; i < n; ++i) {
    double* row = c + i * ldc;
    if (!accumulate) std::fill(row, row + m, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
      const double aip = a[i * lda + p];
      const double* brow = b + p * ldb;
      for (std::size_t j = 0; j < m; ++j) row[j] += aip * brow[j];
    }
  }
}

// out (cols, rows) = aᵀ for a (rows, cols) with row stride lda.
template <typename Real>
void transpose(const Real* a, std::size_t lda, std::size_t rows, std::size_t cols, Real* out) {
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) out[j * rows + i] = a[i * lda + j];
  }
}

// One causal head: out (T, d_k) = softmax(scale · Q Kᵀ, causal) V and its weights (T, T); q, k, v, out have
// row stride ld. Returns false if a score is NaN.
bool attend(const float* q, const float* k, const float* v, std::size_t ld, std::size_t T, std::size_t dk, float scale,
            float* out, float* weights, HeadWorkspace& head) {
  return attend_head(q, ld, k, ld, v, ld, T, T, dk, dk, scale, PrefixMask{true, T}, out, ld, head, weights);
}

bool attend(const double* q, const double* k, const double* v, std::size_t ld, std::size_t T, std::size_t dk,
            double scale, double* out, double* weights, HeadWorkspace&) {
  for (std::size_t i = 0; i < T; ++i) {
    double* w = weights + i * T;
    // pass 1: scores of the visible keys j ≤ i and their maximum
    double max = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j <= i; ++j) {
      double s = 0;
      for (std::size_t c = 0; c < dk; ++c) s += q[i * ld + c] * k[j * ld + c];
      w[j] = scale * s;
      max = std::max(max, w[j]);
    }
    if (std::isnan(max)) return false;
    // pass 2: exponentials and their sum; pass 3: normalize (masked keys j > i get exactly 0)
    double sum = 0;
    for (std::size_t j = 0; j <= i; ++j) sum += (w[j] = std::exp(w[j] - max));
    for (std::size_t j = 0; j <= i; ++j) w[j] /= sum;
    std::fill(w + i + 1, w + T, 0.0);
    // pass 4: the weighted sum of the value rows
    std::fill(out + i * ld, out + i * ld + dk, 0.0);
    for (std::size_t j = 0; j <= i; ++j) {
      for (std::size_t c = 0; c < dk; ++c) out[i * ld + c] += w[j] * v[j * ld + c];
    }
  }
  return true;
}

std::string name_list(const char* const* names, std::size_t count) {
  std::string list;
  for (std::size_t i = 0; i < count; ++i) list += std::string(i ? ", " : "") + "'" + names[i] + "'";
  return list;
}

}  // namespace

Positional positional_from_name(const std::string& name) {
  for (std::size_t i = 0; i < kPositionalNames.size(); ++i) {
    if (name == kPositionalNames[i]) return static_cast<Positional>(i);
  }
  throw std::invalid_argument("positionalEncoding must be one of " + name_list(kPositionalNames.data(), kPositionalNames.size()) +
                              ", got '" + name + "'");
}

const char* positional_name(Positional positional) { return kPositionalNames[static_cast<std::size_t>(positional)]; }

ParameterLayout::ParameterLayout(const ModelConfig& c) {
  const std::size_t d = c.d_model;
  embedding = 0;
  positional = c.vocab_size * d;
  layers = positional + (c.positional == Positional::Learned ? c.seq_len * d : 0);
  unembedding = layers + 4 * c.n_layers * d * d;
  size = unembedding + d * c.vocab_size;
}

std::size_t ParameterLayout::weight(const ModelConfig& c, std::size_t layer, std::size_t m) const {
  return layers + (4 * layer + m) * c.d_model * c.d_model;
}

void check_config(const ModelConfig& c) {
  const auto positive = [](std::size_t value, const char* name) {
    if (value == 0) throw std::out_of_range(std::string(name) + " must be at least 1");
  };
  positive(c.vocab_size, "vocabSize");
  positive(c.d_model, "dModel");
  positive(c.n_heads, "numHeads");
  positive(c.n_layers, "numLayers");
  positive(c.seq_len, "seqLen");
  if (c.d_model % c.n_heads != 0) {
    throw std::out_of_range("numHeads must divide dModel = " + std::to_string(c.d_model) + ", got " + std::to_string(c.n_heads));
  }
  const std::uint64_t d = c.d_model;
  check_cells(d * (std::uint64_t{2} * c.vocab_size + c.seq_len + std::uint64_t{4} * c.n_layers * d), "the model's parameters");
}

std::vector<float> init_parameters(const ModelConfig& c, std::uint64_t seed) {
  check_config(c);
  const ParameterLayout layout(c);
  std::vector<float> p(layout.size);
  SplitMix64 rng(seed);
  const float sqrt3 = std::sqrt(3.0f);
  const auto fill = [&](std::size_t from, std::size_t to, float sigma) {
    for (std::size_t i = from; i < to; ++i) p[i] = (2.0f * rng.uniform() - 1.0f) * sqrt3 * sigma;
  };
  const float inv_sqrt_d = 1.0f / std::sqrt(static_cast<float>(c.d_model));
  fill(layout.embedding, layout.layers, 1.0f);  // E, and P when learned
  fill(layout.layers, layout.size, inv_sqrt_d);  // W_Q, W_K, W_V, W_O of every layer, and U
  return p;
}

template <typename Real>
void forward(const ModelConfig& c, const Real* params, const std::int32_t* tokens, std::size_t B, std::size_t T,
             const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws) {
  if (B == 0) throw std::out_of_range("batch size must be at least 1");
  if (T == 0 || T > c.seq_len) {
    throw std::out_of_range("a sequence must hold 1 to seqLen = " + std::to_string(c.seq_len) + " tokens, got " + std::to_string(T));
  }
  const std::size_t d = c.d_model, H = c.n_heads, dk = d / H, L = c.n_layers, V = c.vocab_size, BT = B * T;
  const std::uint64_t bt = std::uint64_t{B} * T;
  check_cells(std::uint64_t{L} * B * H * T * T, "the attention weights of a batch");
  check_cells(bt * d * (4 * std::uint64_t{L} + 1), "the activations of a batch");
  check_cells(bt * V, "the logits of a batch");
  for (std::size_t r = 0; r < BT; ++r) {
    if (tokens[r] < 0 || static_cast<std::size_t>(tokens[r]) >= V) {
      throw std::out_of_range("tokens[" + std::to_string(r) + "] = " + std::to_string(tokens[r]) + " is outside [0, vocabSize = " +
                              std::to_string(V) + ")");
    }
  }
  const ParameterLayout layout(c);
  ws.batch_size = B;
  ws.seq_len = T;
  if (c.positional == Positional::Sinusoidal && ws.positional.size() != c.seq_len * d) {
    const auto p = sinusoidal_encoding(c.seq_len, d);
    ws.positional.assign(p.begin(), p.end());
  }
  ws.x.resize((L + 1) * BT * d);
  ws.qkv.resize(L * 3 * BT * d);
  ws.z.resize(L * BT * d);
  ws.weights.resize(L * B * H * T * T);
  ws.logits.resize(BT * V);

  // x₀ = E[tokens] + P
  const Real* pos = c.positional == Positional::Sinusoidal ? ws.positional.data()
                    : c.positional == Positional::Learned  ? params + layout.positional
                                                           : nullptr;
  for (std::size_t r = 0; r < BT; ++r) {
    const Real* e = params + layout.embedding + static_cast<std::size_t>(tokens[r]) * d;
    Real* x = ws.x.data() + r * d;
    for (std::size_t j = 0; j < d; ++j) x[j] = e[j] + (pos ? pos[(r % T) * d + j] : Real{0});
  }
  const Real scale = Real{1} / std::sqrt(static_cast<Real>(dk));
  for (std::size_t l = 0; l < L; ++l) {
    const Real* x = ws.x.data() + l * BT * d;                       // (B·T, d)
    Real* q = ws.qkv.data() + (3 * l) * BT * d;                     // (B·T, d)
    Real* k = q + BT * d;                                           // (B·T, d)
    Real* v = k + BT * d;                                           // (B·T, d)
    Real* z = ws.z.data() + l * BT * d;                             // (B·T, d)
    Real* weights = ws.weights.data() + l * B * H * T * T;          // (B, H, T, T)
    matmul(x, d, params + layout.weight(c, l, 0), d, q, d, BT, d, d, false);
    matmul(x, d, params + layout.weight(c, l, 1), d, k, d, BT, d, d, false);
    matmul(x, d, params + layout.weight(c, l, 2), d, v, d, BT, d, d, false);
    for (std::size_t b = 0; b < B; ++b) {
      for (std::size_t h = 0; h < H; ++h) {
        const std::size_t at = b * T * d + h * dk;
        Real* w = weights + (b * H + h) * T * T;
        if (!attend(q + at, k + at, v + at, d, T, dk, scale, z + at, w, ws.head)) {
          throw std::domain_error("the attention scores hold NaN: the parameters are not finite (training diverged)");
        }
        if (!ablated.empty() && ablated[l * H + h]) {
          for (std::size_t t = 0; t < T; ++t) std::fill(z + at + t * d, z + at + t * d + dk, Real{0});
        }
      }
    }
    Real* next = ws.x.data() + (l + 1) * BT * d;
    std::copy(x, x + BT * d, next);
    matmul(z, d, params + layout.weight(c, l, 3), d, next, d, BT, d, d, true);  // x_{l+1} = x_l + Z W_O
  }
  matmul(ws.x.data() + L * BT * d, d, params + layout.unembedding, V, ws.logits.data(), V, BT, d, V, false);
}

namespace {
void check_batch_matches(const Batch& batch, std::size_t B, std::size_t T, const char* where) {
  if (batch.batch_size != B || batch.seq_len != T) {
    throw std::invalid_argument(std::string(where) + ": the batch is not the one of the last forward pass");
  }
}
}  // namespace

template <typename Real>
double loss(const ModelConfig& c, const Workspace<Real>& ws, const Batch& batch) {
  check_batch_matches(batch, ws.batch_size, ws.seq_len, "loss");
  const std::size_t V = c.vocab_size;
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t r = 0; r < batch.tokens.size(); ++r) {
    if (!batch.scored[r]) continue;
    const Real* row = ws.logits.data() + r * V;
    const double max = *std::max_element(row, row + V);
    double total = 0;
    for (std::size_t j = 0; j < V; ++j) total += std::exp(static_cast<double>(row[j]) - max);
    sum += max + std::log(total) - static_cast<double>(row[batch.targets[r]]);
    ++count;
  }
  return count ? sum / static_cast<double>(count) : 0.0;
}

template <typename Real>
void backward(const ModelConfig& c, const Real* params, const Batch& batch, const std::vector<std::uint8_t>& ablated,
              Workspace<Real>& ws, Real* grads) {
  check_batch_matches(batch, ws.batch_size, ws.seq_len, "backward");
  const std::size_t B = ws.batch_size, T = ws.seq_len, BT = B * T;
  const std::size_t d = c.d_model, H = c.n_heads, dk = d / H, L = c.n_layers, V = c.vocab_size;
  const ParameterLayout layout(c);
  std::fill(grads, grads + layout.size, Real{0});
  const std::size_t scored = batch.scored_count();
  if (scored == 0) return;

  // Scratch: xt (d, B·T) transposes of activations; wt (max(d, V), d) transposed weights; dx, dz (B·T, d);
  // dqkv (3, B·T, d); per head: head_t (d_k, T), da, at, ds (T, T).
  ws.scratch.resize(d * BT + std::max(d, V) * d + 5 * BT * d + dk * T + 3 * T * T);
  Real* xt = ws.scratch.data();
  Real* wt = xt + d * BT;
  Real* dx = wt + std::max(d, V) * d;
  Real* dz = dx + BT * d;
  Real* dq = dz + BT * d;
  Real* dkey = dq + BT * d;
  Real* dv = dkey + BT * d;
  Real* head_t = dv + BT * d;
  Real* da = head_t + dk * T;
  Real* at = da + T * T;
  Real* ds = at + T * T;

  // dlogits = (softmax(logits) − onehot(target)) / N on scored rows, in place of the logits
  const Real inv_n = Real{1} / static_cast<Real>(scored);
  for (std::size_t r = 0; r < BT; ++r) {
    Real* row = ws.logits.data() + r * V;
    if (!batch.scored[r]) {
      std::fill(row, row + V, Real{0});
      continue;
    }
    const Real max = *std::max_element(row, row + V);
    Real total = 0;
    for (std::size_t j = 0; j < V; ++j) total += (row[j] = std::exp(row[j] - max));
    for (std::size_t j = 0; j < V; ++j) row[j] *= inv_n / total;
    row[batch.targets[r]] -= inv_n;
  }
  const Real* dlogits = ws.logits.data();  // (B·T, V)

  // dU = x_Lᵀ dlogits;  dx_L = dlogits Uᵀ
  transpose(ws.x.data() + L * BT * d, d, BT, d, xt);
  matmul(xt, BT, dlogits, V, grads + layout.unembedding, V, d, BT, V, false);
  transpose(params + layout.unembedding, V, d, V, wt);
  matmul(dlogits, V, wt, d, dx, d, BT, V, d, false);

  const Real scale = Real{1} / std::sqrt(static_cast<Real>(dk));
  for (std::size_t l = L; l-- > 0;) {
    const Real* x = ws.x.data() + l * BT * d;
    const Real* q = ws.qkv.data() + (3 * l) * BT * d;
    const Real* k = q + BT * d;
    const Real* v = k + BT * d;
    const Real* z = ws.z.data() + l * BT * d;
    const Real* weights = ws.weights.data() + l * B * H * T * T;
    // dx holds ∂loss/∂x_{l+1}; the residual passes it to x_l unchanged, and the layer adds its part.
    // dW_O = Zᵀ dx;  dZ = dx W_Oᵀ
    transpose(z, d, BT, d, xt);
    matmul(xt, BT, dx, d, grads + layout.weight(c, l, 3), d, d, BT, d, false);
    transpose(params + layout.weight(c, l, 3), d, d, d, wt);
    matmul(dx, d, wt, d, dz, d, BT, d, d, false);
    std::fill(dq, dq + 3 * BT * d, Real{0});
    for (std::size_t b = 0; b < B; ++b) {
      for (std::size_t h = 0; h < H; ++h) {
        if (!ablated.empty() && ablated[l * H + h]) continue;  // its output is 0: no gradient reaches it
        const std::size_t off = b * T * d + h * dk;
        const Real* a = weights + (b * H + h) * T * T;  // (T, T)
        // dA = dZ_h V_hᵀ (T, T);  dV_h = A_hᵀ dZ_h (T, d_k)
        transpose(v + off, d, T, dk, head_t);
        matmul(dz + off, d, head_t, T, da, T, T, dk, T, false);
        transpose(a, T, T, T, at);
        matmul(at, T, dz + off, d, dv + off, d, T, T, dk, false);
        // dS = A ⊙ (dA − rowsum(A ⊙ dA)) · scale (the softmax Jacobian, then the 1/√d_k of the scores)
        for (std::size_t i = 0; i < T; ++i) {
          Real dot = 0;
          for (std::size_t j = 0; j <= i; ++j) dot += a[i * T + j] * da[i * T + j];
          for (std::size_t j = 0; j < T; ++j) ds[i * T + j] = j <= i ? a[i * T + j] * (da[i * T + j] - dot) * scale : Real{0};
        }
        // dQ_h = dS K_h;  dK_h = dSᵀ Q_h
        matmul(ds, T, k + off, d, dq + off, d, T, T, dk, false);
        transpose(ds, T, T, T, at);
        matmul(at, T, q + off, d, dkey + off, d, T, T, dk, false);
      }
    }
    // dW_Q = x_lᵀ dQ (and K, V);  dx += dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ
    transpose(x, d, BT, d, xt);
    const Real* dproj[3] = {dq, dkey, dv};
    for (std::size_t m = 0; m < 3; ++m) {
      matmul(xt, BT, dproj[m], d, grads + layout.weight(c, l, m), d, d, BT, d, false);
      transpose(params + layout.weight(c, l, m), d, d, d, wt);
      matmul(dproj[m], d, wt, d, dx, d, BT, d, d, true);
    }
  }
  // dE[token] += dx₀ row;  dP (learned) += dx₀ row
  for (std::size_t r = 0; r < BT; ++r) {
    Real* e = grads + layout.embedding + static_cast<std::size_t>(batch.tokens[r]) * d;
    const Real* g = dx + r * d;
    for (std::size_t j = 0; j < d; ++j) e[j] += g[j];
    if (c.positional == Positional::Learned) {
      Real* p = grads + layout.positional + (r % T) * d;
      for (std::size_t j = 0; j < d; ++j) p[j] += g[j];
    }
  }
}

template void forward<float>(const ModelConfig&, const float*, const std::int32_t*, std::size_t, std::size_t,
                             const std::vector<std::uint8_t>&, Workspace<float>&);
template void forward<double>(const ModelConfig&, const double*, const std::int32_t*, std::size_t, std::size_t,
                              const std::vector<std::uint8_t>&, Workspace<double>&);
template double loss<float>(const ModelConfig&, const Workspace<float>&, const Batch&);
template double loss<double>(const ModelConfig&, const Workspace<double>&, const Batch&);
template void backward<float>(const ModelConfig&, const float*, const Batch&, const std::vector<std::uint8_t>&,
                              Workspace<float>&, float*);
template void backward<double>(const ModelConfig&, const double*, const Batch&, const std::vector<std::uint8_t>&,
                               Workspace<double>&, double*);

}  // namespace attn::train
