#pragma once
// Multi-head self-attention as a layer with fixed weights, for speed: the weights are packed once
// (W_Q | W_K | W_V side by side), the workspace is reused across calls (no allocation per call once
// the largest sequence has been seen), and only the output (optionally the weights) is produced.
// Same mathematics as multi_head_attention() (Vaswani et al. 2017 §3.2.2), fused per head:
// scores, softmax and weights · V for one head at a time.
//
// Dimensions: seq_len tokens, d_model features, n_heads heads of d_k = d_model / n_heads.
#include <cstddef>
#include <vector>

#include "attn/core/attention.hpp"
#include "attn/core/attention_head.hpp"
#include "attn/core/multi_head.hpp"

namespace attn {

class MultiHeadLayer {
 public:
  // projections each [d_model, d_model]. Throws std::out_of_range if n_heads does not divide d_model;
  // std::invalid_argument if a projection is not square, not [d_model, d_model], or holds NaN/∞.
  MultiHeadLayer(std::size_t n_heads, const Projections& projections);
  // The same from row-major [d_model, d_model] arrays (copied; not owned), e.g. weights JS wrote into wasm
  // memory. Throws as above, except for shapes, which the pointers cannot carry.
  MultiHeadLayer(std::size_t n_heads, std::size_t d_model, const float* w_q, const float* w_k, const float* w_v,
                 const float* w_o);

  std::size_t d_model() const { return d_model_; }
  std::size_t n_heads() const { return n_heads_; }

  // output [seq_len, d_model] = MultiHead(input [seq_len, d_model]); if weights is not null it
  // receives the attention weights [n_heads, seq_len, seq_len]. Pointers are row-major float32.
  // Options as for scaled_dot_product_attention (mask_diagonal is not supported here).
  // Throws std::out_of_range for a bad temperature or valid_length, or a request above kMaxCells;
  // std::invalid_argument if the input holds NaN/∞ or the scores overflow to NaN.
  void forward(const float* input, std::size_t seq_len, float* output, const AttentionOptions& options,
               float* weights = nullptr);

 private:
  std::size_t n_heads_, d_model_, d_k_;
  std::vector<float> w_qkv_;   // W_Q | W_K | W_V [d_model, 3·d_model], as pack_panels() panels
  std::vector<float> w_o_;     // W_O [d_model, d_model], as pack_panels() panels
  std::vector<float> qkv_;     // [seq_len, 3·d_model]  workspace: Q | K | V
  HeadWorkspace head_;         // one head's packed keys and values, scores and weights (attention_head.hpp)
  std::vector<float> concat_;  // [seq_len, d_model]
};

}  // namespace attn
