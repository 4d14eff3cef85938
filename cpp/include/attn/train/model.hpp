#pragma once
// The trainable transformer: its forward pass, its loss and its backward pass, composed of the
// operations of ops.hpp (the backward functions called in exactly the reverse order of the forward
// ones). The configurations and parameter tensors are in parameters.hpp.
//
// Letters: B = batch size, T = seq_len, N = B·T rows (r = b·T + t), d = d_model, H = n_heads,
// d_k = d / H, d_ff, L = n_layers, V_out = the output size.
//
//   x₀ = row(tokens) + P                                  (N, d)  P: sinusoidal (fixed), learned, or none
//   per layer l < L (Vaswani et al. 2017, §3.1; post-LN):
//     Q = x W_Q + b_Q, K = x W_K + b_K, V = x W_V + b_V      (N, d)  head h: columns h·d_k … (h+1)·d_k − 1
//     Z = [A_1 V_1 | … | A_H V_H],  A_h = softmax(Q_h K_hᵀ/√d_k + mask)   (N, d), A: (B, H, T, T)
//     h₁ = x + Z W_O + b_O;  a = LayerNorm₁(h₁)  (a = h₁ without layer norm)            (N, d)
//     with a feed-forward layer: h₂ = a + ReLU(a W_1 + b_1) W_2 + b_2;  x_{l+1} = LayerNorm₂(h₂)
//     (x_{l+1} = h₂ without layer norm);  without one: x_{l+1} = a
//   with the output head (Devlin et al. 2019): t = LayerNorm(GELU(x_L W_T + b_T)), else t = x_L     (N, d)
//   logits = t U + b                                      (N, V_out)  U tied: the output words' input rows
//   loss = mean over scored positions of −log softmax(logits)[target]
// Without biases every b is absent (0); the attention-only Learn models are L layers of x + Z W_O.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/core/attention_head.hpp"
#include "attn/train/activations.hpp"
#include "attn/train/ops.hpp"
#include "attn/train/parameters.hpp"
#include "attn/train/tasks.hpp"

