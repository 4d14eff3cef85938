#pragma once
// Multi-head self-attention (Vaswani et al. 2017 §3.2.2; d2l.ai §11.5).
//
// Dimensions: seq_len tokens, d_model features, n_heads heads of d_k = d_model / n_heads each.
// Projections multiply on the right (Q = X W_Q); head h uses columns h·d_k … (h+1)·d_k − 1.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

#include "attn/attention.hpp"

namespace attn {

// The four projection matrices, each [d_model, d_model].
struct Projections {
  xt::xtensor<float, 2> w_q, w_k, w_v, w_o;
};

// W_Q = W_K = W_V = W_O = I: queries and keys are the input vectors themselves, so scores are raw
// embedding similarities. Throws std::out_of_range if d_model is 0.
Projections identity_projections(std::size_t d_model);

// Glorot-uniform random projections from the project's SplitMix64 (random.hpp). W_Q, W_K, W_V and
// W_O use the seeds seed·4 + 0, 1, 2, 3, so each seed gives the same four matrices everywhere.
// Throws std::out_of_range if d_model is 0.
Projections random_projections(std::size_t d_model, std::uint64_t seed);

struct MultiHeadResult {
  xt::xtensor<float, 3> queries;       // [n_heads, seq_len, d_k]
  xt::xtensor<float, 3> keys;          // [n_heads, seq_len, d_k]
  xt::xtensor<float, 3> values;        // [n_heads, seq_len, d_k]
  xt::xtensor<float, 3> scores;        // [n_heads, seq_len, seq_len]  masked cells −∞
  xt::xtensor<float, 3> weights;       // [n_heads, seq_len, seq_len]  rows sum to 1 (or are 0)
  xt::xtensor<float, 3> head_outputs;  // [n_heads, seq_len, d_k]      weights · V per head
  xt::xtensor<float, 2> concat;        // [seq_len, d_model]           heads side by side
  xt::xtensor<float, 2> output;        // [seq_len, d_model]           concat · W_O
};

// MultiHead(X) = Concat(head_1, …, head_h) W_O, head_i = Attention(X W_Q_i, X W_K_i, X W_V_i).
//   input [seq_len, d_model]; projections each [d_model, d_model].
// Throws std::out_of_range if n_heads is 0 or does not divide d_model (or the options are out of
// range, see scaled_dot_product_attention); std::invalid_argument if a projection's shape is not
// [d_model, d_model] or an input holds NaN/∞.
MultiHeadResult multi_head_attention(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                     const Projections& projections, const AttentionOptions& options = {});

}  // namespace attn
