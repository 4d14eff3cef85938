#include "attn/core/encoder_block.hpp"

#include <algorithm>
#include <stdexcept>

#include "attn/core/layer_norm.hpp"
#include "attn/core/matmul.hpp"
#include "attn/core/random.hpp"

namespace attn {

FeedForward random_feed_forward(std::size_t d_model, std::size_t d_ff, std::uint64_t seed) {
  if (d_model == 0 || d_ff == 0) throw std::out_of_range("random_feed_forward: d_model and d_ff must be at least 1");
  SplitMix64 seeds(seed ^ kFeedForwardStream);
  const std::uint64_t seed1 = seeds.next(), seed2 = seeds.next();
  return {glorot_uniform(d_model, d_ff, seed1), xt::zeros<float>({d_ff}), glorot_uniform(d_ff, d_model, seed2),
          xt::zeros<float>({d_model})};
}

EncoderBlockResult encoder_block_after_attention(const xt::xtensor<float, 2>& input,
                                                 const xt::xtensor<float, 2>& attention_output, const FeedForward& ffn,
                                                 float epsilon) {
  if (input.shape() != attention_output.shape() || ffn.w1.shape(0) != input.shape(1) ||
      ffn.w2.shape(1) != input.shape(1) || ffn.w1.shape(1) != ffn.w2.shape(0) || ffn.b1.size() != ffn.w1.shape(1) ||
      ffn.b2.size() != ffn.w2.shape(1)) {
    throw std::invalid_argument("encoder_block: input, attention output and feed-forward weights disagree in shape");
  }
  EncoderBlockResult r;
  r.residual1 = input + attention_output;
  r.norm1 = layer_norm(r.residual1, epsilon);
  r.hidden = matmul(r.norm1, ffn.w1);
  for (std::size_t i = 0; i < r.hidden.shape(0); ++i) {
    for (std::size_t j = 0; j < r.hidden.shape(1); ++j) r.hidden(i, j) = std::max(0.0f, r.hidden(i, j) + ffn.b1(j));
  }
  r.ffn_output = matmul(r.hidden, ffn.w2);
  for (std::size_t i = 0; i < r.ffn_output.shape(0); ++i) {
    for (std::size_t j = 0; j < r.ffn_output.shape(1); ++j) r.ffn_output(i, j) += ffn.b2(j);
  }
  r.residual2 = r.norm1 + r.ffn_output;
  r.output = layer_norm(r.residual2, epsilon);
  return r;
}

}  // namespace attn
