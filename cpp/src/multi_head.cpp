#include "attn/multi_head.hpp"

#include <stdexcept>
#include <string>

#include <xtensor/xview.hpp>

#include "attn/matmul.hpp"
#include "attn/random.hpp"

namespace attn {

namespace {

void require_square(const xt::xtensor<float, 2>& w, std::size_t d_model, const char* name) {
  if (w.shape(0) != d_model || w.shape(1) != d_model) {
    throw std::invalid_argument(std::string("multi_head_attention: ") + name + " must be [d_model, d_model] = [" +
                                std::to_string(d_model) + ", " + std::to_string(d_model) + "], got [" +
                                std::to_string(w.shape(0)) + ", " + std::to_string(w.shape(1)) + "]");
  }
}

// Columns h·d_k … (h+1)·d_k − 1 of a [seq_len, d_model] matrix: head h's slice.
xt::xtensor<float, 2> head_columns(const xt::xtensor<float, 2>& x, std::size_t h, std::size_t d_k) {
  return xt::view(x, xt::all(), xt::range(h * d_k, (h + 1) * d_k));
}

}  // namespace

Projections identity_projections(std::size_t d_model) {
  if (d_model == 0) throw std::out_of_range("identity_projections: d_model must be at least 1");
  const xt::xtensor<float, 2> eye = xt::eye<float>(d_model);
  return {eye, eye, eye, eye};
}

Projections random_projections(std::size_t d_model, std::uint64_t seed) {
  if (d_model == 0) throw std::out_of_range("random_projections: d_model must be at least 1");
  return {glorot_uniform(d_model, d_model, seed * 4 + 0), glorot_uniform(d_model, d_model, seed * 4 + 1),
          glorot_uniform(d_model, d_model, seed * 4 + 2), glorot_uniform(d_model, d_model, seed * 4 + 3)};
}

MultiHeadResult multi_head_attention(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                     const Projections& projections, const AttentionOptions& options) {
  const std::size_t seq_len = input.shape(0), d_model = input.shape(1);
  if (n_heads == 0 || d_model == 0 || d_model % n_heads != 0) {
    throw std::out_of_range("multi_head_attention: n_heads must be a divisor of d_model = " +
                            std::to_string(d_model) + ", got " + std::to_string(n_heads));
  }
  require_square(projections.w_q, d_model, "W_Q");
  require_square(projections.w_k, d_model, "W_K");
  require_square(projections.w_v, d_model, "W_V");
  require_square(projections.w_o, d_model, "W_O");
  const std::size_t d_k = d_model / n_heads;

  const xt::xtensor<float, 2> q = matmul(input, projections.w_q);  // [seq_len, d_model]
  const xt::xtensor<float, 2> k = matmul(input, projections.w_k);  // [seq_len, d_model]
  const xt::xtensor<float, 2> v = matmul(input, projections.w_v);  // [seq_len, d_model]

  MultiHeadResult r;
  r.queries = xt::empty<float>({n_heads, seq_len, d_k});
  r.keys = xt::empty<float>({n_heads, seq_len, d_k});
  r.values = xt::empty<float>({n_heads, seq_len, d_k});
  r.scores = xt::empty<float>({n_heads, seq_len, seq_len});
  r.weights = xt::empty<float>({n_heads, seq_len, seq_len});
  r.head_outputs = xt::empty<float>({n_heads, seq_len, d_k});
  r.concat = xt::empty<float>({seq_len, d_model});
  for (std::size_t h = 0; h < n_heads; ++h) {
    const auto q_h = head_columns(q, h, d_k), k_h = head_columns(k, h, d_k), v_h = head_columns(v, h, d_k);
    const AttentionResult head = scaled_dot_product_attention(q_h, k_h, v_h, options);
    xt::view(r.queries, h) = q_h;
    xt::view(r.keys, h) = k_h;
    xt::view(r.values, h) = v_h;
    xt::view(r.scores, h) = head.scores;
    xt::view(r.weights, h) = head.weights;
    xt::view(r.head_outputs, h) = head.output;
    xt::view(r.concat, xt::all(), xt::range(h * d_k, (h + 1) * d_k)) = head.output;
  }
  r.output = matmul(r.concat, projections.w_o);
  return r;
}

}  // namespace attn
