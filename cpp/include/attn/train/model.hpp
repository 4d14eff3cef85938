#pragma once
// An attention-only transformer (Elhage et al. 2021, "A Mathematical Framework for Transformer
// Circuits", §2): its forward pass, its loss, and its backward pass written out by hand.
//
// Letters: B = batch size, T = seq_len, V = vocab_size, d = d_model, H = n_heads, d_k = d / H,
// L = n_layers; rows r = b·T + t index the B·T positions of a batch.
//
//   x₀ = E[tokens] + P                                  (B·T, d)  P: sinusoidal (fixed), learned, or none
//   for l < L:  Q = x_l W_Q,  K = x_l W_K,  V = x_l W_V  (B·T, d)  head h: columns h·d_k … (h+1)·d_k − 1
//               A_h = softmax(Q_h K_hᵀ / √d_k, causal)   (B, H, T, T)
//               Z = [A_1 V_1 | … | A_H V_H]              (B·T, d)  (an ablated head's block is 0)
//               x_{l+1} = x_l + Z W_O                    (B·T, d)
//   logits = x_L U                                      (B·T, V)
//   loss = mean over scored positions of −log softmax(logits)[target]
//
// No biases, no layer norm, no MLP. U is not tied to E. Parameters live in one flat array, in the order
// of ParameterLayout, so the optimizer and the gradient checks see one vector.
//
// Backward (the chain rule, pass by pass; shapes as in the forward):
//   dlogits = (softmax(logits) − onehot(target)) / N on scored rows, 0 elsewhere
//   dU = x_Lᵀ dlogits;  dx_L = dlogits Uᵀ
//   per layer, last first:  dW_O = Zᵀ dx;  dZ = dx W_Oᵀ;  per head: dA = dZ_h V_hᵀ,  dV_h = A_hᵀ dZ_h,
//     dS = A ⊙ (dA − rowsum(A ⊙ dA)) / √d_k (softmax's Jacobian; masked cells have A = 0),
//     dQ_h = dS K_h,  dK_h = dSᵀ Q_h;  dW_Q = x_lᵀ dQ (and K, V);  dx += dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ
//   dE[token] += dx₀ row;  dP (learned) += dx₀ row.
//
// The float instance runs on the core's kernels (kernels.hpp gemm, attention_head.hpp attend_head); the
// double instance runs the same passes with plain loops, for the finite-difference checks.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/core/attention_head.hpp"
#include "attn/train/tasks.hpp"

namespace attn::train {

enum class Positional { Sinusoidal, Learned, None };

// Names of the positional options, in the enum's order ("sinusoidal", "learned", "none").
inline constexpr std::array<const char*, 3> kPositionalNames = {"sinusoidal", "learned", "none"};

// The option named `name`; throws std::invalid_argument naming the allowed names otherwise.
Positional positional_from_name(const std::string& name);
const char* positional_name(Positional positional);

struct ModelConfig {
  std::size_t vocab_size = 0;  // V
  std::size_t d_model = 0;     // d
  std::size_t n_heads = 0;     // H, divides d
  std::size_t n_layers = 0;    // L
  std::size_t seq_len = 0;     // T: the longest sequence (learned P has T rows)
  Positional positional = Positional::Sinusoidal;
};

// Offsets of each parameter matrix in the flat parameter array.
struct ParameterLayout {
  std::size_t embedding = 0;    // E (V, d)
  std::size_t positional = 0;   // P (T, d), learned only (size 0 otherwise)
  std::size_t layers = 0;       // layer l's W_Q, W_K, W_V, W_O (d, d) each, at layers + (4l + m)·d²
  std::size_t unembedding = 0;  // U (d, V)
  std::size_t size = 0;         // the number of parameters

  explicit ParameterLayout(const ModelConfig& config);
  // W_Q, W_K, W_V, W_O of layer l are matrices m = 0, 1, 2, 3.
  std::size_t weight(const ModelConfig& config, std::size_t layer, std::size_t m) const;
};

// Throws std::out_of_range naming the field if a size is 0, n_heads does not divide d_model, or the
// parameters would exceed the core's memory limit (limits.hpp).
void check_config(const ModelConfig& config);

// Parameters drawn from `seed`: every entry uniform in [−√3·σ, √3·σ) (standard deviation σ): E and a
// learned P with σ = 1 (comparable to the sinusoidal P, whose rows have norm √(d/2)); W_Q, W_K, W_V, W_O
// and U with σ = 1/√d, so that x W keeps the scale of x (LeCun initialization). GPT-2's σ = 0.02 is too
// small for heads to form quickly in models this small. The uniform draw avoids transcendental
// functions, so the same seed gives the same parameters on every platform.
std::vector<float> init_parameters(const ModelConfig& config, std::uint64_t seed);

// The activations of one forward pass, kept for the backward pass, and its scratch space.
template <typename Real>
struct Workspace {
  std::vector<Real> positional;  // (T, d) sinusoidal P, computed once
  std::vector<Real> x;           // (L + 1, B·T, d) the residual stream before each layer and after the last
  std::vector<Real> qkv;         // (L, 3, B·T, d) queries, keys, values
  std::vector<Real> z;           // (L, B·T, d) concatenated head outputs
  std::vector<Real> weights;     // (L, B, H, T, T) attention weights
  std::vector<Real> logits;      // (B·T, V), turned into dlogits by the backward pass
  std::vector<Real> scratch;     // transposes and per-head gradients
  HeadWorkspace head;            // attend_head's packed panels (float instance)
  std::size_t batch_size = 0;
  std::size_t seq_len = 0;       // T of the last forward (≤ config.seq_len)
};

// Forward pass over `tokens` (B, T) with T ≤ config.seq_len; fills ws. ablated: (L·H) flags, 1 = that
// head's output is replaced by 0 (or empty: none). Throws std::out_of_range for a token outside
// [0, V), a T above config.seq_len, or a batch beyond the memory limit.
template <typename Real>
void forward(const ModelConfig& config, const Real* parameters, const std::int32_t* tokens, std::size_t batch_size,
             std::size_t seq_len, const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws);

// Mean cross-entropy (nats) over the scored positions of the last forward; 0 if none is scored.
template <typename Real>
double loss(const ModelConfig& config, const Workspace<Real>& ws, const Batch& batch);

// Gradients of loss() with respect to every parameter, written to grads (ParameterLayout order,
// overwritten). Uses the activations of the last forward (which must have been over batch.tokens) and
// overwrites ws.logits.
template <typename Real>
void backward(const ModelConfig& config, const Real* parameters, const Batch& batch,
              const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws, Real* grads);

}  // namespace attn::train
