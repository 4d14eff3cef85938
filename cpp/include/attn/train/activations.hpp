#pragma once
// The trainable transformer's activations (llm.c's ActivationTensors): named pointers into one flat buffer,
// and the backward pass's activation gradients, named pointers into a second one. Both are laid out by one
// table, visit_activations(), as parameters.hpp's visit_parameters() lays out the parameters: the sizes
// (activation_count, gradient_count), the named pointers (bind_activations) and the memory check of a
// forward pass all come from it.
//
// Letters as in model.hpp: B = batch size, T = seq_len, N = B·T rows, d = d_model, H = n_heads,
// d_ff = the feed-forward width, L = n_layers, V_out = the output size.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/train/parameters.hpp"

namespace attn::train {

// One layer's activations, kept for the backward pass; null where the configuration has no such step.
template <typename Real>
struct LayerActivations {
  Real *q = nullptr, *k = nullptr, *v = nullptr;                        // (N, d) each
  Real* weights = nullptr;                                              // (B, H, T, T) attention weights
  Real* z = nullptr;                                                    // (N, d) the heads' outputs, concatenated
  Real* h1 = nullptr;                                                   // (N, d) x + Z W_O + b_O
  Real *norm1 = nullptr, *norm1_mean = nullptr, *norm1_rstd = nullptr;  // (N, d), (N), (N)
  Real *hidden = nullptr, *relu = nullptr;                              // (N, d_ff) a W_1 + b_1, and its ReLU
  Real* h2 = nullptr;                                                   // (N, d) a + ReLU(…) W_2 + b_2
  Real *norm2 = nullptr, *norm2_mean = nullptr, *norm2_rstd = nullptr;
  Real* a = nullptr;    // the attention sublayer's output: norm1 or h1 (an alias, not in the buffer)
  Real* out = nullptr;  // the layer's output x_{l+1}: norm2, h2 or a (an alias, not in the buffer)
};

template <typename Real>
struct Activations {
  Real* x0 = nullptr;  // (N, d) row(tokens) + P
  std::vector<LayerActivations<Real>> layers;
  // With output_head, at the output rows (every row, or forward_scored's M first): x_L W_T + b_T, its GELU, and
  // t = LayerNorm(GELU(…)), the output layer's input, with the norm's mean and rstd. (N, d), (N, d), (N, d), (N), (N)
  Real *head_dense = nullptr, *head_gelu = nullptr, *head_out = nullptr, *head_mean = nullptr, *head_rstd = nullptr;
  Real* logits = nullptr;  // (N, V_out), turned into ∂loss/∂logits by the backward pass
};

// The backward pass's scratch: ∂loss/∂(activation) for one layer at a time (every layer reuses them), and
// the running gradient at the layers' boundary. Null where the configuration has no such step.
template <typename Real>
struct ActivationGradients {
  Real* x_out = nullptr;  // (N, d) ∂loss/∂x_{l+1}, the running gradient entering layer l from above
  Real* x_in = nullptr;   // (N, d) ∂loss/∂x_l, the gradient layer l passes down (then the two swap)
  Real *q = nullptr, *k = nullptr, *v = nullptr, *z = nullptr;  // (N, d) each
  Real* h1 = nullptr;                                           // (N, d) with layer_norm (without, ∂h₁ is ∂a)
  Real* a = nullptr;                                            // (N, d) with d_ff > 0 (without, ∂a is ∂x_{l+1})
  Real *hidden = nullptr, *relu = nullptr;                      // (N, d_ff) with d_ff > 0
  Real* h2 = nullptr;        // (N, d) with d_ff > 0 and layer_norm (without, ∂h₂ is ∂x_{l+1})
  Real* output_x = nullptr;  // (N, d) ∂loss/∂x_L at the output rows, before they are scattered to x_out
  Real *head_dense = nullptr, *head_gelu = nullptr, *head_out = nullptr;  // (N, d) each, with output_head
};

// The one table of the activations and their gradients of a forward pass over B sequences of T tokens:
// calls visit(count, activation, gradient) for every buffer, in the flat buffers' order. count: its number of
// values (64-bit, so that the memory check sees a size before it can wrap); activation: the Activations
// pointer to fill, or null for a gradient-only buffer; gradient: the ActivationGradients pointer to fill, or
// null where no gradient buffer is kept. The layer gradients are listed once, with layer 0, since every layer
// reuses them; layers after the first pass null for them. The aliases a and out are set here.
template <typename Real, typename Visit>
void visit_activations(const ModelConfig& c, std::size_t batch_size, std::size_t seq_len, Activations<Real>& acts,
                       ActivationGradients<Real>& grads, Visit&& visit) {
  using G = ActivationGradients<Real>;
  const std::uint64_t B = batch_size, T = seq_len, N = B * T, d = c.d_model, H = c.n_heads, ff = c.d_ff;
  visit(N * d, &acts.x0, &grads.x_in);
  visit(N * d, nullptr, &grads.x_out);
  acts.layers.assign(c.n_layers, {});
  for (std::size_t l = 0; l < c.n_layers; ++l) {
    LayerActivations<Real>& a = acts.layers[l];
    const auto gradient = [&](Real* G::*member, bool kept = true) {
      return l == 0 && kept ? &(grads.*member) : nullptr;
    };
    visit(N * d, &a.q, gradient(&G::q));
    visit(N * d, &a.k, gradient(&G::k));
    visit(N * d, &a.v, gradient(&G::v));
    visit(B * H * T * T, &a.weights, nullptr);  // attention_backward forms ∂A in its own scratch
    visit(N * d, &a.z, gradient(&G::z));
    visit(N * d, &a.h1, gradient(&G::h1, c.layer_norm));
    if (c.layer_norm) {
      visit(N * d, &a.norm1, nullptr);  // ∂norm1 is ∂a, below (or the running x_out)
      visit(N, &a.norm1_mean, nullptr);
      visit(N, &a.norm1_rstd, nullptr);
    }
    if (ff) {
      visit(N * d, nullptr, gradient(&G::a));  // a itself is an alias
      visit(N * ff, &a.hidden, gradient(&G::hidden));
      visit(N * ff, &a.relu, gradient(&G::relu));
      visit(N * d, &a.h2, gradient(&G::h2, c.layer_norm));
      if (c.layer_norm) {
        visit(N * d, &a.norm2, nullptr);  // ∂norm2 is the running x_out
        visit(N, &a.norm2_mean, nullptr);
        visit(N, &a.norm2_rstd, nullptr);
      }
    }
    a.a = c.layer_norm ? a.norm1 : a.h1;
    a.out = !ff ? a.a : c.layer_norm ? a.norm2 : a.h2;
  }
  visit(N * d, nullptr, &grads.output_x);
  if (c.output_head) {
    visit(N * d, &acts.head_dense, &grads.head_dense);
    visit(N * d, &acts.head_gelu, &grads.head_gelu);
    visit(N * d, &acts.head_out, &grads.head_out);
    visit(N, &acts.head_mean, nullptr);
    visit(N, &acts.head_rstd, nullptr);
  }
  visit(N * c.outputs(), &acts.logits, nullptr);  // ∂loss/∂logits overwrites the logits in place
}

// The number of activation values, and of gradient-scratch values, of a forward pass over (B, T).
std::uint64_t activation_count(const ModelConfig& config, std::size_t batch_size, std::size_t seq_len);
std::uint64_t gradient_count(const ModelConfig& config, std::size_t batch_size, std::size_t seq_len);

// Named pointers into `buffer`, resized to activation_count(config, batch_size, seq_len) values; and into the
// gradient scratch `buffer`, resized to gradient_count values and zeroed. Both throw std::logic_error if carving
// the buffer does not end exactly at its end (the table and the sizes disagree: a bug, never user input).
template <typename Real>
Activations<Real> bind_activations(const ModelConfig& config, std::size_t batch_size, std::size_t seq_len,
                                   std::vector<Real>& buffer);
template <typename Real>
ActivationGradients<Real> bind_gradients(const ModelConfig& config, std::size_t batch_size, std::size_t seq_len,
                                         std::vector<Real>& buffer);

}  // namespace attn::train
