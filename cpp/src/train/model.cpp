#include "attn/train/model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"
#include "attn/core/positional.hpp"
#include "attn/train/input_checks.hpp"
#include "attn/train/ops.hpp"

namespace attn::train {

namespace {

void check_batch_matches(const Batch& batch, std::size_t B, std::size_t T, const char* where) {
  if (batch.batch_size != B || batch.seq_len != T) {
    throw std::invalid_argument(std::string(where) + ": the batch is not the one of the last forward pass");
  }
}

const std::uint8_t* layer_flags(const std::vector<std::uint8_t>& ablated, std::size_t layer, std::size_t H) {
  return ablated.empty() ? nullptr : ablated.data() + layer * H;
}

// The targets and scored flags of ws.logits' rows: the batch's own, or after forward_scored its scored
// rows' targets (all scored).
struct OutputTargets {
  const std::int32_t* targets;
  const std::uint8_t* scored;
  std::size_t rows;
  std::vector<std::int32_t> compact_targets;
  std::vector<std::uint8_t> compact_scored;
};

template <typename Real>
OutputTargets output_targets(const Workspace<Real>& ws, const Batch& batch) {
  OutputTargets out{batch.targets.data(), batch.scored.data(), batch.tokens.size(), {}, {}};
  if (!ws.compact) return out;
  for (const std::size_t r : ws.output_rows) out.compact_targets.push_back(batch.targets[r]);
  out.compact_scored.assign(ws.output_rows.size(), 1);
  out.targets = out.compact_targets.data(), out.scored = out.compact_scored.data(), out.rows = ws.output_rows.size();
  return out;
}

}  // namespace

template <typename Real>
const Real* output_matrix(const ModelConfig& c, const Real* params, const FrozenInputs<Real>& frozen,
                          std::vector<Real>& gathered) {
  const Parameters<const Real> p = bind_parameters(c, params);
  if (!c.tied_output) return p.unembedding;
  const std::size_t d = c.d_model, V = c.outputs();
  gathered.resize(d * V);  // U[j, o] = row(output_rows[o])[j]
  for (std::size_t o = 0; o < V; ++o) {
    const auto id = static_cast<std::size_t>(frozen.output_rows[o]);
    const Real* row = input_row(id, d, frozen.table.data(), c.frozen_rows, p.embedding);
    for (std::size_t j = 0; j < d; ++j) gathered[j * V + o] = row[j];
  }
  return gathered.data();
}

template <typename Real>
std::vector<Real> gather_input_rows(const ModelConfig& c, const Real* params, const FrozenInputs<Real>& frozen,
                                    const std::int32_t* ids, std::size_t n) {
  const std::size_t d = c.d_model;
  const Real* learned = bind_parameters(c, params).embedding;
  std::vector<Real> rows(n * d);
  for (std::size_t i = 0; i < n; ++i) {
    const Real* row = input_row(static_cast<std::size_t>(ids[i]), d, frozen.table.data(), c.frozen_rows, learned);
    std::copy(row, row + d, rows.begin() + static_cast<std::ptrdiff_t>(i * d));
  }
  return rows;
}

template <typename Real>
std::vector<Real> attention_weights(const ModelConfig& c, const Workspace<Real>& ws) {
  const std::size_t cells = ws.batch_size * c.n_heads * ws.seq_len * ws.seq_len;  // one layer's (B, H, T, T)
  std::vector<Real> weights;
  weights.reserve(ws.layers.size() * cells);
  for (const LayerActivations<Real>& layer : ws.layers)
    weights.insert(weights.end(), layer.weights, layer.weights + cells);
  return weights;
}

template <typename Real>
const Real* positional_rows(const ModelConfig& c, const Real* params, const Workspace<Real>& ws) {
  if (c.positional == Positional::sinusoidal) return ws.positional.data();
  return bind_parameters(c, params).positional;  // null for Positional::none
}

template <typename Real>
void output_head_forward(const ModelConfig& c, const Real* params, const Real* x, std::size_t n, Real* dense,
                         Real* gelu, Real* out, Real* mean, Real* rstd) {
  const Parameters<const Real> p = bind_parameters(c, params);
  const std::size_t d = c.d_model;
  matmul_forward(dense, x, p.head_w, p.head_b, n, d, d);
  gelu_forward(gelu, dense, n * d);
  layernorm_forward(out, mean, rstd, gelu, p.head_gamma, p.head_beta, n, d);
}

template <typename Real>
const Real* output_layer_forward(const ModelConfig& c, const Real* params, const Real* x, std::size_t n,
                                 const PackedWeights<Real>& u, Real* logits, const OutputHeadRows<Real>& head) {
  const Real* t = x;
  if (c.output_head) {
    output_head_forward(c, params, x, n, head.dense, head.gelu, head.out, head.mean, head.rstd);
    t = head.out;
  }
  if (n) matmul_forward(logits, t, u, bind_parameters(c, params).output_bias, n);
  return t;
}

namespace {

// The Workspace's buffers of the output head (activations.hpp), for output_layer_forward.
template <typename Real>
OutputHeadRows<Real> head_rows(Workspace<Real>& ws) {
  return {ws.head_dense, ws.head_gelu, ws.head_out, ws.head_mean, ws.head_rstd};
}

// U (d, V_out) packed into ws.packed_unembedding: gathered again on every pass, since a tied output's
// learned rows and an untied U both change with every step.
template <typename Real>
const PackedWeights<Real>& packed_output_matrix(const ModelConfig& c, const Real* params,
                                                const FrozenInputs<Real>& frozen, Workspace<Real>& ws) {
  pack_weights(ws.packed_unembedding, output_matrix(c, params, frozen, ws.unembedding), c.d_model, c.outputs());
  return ws.packed_unembedding;
}

}  // namespace

template <typename Real>
const Real* forward_blocks(const ModelConfig& c, const Real* params, const std::int32_t* tokens, std::size_t B,
                           std::size_t T, const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws,
                           const FrozenInputs<Real>& frozen) {
  if (B == 0) throw std::out_of_range("batch size must be at least 1");
  check_token_count(T, 1, c.seq_len, "a sequence", "seqLen");
  const std::size_t d = c.d_model, H = c.n_heads, L = c.n_layers, V = c.outputs(), N = B * T, ff = c.d_ff;
  check_cells(activation_count(c, B, T), "the activations of a batch (activations.hpp)");
  if (frozen.table.size() != c.frozen_rows * d) {
    throw std::out_of_range("the frozen input rows must be frozenRows × dModel = " + std::to_string(c.frozen_rows * d) +
                            " numbers, got " + std::to_string(frozen.table.size()));
  }
  if (c.tied_output && frozen.output_rows.size() != V) {
    throw std::out_of_range("a tied output needs the input row of each of its " + std::to_string(V) + " outputs, got " +
                            std::to_string(frozen.output_rows.size()));
  }
  for (std::size_t r = 0; r < N; ++r) {
    if (tokens[r] < 0 || static_cast<std::size_t>(tokens[r]) >= c.vocab_size) {
      throw std::out_of_range("tokens[" + std::to_string(r) + "] = " + std::to_string(tokens[r]) +
                              " is outside [0, vocabSize = " + std::to_string(c.vocab_size) + ")");
    }
  }
  const Parameters<const Real> p = bind_parameters(c, params);
  if (c.positional == Positional::sinusoidal && ws.positional.size() != c.seq_len * d) {
    const auto table = sinusoidal_encoding(c.seq_len, d);
    ws.positional.assign(table.begin(), table.end());
  }
  static_cast<Activations<Real>&>(ws) = bind_activations(c, B, T, ws.buffer);
  ws.batch_size = B;
  ws.seq_len = T;

  embedding_forward(ws.x0, tokens, N, T, d, frozen.table.data(), c.frozen_rows, p.embedding,
                    positional_rows(c, params, ws));
  const Real* x = ws.x0;
  for (std::size_t l = 0; l < L; ++l) {
    const LayerParameters<const Real>& w = p.layers[l];
    LayerActivations<Real>& a = ws.layers[l];
    matmul_forward(a.q, x, w.w_q, w.b_q, N, d, d);
    matmul_forward(a.k, x, w.w_k, w.b_k, N, d, d);
    matmul_forward(a.v, x, w.w_v, w.b_v, N, d, d);
    attention_forward(a.z, a.weights, a.q, a.k, a.v, B, T, d, H, c.causal, layer_flags(ablated, l, H), ws.head);
    std::copy(x, x + N * d, a.h1);  // h₁ = x + Z W_O + b_O
    matmul_forward(a.h1, a.z, w.w_o, w.b_o, N, d, d, true);
    if (c.layer_norm) layernorm_forward(a.norm1, a.norm1_mean, a.norm1_rstd, a.h1, w.norm1_gamma, w.norm1_beta, N, d);
    if (ff) {
      matmul_forward(a.hidden, a.a, w.w_1, w.b_1, N, d, ff);
      relu_forward(a.relu, a.hidden, N * ff);
      std::copy(a.a, a.a + N * d, a.h2);  // h₂ = a + ReLU(…) W_2 + b_2
      matmul_forward(a.h2, a.relu, w.w_2, w.b_2, N, ff, d, true);
      if (c.layer_norm) layernorm_forward(a.norm2, a.norm2_mean, a.norm2_rstd, a.h2, w.norm2_gamma, w.norm2_beta, N, d);
    }
    x = a.out;
  }
  return x;
}

template <typename Real>
void forward(const ModelConfig& c, const Real* params, const std::int32_t* tokens, std::size_t B, std::size_t T,
             const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws, const FrozenInputs<Real>& frozen) {
  const Real* x = forward_blocks(c, params, tokens, B, T, ablated, ws, frozen);
  output_layer_forward(c, params, x, B * T, packed_output_matrix(c, params, frozen, ws), ws.logits, head_rows(ws));
  ws.compact = false;
}

template <typename Real>
void forward_scored(const ModelConfig& c, const Real* params, const Batch& batch,
                    const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws, const FrozenInputs<Real>& frozen) {
  const std::size_t N = batch.tokens.size(), d = c.d_model;
  if (batch.scored.size() != N)
    throw std::invalid_argument("forward_scored: the batch needs one scored flag per token");
  if (batch.scored_count() == N)
    return forward(c, params, batch.tokens.data(), batch.batch_size, batch.seq_len, ablated, ws, frozen);
  const Real* x = forward_blocks(c, params, batch.tokens.data(), batch.batch_size, batch.seq_len, ablated, ws, frozen);
  ws.output_rows.clear();
  for (std::size_t r = 0; r < N; ++r) {
    if (batch.scored[r]) ws.output_rows.push_back(r);
  }
  const std::size_t M = ws.output_rows.size();
  ws.output_inputs.resize(M * d);
  for (std::size_t i = 0; i < M; ++i)
    std::copy(x + ws.output_rows[i] * d, x + (ws.output_rows[i] + 1) * d, ws.output_inputs.data() + i * d);
  output_layer_forward(c, params, ws.output_inputs.data(), M, packed_output_matrix(c, params, frozen, ws), ws.logits,
                       head_rows(ws));
  ws.compact = true;
}

template <typename Real>
double loss(const ModelConfig& c, const Workspace<Real>& ws, const Batch& batch) {
  check_batch_matches(batch, ws.batch_size, ws.seq_len, "loss");
  const std::size_t n = batch.scored_count();
  if (n == 0) return 0.0;
  const OutputTargets out = output_targets(ws, batch);
  return crossentropy_forward(ws.logits, out.targets, out.scored, out.rows, c.outputs()) / static_cast<double>(n);
}

template <typename Real>
double backward(const ModelConfig& c, const Real* params, const Batch& batch, const std::vector<std::uint8_t>& ablated,
                Workspace<Real>& ws, Real* grads, const FrozenInputs<Real>& frozen, std::size_t normalizer) {
  check_batch_matches(batch, ws.batch_size, ws.seq_len, "backward");
  const std::size_t B = ws.batch_size, T = ws.seq_len, N = B * T;
  const std::size_t d = c.d_model, H = c.n_heads, L = c.n_layers, V = c.outputs(), ff = c.d_ff;
  std::fill(grads, grads + parameter_count(c), Real{0});
  const std::size_t scored = normalizer ? normalizer : batch.scored_count();
  if (batch.scored_count() == 0) return 0.0;
  const Parameters<const Real> p = bind_parameters(c, params);
  const Parameters<Real> g = bind_parameters(c, grads);

  // Activation gradients (activations.hpp): the running ∂loss/∂x (cur) and the next one, and one buffer per step.
  const ActivationGradients<Real> ag = bind_gradients(c, B, T, ws.gradients);
  Real* cur = ag.x_out;
  Real* next = ag.x_in;
  const auto zero = [](Real* at, std::size_t n) { std::fill(at, at + n, Real{0}); };

  // logits = t U + b at ws.logits' M rows (every row, or forward_scored's), t = x_L or the output head's:
  // dlogits, then dt, dU (untied) or the tied learned rows' share, db; then through the head to dx_L
  const OutputTargets out = output_targets(ws, batch);
  const std::size_t M = out.rows;
  const double loss_sum =
      crossentropy_backward(ws.logits, out.targets, out.scored, M, V, Real{1} / static_cast<Real>(scored));
  const Real* x_last = ws.compact ? ws.output_inputs.data() : L ? ws.layers[L - 1].out : ws.x0;  // (M, d)
  const Real* t = c.output_head ? ws.head_out : x_last;
  const Real* u = c.tied_output ? ws.unembedding.data() : p.unembedding;
  Real* dx_last = ws.compact ? ag.output_x : cur;  // ∂loss/∂x_L at the M rows; cur directly when they are every row
  matmul_backward(c.output_head ? ag.head_out : dx_last, g.unembedding, g.output_bias, ws.logits, t, u, M, d, V,
                  ws.scratch);
  if (c.tied_output) {  // d row(output_rows[o]) += Σ_r t[r] dlogits[r, o] for the learned rows
    for (std::size_t o = 0; o < V; ++o) {
      const auto id = static_cast<std::size_t>(frozen.output_rows[o]);
      if (id < c.frozen_rows) continue;
      Real* row = g.embedding + (id - c.frozen_rows) * d;
      for (std::size_t r = 0; r < M; ++r) {
        for (std::size_t j = 0; j < d; ++j) row[j] += t[r * d + j] * ws.logits[r * V + o];
      }
    }
  }
  if (c.output_head) {  // t = LayerNorm(GELU(x_L W_T + b_T))
    layernorm_backward(ag.head_gelu, g.head_gamma, g.head_beta, ag.head_out, ws.head_gelu, ws.head_mean, ws.head_rstd,
                       p.head_gamma, M, d);
    gelu_backward(ag.head_dense, ag.head_gelu, ws.head_dense, M * d);
    matmul_backward(dx_last, g.head_w, g.head_b, ag.head_dense, x_last, p.head_w, M, d, d, ws.scratch);
  }
  for (std::size_t i = 0; ws.compact && i < M; ++i) {
    std::copy(dx_last + i * d, dx_last + (i + 1) * d, cur + ws.output_rows[i] * d);
  }

  for (std::size_t l = L; l-- > 0;) {
    const LayerParameters<const Real>& w = p.layers[l];
    const LayerParameters<Real>& gw = g.layers[l];
    const LayerActivations<Real>& a = ws.layers[l];
    const Real* x = l ? ws.layers[l - 1].out : ws.x0;
    // cur = ∂loss/∂x_{l+1}.  Feed-forward sublayer: x_{l+1} = LayerNorm₂(h₂), h₂ = a + ReLU(a W_1 + b_1) W_2 + b_2
    const Real* da = cur;
    if (ff) {
      const Real* dh2 = cur;
      if (c.layer_norm) {
        zero(ag.h2, N * d);
        layernorm_backward(ag.h2, gw.norm2_gamma, gw.norm2_beta, cur, a.h2, a.norm2_mean, a.norm2_rstd, w.norm2_gamma,
                           N, d);
        dh2 = ag.h2;
      }
      std::copy(dh2, dh2 + N * d, ag.a);
      zero(ag.relu, N * ff);
      matmul_backward(ag.relu, gw.w_2, gw.b_2, dh2, a.relu, w.w_2, N, ff, d, ws.scratch);
      zero(ag.hidden, N * ff);
      relu_backward(ag.hidden, ag.relu, a.hidden, N * ff);
      matmul_backward(ag.a, gw.w_1, gw.b_1, ag.hidden, a.a, w.w_1, N, d, ff, ws.scratch);
      da = ag.a;
    }
    // Attention sublayer: a = LayerNorm₁(h₁), h₁ = x + Z W_O + b_O
    const Real* dh1 = da;
    if (c.layer_norm) {
      zero(ag.h1, N * d);
      layernorm_backward(ag.h1, gw.norm1_gamma, gw.norm1_beta, da, a.h1, a.norm1_mean, a.norm1_rstd, w.norm1_gamma, N,
                         d);
      dh1 = ag.h1;
    }
    std::copy(dh1, dh1 + N * d, next);  // the residual passes ∂loss/∂h₁ to x unchanged
    zero(ag.z, N * d);
    matmul_backward(ag.z, gw.w_o, gw.b_o, dh1, a.z, w.w_o, N, d, d, ws.scratch);
    zero(ag.q, N * d), zero(ag.k, N * d), zero(ag.v, N * d);
    attention_backward(ag.q, ag.k, ag.v, ag.z, a.q, a.k, a.v, a.weights, B, T, d, H, layer_flags(ablated, l, H),
                       ws.scratch);
    matmul_backward(next, gw.w_q, gw.b_q, ag.q, x, w.w_q, N, d, d, ws.scratch);
    matmul_backward(next, gw.w_k, gw.b_k, ag.k, x, w.w_k, N, d, d, ws.scratch);
    matmul_backward(next, gw.w_v, gw.b_v, ag.v, x, w.w_v, N, d, d, ws.scratch);
    std::swap(cur, next);
  }
  // x₀ = row(tokens) + P
  embedding_backward(g.embedding, g.positional, cur, batch.tokens.data(), N, T, d, c.frozen_rows);
  return loss_sum;
}

#define ATTN_TRAIN_MODEL(Real)                                                                                        \
  template void output_head_forward<Real>(const ModelConfig&, const Real*, const Real*, std::size_t, Real*, Real*,    \
                                          Real*, Real*, Real*);                                                       \
  template const Real* output_matrix<Real>(const ModelConfig&, const Real*, const FrozenInputs<Real>&,                \
                                           std::vector<Real>&);                                                       \
  template const Real* output_layer_forward<Real>(const ModelConfig&, const Real*, const Real*, std::size_t,          \
                                                  const PackedWeights<Real>&, Real*, const OutputHeadRows<Real>&);    \
  template std::vector<Real> gather_input_rows<Real>(const ModelConfig&, const Real*, const FrozenInputs<Real>&,      \
                                                     const std::int32_t*, std::size_t);                               \
  template std::vector<Real> attention_weights<Real>(const ModelConfig&, const Workspace<Real>&);                     \
  template const Real* positional_rows<Real>(const ModelConfig&, const Real*, const Workspace<Real>&);                \
  template const Real* forward_blocks<Real>(const ModelConfig&, const Real*, const std::int32_t*, std::size_t,        \
                                            std::size_t, const std::vector<std::uint8_t>&, Workspace<Real>&,          \
                                            const FrozenInputs<Real>&);                                               \
  template void forward<Real>(const ModelConfig&, const Real*, const std::int32_t*, std::size_t, std::size_t,         \
                              const std::vector<std::uint8_t>&, Workspace<Real>&, const FrozenInputs<Real>&);         \
  template void forward_scored<Real>(const ModelConfig&, const Real*, const Batch&, const std::vector<std::uint8_t>&, \
                                     Workspace<Real>&, const FrozenInputs<Real>&);                                    \
  template double loss<Real>(const ModelConfig&, const Workspace<Real>&, const Batch&);                               \
  template double backward<Real>(const ModelConfig&, const Real*, const Batch&, const std::vector<std::uint8_t>&,     \
                                 Workspace<Real>&, Real*, const FrozenInputs<Real>&, std::size_t);
ATTN_TRAIN_MODEL(float)
ATTN_TRAIN_MODEL(double)
#undef ATTN_TRAIN_MODEL

}  // namespace attn::train
