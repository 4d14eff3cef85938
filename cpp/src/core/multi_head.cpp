#include "attn/core/multi_head.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"
#include "attn/core/matmul.hpp"
#include "attn/core/random.hpp"

namespace attn {

namespace {

void require_square(const xt::xtensor<float, 2>& w, std::size_t d_model, const char* name) {
  if (w.shape(0) != d_model || w.shape(1) != d_model) {
    throw std::invalid_argument(std::string("multi_head_attention: ") + name + " must be [d_model, d_model] = [" +
                                std::to_string(d_model) + ", " + std::to_string(d_model) + "], got [" +
                                std::to_string(w.shape(0)) + ", " + std::to_string(w.shape(1)) + "]");
  }
}

// Columns h·d_k … (h+1)·d_k − 1 of a [seq_len, d_model] matrix: head h's slice. Plain loops: xtensor
// views of empty tensors offset a null pointer (found by fuzzing with UBSan).
xt::xtensor<float, 2> head_columns(const xt::xtensor<float, 2>& x, std::size_t h, std::size_t d_k) {
  xt::xtensor<float, 2> slice = xt::empty<float>({x.shape(0), d_k});
  for (std::size_t i = 0; i < x.shape(0); ++i) {
    for (std::size_t c = 0; c < d_k; ++c) slice(i, c) = x(i, h * d_k + c);
  }
  return slice;
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

std::vector<HeadInputs> project_heads(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                      const Projections& projections) {
  const std::size_t d_model = input.shape(1);
  if (n_heads == 0 || d_model == 0 || d_model % n_heads != 0) {
    throw std::out_of_range("multi_head_attention: n_heads must be a divisor of d_model = " + std::to_string(d_model) +
                            ", got " + std::to_string(n_heads));
  }
  require_square(projections.w_q, d_model, "W_Q");
  require_square(projections.w_k, d_model, "W_K");
  require_square(projections.w_v, d_model, "W_V");
  require_square(projections.w_o, d_model, "W_O");
  const std::size_t d_k = d_model / n_heads;
  const xt::xtensor<float, 2> q = matmul(input, projections.w_q);  // [seq_len, d_model]
  const xt::xtensor<float, 2> k = matmul(input, projections.w_k);  // [seq_len, d_model]
  const xt::xtensor<float, 2> v = matmul(input, projections.w_v);  // [seq_len, d_model]
  std::vector<HeadInputs> heads;
  for (std::size_t h = 0; h < n_heads; ++h) {
    heads.push_back({head_columns(q, h, d_k), head_columns(k, h, d_k), head_columns(v, h, d_k)});
  }
  return heads;
}

MultiHeadResult attend_heads(std::vector<HeadInputs> heads, const std::vector<AttentionOptions>& options,
                             const xt::xtensor<float, 2>& w_o) {
  if (heads.empty() || options.size() != heads.size()) {
    throw std::invalid_argument("attend_heads: need at least one head and one options entry per head");
  }
  const std::size_t n_heads = heads.size(), n = heads[0].queries.shape(0), m = heads[0].values.shape(0),
                    d_k = heads[0].values.shape(1);
  check_cells(std::uint64_t{n_heads} * n * m, "multi-head attention: the weights of " + std::to_string(n_heads) +
                                                  " heads × " + std::to_string(n) + " × " + std::to_string(m) +
                                                  " tokens");
  if (w_o.shape(0) != n_heads * d_k) {
    throw std::invalid_argument("attend_heads: W_O must have n_heads · d_k = " + std::to_string(n_heads * d_k) +
                                " rows");
  }
  MultiHeadResult r;
  r.scores = xt::empty<float>({n_heads, n, m});
  r.weights = xt::empty<float>({n_heads, n, m});
  r.concat = xt::empty<float>({n, n_heads * d_k});
  for (std::size_t h = 0; h < n_heads; ++h) {
    HeadInputs& in = heads[h];
    if (in.queries.shape(0) != n || in.values.shape(0) != m || in.values.shape(1) != d_k) {
      throw std::invalid_argument("attend_heads: every head needs the same n queries, m keys and values of width d_k");
    }
    AttentionResult attention = scaled_dot_product_attention(in.queries, in.keys, in.values, options[h]);
    std::copy_n(attention.scores.data(), n * m, r.scores.data() + h * n * m);
    std::copy_n(attention.weights.data(), n * m, r.weights.data() + h * n * m);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < d_k; ++c) r.concat(i, h * d_k + c) = attention.output(i, c);
    }
    xt::xtensor<float, 1> entropy = row_entropy_bits(attention.weights);
    r.heads.push_back({std::move(in), std::move(attention), std::move(entropy)});
  }
  r.output = matmul(r.concat, w_o);
  return r;
}

MultiHeadResult multi_head_attention(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                     const Projections& projections, const AttentionOptions& options) {
  std::vector<HeadInputs> heads = project_heads(input, n_heads, projections);
  return attend_heads(std::move(heads), std::vector<AttentionOptions>(n_heads, options), projections.w_o);
}

}  // namespace attn