namespace attn::train {

// The inputs that are not parameters: the frozen input rows (F, d) (ids < F), and for a tied output the
// input id of each output (V_out). Empty for the Learn models.
template <typename Real>
struct FrozenInputs {
  std::vector<Real> table;                // (F, d)
  std::vector<std::int32_t> output_rows;  // (V_out), tied_output only
};

// The activations of one forward pass (activations.hpp: named pointers into `buffer`, laid out by one table),
// and the scratch space of the backward pass.
template <typename Real>
struct Workspace : Activations<Real> {
  std::vector<Real> positional;            // (T, d) sinusoidal P, computed once
  std::vector<Real> buffer;                // every activation (activation_count values)
  std::vector<Real> unembedding;           // (d, V_out) U gathered from the input rows, tied output only
  PackedWeights<Real> packed_unembedding;  // U (d, V_out) packed for the output layer's product
  std::vector<Real> gradients;             // the backward pass's activation gradients (gradient_count values)
  std::vector<Real> scratch;               // transposes
  HeadWorkspace head;                      // attend_head's packed panels (float instance)
  // forward_scored's output rows: the rows whose logits it computed (ws.logits' first M rows, in this
  // order) and x_L at them (M, d); compact = false after forward(), whose logits are every row's.
  bool compact = false;
  std::vector<std::size_t> output_rows;
  std::vector<Real> output_inputs;
  std::size_t batch_size = 0;
  std::size_t seq_len = 0;  // T of the last forward (≤ config.seq_len)
};

// Forward pass over `tokens` (B, T) with T ≤ config.seq_len; fills ws. ablated: (L·H) flags, 1 = that
// head's output is replaced by 0 (or empty: none). Throws std::out_of_range for a token outside [0, V),
// a T above config.seq_len, a batch beyond the memory limit, or frozen inputs of the wrong size;
// std::domain_error if the parameters are not finite.
template <typename Real>
void forward(const ModelConfig& config, const Real* parameters, const std::int32_t* tokens, std::size_t batch_size,
             std::size_t seq_len, const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws,
             const FrozenInputs<Real>& frozen = {});

// As forward(), with the output layer only at the batch's scored rows: their logits fill ws.logits' first
// M rows (M = batch.scored_count()) in row order, and loss() and backward() read them there. A masked
// model's batch scores 15–40 % of its positions, and the output layer (d × V_out multiply-adds a row) is
// most of a step's work, so this is the training step's forward pass. When every row is scored it is
// forward() itself. Throws as forward().
template <typename Real>
void forward_scored(const ModelConfig& config, const Real* parameters, const Batch& batch,
                    const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws,
                    const FrozenInputs<Real>& frozen = {});

// The forward pass without the output layer: fills ws up to the last block and returns its output x_L
// (N, d) (x₀ when n_layers = 0); ws.logits is left unwritten. Throws as forward().
template <typename Real>
const Real* forward_blocks(const ModelConfig& config, const Real* parameters, const std::int32_t* tokens,
                           std::size_t batch_size, std::size_t seq_len, const std::vector<std::uint8_t>& ablated,
                           Workspace<Real>& ws, const FrozenInputs<Real>& frozen = {});

// The output matrix U (d, V_out) of logits = x_L U + b: the `unembedding` parameter, or for a tied output
// the input rows of the outputs (frozen.output_rows) gathered into `gathered`, which the pointer then
// points into.
template <typename Real>
const Real* output_matrix(const ModelConfig& config, const Real* parameters, const FrozenInputs<Real>& frozen,
                          std::vector<Real>& gathered);

// BERT's output head (parameters.hpp output_head) on n rows x (n, d): out (n, d) = LayerNorm(GELU(x W_T + b_T)),
// keeping x W_T + b_T in dense (n, d), its GELU in gelu (n, d) and the norm's mean and rstd (n) for a backward pass.
template <typename Real>
void output_head_forward(const ModelConfig& config, const Real* parameters, const Real* x, std::size_t n, Real* dense,
                         Real* gelu, Real* out, Real* mean, Real* rstd);

// Where output_head_forward keeps its steps for n rows: dense, gelu, out (n, d) and mean, rstd (n) (the
// Workspace's head_* buffers, or a caller's own). Unused without the output head.
template <typename Real>
struct OutputHeadRows {
  Real *dense = nullptr, *gelu = nullptr, *out = nullptr, *mean = nullptr, *rstd = nullptr;
};

// The output layer on n rows x (n, d) of x_L (the trainer's forward passes and LanguageModel alike):
// t = x, or with the output head t = LayerNorm(GELU(x W_T + b_T)) (output_head_forward, into head);
// logits (n, V_out) = t U + b, with u = U (d, V_out) packed by pack_weights (ops.hpp) from output_matrix().
// Returns t (n, d): x itself, or head.out.
template <typename Real>
const Real* output_layer_forward(const ModelConfig& config, const Real* parameters, const Real* x, std::size_t n,
                                 const PackedWeights<Real>& u, Real* logits, const OutputHeadRows<Real>& head);

// The input rows of n input ids (ops.hpp input_row: the frozen table's rows, then the learned ones), gathered
// into (n, d): the first term of x₀ = row(tokens) + P. Ids are not checked (forward() checks them).
template <typename Real>
std::vector<Real> gather_input_rows(const ModelConfig& config, const Real* parameters, const FrozenInputs<Real>& frozen,
                                    const std::int32_t* ids, std::size_t n);

// Every layer's attention weights (L, B, H, T, T) from the last forward pass (B, T as it ran; ws.layers'
// weights side by side): for one sequence, the (L, H, T, T) that a Trainer and a LanguageModel report.
template <typename Real>
std::vector<Real> attention_weights(const ModelConfig& config, const Workspace<Real>& ws);

// P (config.seq_len, d) as the forward pass adds it to the input rows: the sinusoidal table the last forward
// pass computed in ws.positional, the learned `positional` parameter, or null for Positional::none.
template <typename Real>
const Real* positional_rows(const ModelConfig& config, const Real* parameters, const Workspace<Real>& ws);

// Mean cross-entropy (nats) over the scored positions of the last forward; 0 if none is scored.
template <typename Real>
double loss(const ModelConfig& config, const Workspace<Real>& ws, const Batch& batch);

// Gradients of the loss with respect to every parameter (parameter_specs order), written to grads
// (overwritten). Uses the activations of the last forward (which must have been over batch.tokens) and
// overwrites ws.logits. normalizer: the number of scored positions the loss is the mean over (0: this
// batch's own count), so that the gradients of shards of one batch add up to the batch's gradient.
// Returns the summed cross-entropy (nats) of the scored positions, from the same softmax.
template <typename Real>
double backward(const ModelConfig& config, const Real* parameters, const Batch& batch,
                const std::vector<std::uint8_t>& ablated, Workspace<Real>& ws, Real* grads,
                const FrozenInputs<Real>& frozen = {}, std::size_t normalizer = 0);

}  // namespace attn::train
