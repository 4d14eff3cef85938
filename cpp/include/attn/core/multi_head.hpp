#pragma once
// Multi-head self-attention (Vaswani et al. 2017 §3.2.2; d2l.ai §11.5).
//
// Dimensions: seq_len tokens, d_model features, n_heads heads of d_k = d_model / n_heads each.
// Projections multiply on the right (Q = X W_Q); head h uses columns h·d_k … (h+1)·d_k − 1.
// A head's queries and keys have width d_qk: d_k for projected heads; designed heads
// (designed_heads.hpp) may use another width, since only Q Kᵀ must agree.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/core/attention.hpp"

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

// What one head attends with. Self-attention: n = m = seq_len; cross-attention (cross_attention.hpp):
// n target queries, m source keys and values.
struct HeadInputs {
  xt::xtensor<float, 2> queries;  // [n, d_qk]
  xt::xtensor<float, 2> keys;     // [m, d_qk]
  xt::xtensor<float, 2> values;   // [m, d_k]
};

struct HeadResult {
  HeadInputs inputs;              // queries, keys, values as attended
  AttentionResult attention;      // scores, weights [n, m]; output [n, d_k]
  xt::xtensor<float, 1> entropy;  // [n] bits per query row (row_entropy_bits)
};

// Shapes for n queries and m keys (self-attention: n = m = seq_len).
struct MultiHeadResult {
  std::vector<HeadResult> heads;  // n_heads
  xt::xtensor<float, 3> scores;   // [n_heads, n, m]    every head's scores, masked cells −∞
  xt::xtensor<float, 3> weights;  // [n_heads, n, m]    rows sum to 1 (or are 0)
  xt::xtensor<float, 2> concat;   // [n, d_model]       head outputs side by side
  xt::xtensor<float, 2> output;   // [n, d_model]       concat · W_O
};

// X W_Q, X W_K, X W_V split into n_heads column slices: head h gets columns h·d_k … (h+1)·d_k − 1.
//   input [seq_len, d_model]; projections each [d_model, d_model] → n_heads HeadInputs of width d_k.
// Throws std::out_of_range if n_heads is 0 or does not divide d_model; std::invalid_argument if a
// projection's shape is not [d_model, d_model].
std::vector<HeadInputs> project_heads(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                      const Projections& projections);

// Attends every head with its own options, concatenates the head outputs and multiplies by W_O.
//   heads: n_heads ≥ 1 inputs with the same n queries, m keys and value width d_k; options: one per
//   head; w_o [n_heads·d_k, d_model]. Throws what scaled_dot_product_attention throws,
//   std::invalid_argument if the heads or W_O disagree in shape, and std::out_of_range if
//   n_heads · n · m exceeds kMaxCells (limits.hpp), before allocating.
MultiHeadResult attend_heads(std::vector<HeadInputs> heads, const std::vector<AttentionOptions>& options,
                             const xt::xtensor<float, 2>& w_o);

// MultiHead(X) = Concat(head_1, …, head_h) W_O, head_i = Attention(X W_Q_i, X W_K_i, X W_V_i).
//   input [seq_len, d_model]; projections each [d_model, d_model]. Throws as project_heads and
//   scaled_dot_product_attention do.
MultiHeadResult multi_head_attention(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                     const Projections& projections, const AttentionOptions& options = {});

}  // namespace attn
