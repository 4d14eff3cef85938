#pragma once
// One block of the trainable transformer (model.hpp) followed step by step for one of its heads, on one
// sequence: every value the "Inside one head" stepper draws, read from the activations the forward pass
// keeps (Workspace), so that they are the values the model computed, not a second implementation.
//
// Letters: T = seq_len of the last forward (batch size 1), d = d_model, H = n_heads, d_k = d / H,
// d_ff = the feed-forward width, l = the layer, h = the head (Vaswani et al. 2017 §3.1–3.3; post-LN):
//   X_l = x₀ = row(tokens) + P for l = 0, else the previous block's output x_l
//   Q_h = X_l W_Q[:, h] + b_Q[h]  (columns h·d_k … (h+1)·d_k − 1 of Q; K_h, V_h alike)
//   S_h = Q_h K_hᵀ / √d_k + M,  A_h = softmax(S_h),  head_h = A_h V_h
//   R₁ = X_l + Concat(head_1 … head_H) W_O + b_O,  N₁ = LayerNorm₁(R₁)
//   R₂ = N₁ + ReLU(N₁ W_1 + b_1) W_2 + b_2,  x_{l+1} = LayerNorm₂(R₂)
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/train/input_checks.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

// Row-major buffers; a step the configuration does not have is empty (no layer norm: norm1 and norm2;
// no feed-forward layer: ff_hidden … output alias nothing and are empty, the block's output is norm1 or R₁).
struct BlockActivations {
  std::size_t layer = 0, head = 0;
  std::vector<float> word_vectors;      // (T, d) row(token): the frozen vector, or a learned row (<unk>, [MASK])
  std::vector<float> positional;        // (T, d) P: sinusoidal or learned; zeros for Positional::none
  std::vector<float> input;             // (T, d) X_l, the block's input
  std::vector<float> queries;           // (T, d_k) Q_h, with b_Q
  std::vector<float> keys;              // (T, d_k) K_h, with b_K
  std::vector<float> values;            // (T, d_k) V_h, with b_V
  std::vector<float> scores;            // (T, T) Q_h K_hᵀ / √d_k; −∞ where the causal mask hides key j > i
  std::vector<float> weights;           // (T, T) A_h, each row sums to 1
  std::vector<float> head_output;       // (T, d_k) A_h V_h
  std::vector<float> concat;            // (T, d) Concat(head_1 … head_H)
  std::vector<float> attention_output;  // (T, d) Concat(…) W_O + b_O
  std::vector<float> residual1;         // (T, d) R₁ = X_l + Concat(…) W_O + b_O
  std::vector<float> norm1;  // (T, d) N₁ = LayerNorm₁(R₁) = γ₁ ⊙ (R₁ − μ) / √(σ² + ε) + β₁ (pre-LN, GPT-2: LN₁(X_l))
  std::vector<float> norm2;      // (T, d) pre-LN only (GPT-2, gpt2.hpp): LN₂(R₁), the feed-forward layer's input
  std::vector<float> ff_hidden;  // (T, d_ff) ReLU(N₁ W_1 + b_1)
  std::vector<float> ff_output;  // (T, d) ReLU(…) W_2 + b_2
  std::vector<float> residual2;  // (T, d) R₂ = N₁ + ReLU(…) W_2 + b_2
  std::vector<float> output;     // (T, d) x_{l+1}, the block's output (= LanguageRun::hidden[l])
};

// The activations of head choice.head (HeadChoice, input_checks.hpp) in block choice.layer of the last forward pass
// over one sequence `tokens` (T = ws.seq_len input ids) with these parameters and frozen inputs (model.hpp
// forward_blocks). Throws std::out_of_range naming the limit if choice.layer ≥ L or choice.head ≥ H, and
// std::invalid_argument if ws does not hold a forward pass of batch size 1.
BlockActivations block_activations(const ModelConfig& config, const float* parameters,
                                   const FrozenInputs<float>& frozen, const std::int32_t* tokens,
                                   const Workspace<float>& ws, HeadChoice choice);

}  // namespace attn::train
