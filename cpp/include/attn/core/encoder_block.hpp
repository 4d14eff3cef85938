#pragma once
// The rest of a Transformer encoder block after self-attention (Vaswani et al. 2017 §3.1, §3.3;
// d2l.ai §11.7): residual add, LayerNorm, position-wise feed-forward network, residual add, LayerNorm.
//
// Dimensions: seq_len tokens, d_model features, d_ff hidden units (4 · d_model in the paper).
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

namespace attn {

// FFN(x) = max(0, x W_1 + b_1) W_2 + b_2 (eq. 2).
struct FeedForward {
  xt::xtensor<float, 2> w1;  // [d_model, d_ff]
  xt::xtensor<float, 1> b1;  // [d_ff]
  xt::xtensor<float, 2> w2;  // [d_ff, d_model]
  xt::xtensor<float, 1> b2;  // [d_model]
};

// Glorot-uniform W_1, W_2 (random.hpp) and zero biases. The seeds are the first two outputs of
// SplitMix64(seed ^ kFeedForwardStream), apart from the attention projections' 4·seed + 0…3.
// Throws std::out_of_range if d_model or d_ff is 0.
FeedForward random_feed_forward(std::size_t d_model, std::size_t d_ff, std::uint64_t seed);
constexpr std::uint64_t kFeedForwardStream = 0xFEEDF0A4D0000000ULL;

struct EncoderBlockResult {
  xt::xtensor<float, 2> residual1;   // [seq_len, d_model]  input + attention output
  xt::xtensor<float, 2> norm1;       // [seq_len, d_model]  LayerNorm(residual1)
  xt::xtensor<float, 2> hidden;      // [seq_len, d_ff]     ReLU(norm1 W_1 + b_1)
  xt::xtensor<float, 2> ffn_output;  // [seq_len, d_model]  hidden W_2 + b_2
  xt::xtensor<float, 2> residual2;   // [seq_len, d_model]  norm1 + ffn_output
  xt::xtensor<float, 2> output;      // [seq_len, d_model]  LayerNorm(residual2): the block's output
};

// input, attention_output [seq_len, d_model]; ffn with matching d_model; LayerNorm with ε, γ = 1, β = 0.
// Throws std::invalid_argument on shape mismatches; what layer_norm throws.
EncoderBlockResult encoder_block_after_attention(const xt::xtensor<float, 2>& input,
                                                 const xt::xtensor<float, 2>& attention_output, const FeedForward& ffn,
                                                 float epsilon = 1e-5f);

}  // namespace attn
