#include "attn/core/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"
#include "attn/core/matmul.hpp"

namespace attn {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

void require_finite(const xt::xtensor<float, 2>& t, const char* name) {
  for (float x : t) {
    if (!std::isfinite(x)) {
      throw std::invalid_argument(std::string("attention: ") + name + " must hold finite numbers (found NaN or ∞)");
    }
  }
}

}  // namespace

// The one masked softmax over attention scores: normalize()'s softmax rows (normalizers.cpp), which hold
// the masking, the max subtraction and the fully masked and +∞ rows for every normalizer alike.
xt::xtensor<float, 2> masked_softmax(const xt::xtensor<float, 2>& scores) {
  return normalize(scores, Normalizer::softmax, 1.0f);
}

xt::xtensor<float, 1> row_entropy_bits(const xt::xtensor<float, 2>& weights) {
  xt::xtensor<float, 1> entropy = xt::zeros<float>({weights.shape(0)});
  for (std::size_t i = 0; i < weights.shape(0); ++i) {
    double h = 0.0;
    for (std::size_t j = 0; j < weights.shape(1); ++j) {
      const double w = weights(i, j);
      if (w > 0.0) h -= w * std::log2(w);
    }
    entropy(i) = static_cast<float>(h);
  }
  return entropy;
}

AttentionResult scaled_dot_product_attention(const xt::xtensor<float, 2>& queries, const xt::xtensor<float, 2>& keys,
                                             const xt::xtensor<float, 2>& values, const AttentionOptions& options) {
  const std::size_t n = queries.shape(0), d_k = queries.shape(1), m = keys.shape(0);
  if (!options.additive && keys.shape(1) != d_k) {
    throw std::invalid_argument("attention: keys must have d_k = " + std::to_string(d_k) +
                                " columns like queries, got " + std::to_string(keys.shape(1)));
  }
  if (values.shape(0) != m) {
    throw std::invalid_argument("attention: values must have one row per key (" + std::to_string(m) + "), got " +
                                std::to_string(values.shape(0)));
  }
  if (!std::isfinite(options.temperature) || options.temperature <= 0.0f) {
    throw std::out_of_range("attention: temperature must be a finite number > 0");
  }
  if (options.valid_length && *options.valid_length > m) {
    throw std::out_of_range("attention: valid_length must be 0 … " + std::to_string(m) + " (the number of keys), got " +
                            std::to_string(*options.valid_length));
  }
  require_finite(queries, "queries");
  require_finite(keys, "keys");
  require_finite(values, "values");
  check_cells(std::uint64_t{n} * m,
              "attention: the [" + std::to_string(n) + ", " + std::to_string(m) + "] score matrix");
  check_cells(std::uint64_t{n} * values.shape(1), "attention: the output");

  AttentionResult result;
  // Eq. 1: scores = Q Kᵀ / √d_k, then ÷ τ, in double: a tiny τ then gives ±∞ (→ argmax), never 0·∞ = NaN.
  // d_k = 0 leaves the products 0 and the scale at 1. Additive scores are never scaled: tanh bounds them.
  const bool scaled = options.scale && !options.additive;
  const double sqrt_dk = scaled ? std::sqrt(static_cast<double>(d_k > 0 ? d_k : 1)) : 1.0;
  const double inv_scale = 1.0 / (sqrt_dk * static_cast<double>(options.temperature));
  result.dot_products =
      options.additive ? additive_scores(queries, keys, *options.additive) : matmul_transposed(queries, keys);
  result.scores = xt::empty<float>({n, m});
  const auto* bias = options.score_bias;
  if (bias && (bias->shape(0) != n || bias->shape(1) != m)) {
    throw std::invalid_argument("attention: score_bias must be [n, m] = [" + std::to_string(n) + ", " +
                                std::to_string(m) + "]");
  }
  const std::size_t valid = options.valid_length.value_or(m);
  for (std::size_t i = 0; i < n; ++i) {
    // The own position is masked only while another key remains: a query whose only allowed key is
    // itself (the first token under a causal mask) attends to itself, so its row is a distribution
    // and its output a value vector, not an empty row and a zero output.
    const std::size_t allowed = options.causal ? std::min(valid, i + 1) : valid;  // keys 0 … allowed − 1
    const bool mask_own = options.mask_diagonal && allowed - (i < allowed ? 1 : 0) > 0;
    for (std::size_t j = 0; j < m; ++j) {
      const bool masked = j >= valid || (options.causal && j > i) || (mask_own && j == i);
      const double score = result.dot_products(i, j) * inv_scale + (bias ? (*bias)(i, j) : 0.0f);
      result.scores(i, j) = masked ? kNegInf : static_cast<float>(score);
    }
  }
  result.weights = options.normalizer == Normalizer::softmax ? masked_softmax(result.scores)
                                                             : normalize(result.scores, options.normalizer);
  result.output = matmul(result.weights, values);
  return result;
}

}  // namespace attn
