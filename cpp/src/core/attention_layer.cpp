#include "attn/core/attention_layer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/attention_head.hpp"
#include "attn/core/kernels.hpp"
#include "attn/core/limits.hpp"

namespace attn {

namespace {

const xt::xtensor<float, 2>& require_shape(const xt::xtensor<float, 2>& w, std::size_t d_model, const char* name) {
  if (w.shape(0) != d_model || w.shape(1) != d_model) {
    throw std::invalid_argument(std::string("MultiHeadLayer: ") + name + " must be [d_model, d_model] = [" +
                                std::to_string(d_model) + ", " + std::to_string(d_model) + "]");
  }
  return w;
}

void require_finite(const float* w, std::size_t cells, const char* name) {
  if (!std::all_of(w, w + cells, [](float x) { return std::isfinite(x); })) {
    throw std::invalid_argument(std::string("MultiHeadLayer: ") + name + " must hold finite numbers");
  }
}

}  // namespace

MultiHeadLayer::MultiHeadLayer(std::size_t n_heads, const Projections& p)
    : MultiHeadLayer(n_heads, p.w_q.shape(0), require_shape(p.w_q, p.w_q.shape(0), "W_Q").data(),
                     require_shape(p.w_k, p.w_q.shape(0), "W_K").data(),
                     require_shape(p.w_v, p.w_q.shape(0), "W_V").data(),
                     require_shape(p.w_o, p.w_q.shape(0), "W_O").data()) {}

MultiHeadLayer::MultiHeadLayer(std::size_t n_heads, std::size_t d_model, const float* w_q, const float* w_k,
                               const float* w_v, const float* w_o)
    : n_heads_(n_heads), d_model_(d_model), d_k_(0) {
  if (n_heads == 0 || d_model_ == 0 || d_model_ % n_heads != 0) {
    throw std::out_of_range("MultiHeadLayer: n_heads must be a divisor of d_model = " + std::to_string(d_model_) +
                            ", got " + std::to_string(n_heads));
  }
  check_cells(std::uint64_t{3} * d_model_ * d_model_, "MultiHeadLayer: the packed weights");
  const std::size_t cells = d_model_ * d_model_;
  require_finite(w_q, cells, "W_Q");
  require_finite(w_k, cells, "W_K");
  require_finite(w_v, cells, "W_V");
  require_finite(w_o, cells, "W_O");
  d_k_ = d_model_ / n_heads;
  std::vector<float> w_qkv(3 * cells);
  for (std::size_t r = 0; r < d_model_; ++r) {
    std::copy_n(w_q + r * d_model_, d_model_, w_qkv.data() + r * 3 * d_model_);
    std::copy_n(w_k + r * d_model_, d_model_, w_qkv.data() + r * 3 * d_model_ + d_model_);
    std::copy_n(w_v + r * d_model_, d_model_, w_qkv.data() + r * 3 * d_model_ + 2 * d_model_);
  }
  w_qkv_ = pack_panels(w_qkv.data(), 3 * d_model_, d_model_, 3 * d_model_);
  w_o_ = pack_panels(w_o, d_model_, d_model_, d_model_);
}

void MultiHeadLayer::forward(const float* input, std::size_t n, float* output, const AttentionOptions& options,
                             float* weights) {
  const std::size_t d = d_model_, dk = d_k_;
  if (!std::isfinite(options.temperature) || options.temperature <= 0.0f) {
    throw std::out_of_range("attention: temperature must be a finite number > 0");
  }
  if (options.valid_length && *options.valid_length > n) {
    throw std::out_of_range("attention: valid_length must be 0 … " + std::to_string(n) + ", got " +
                            std::to_string(*options.valid_length));
  }
  check_cells(std::uint64_t{3} * n * d, "MultiHeadLayer: Q, K and V");
  check_cells(std::uint64_t{n_heads_} * n * n, "MultiHeadLayer: the weights of " + std::to_string(n_heads_) + " heads");
  for (std::size_t i = 0; i < n * d; ++i) {
    if (!std::isfinite(input[i])) {
      throw std::invalid_argument("MultiHeadLayer: input[" + std::to_string(i / d) + ", " + std::to_string(i % d) +
                                  "] is " + (std::isnan(input[i]) ? "NaN" : "infinite") + "; numbers must be finite");
    }
  }
  qkv_.resize(3 * n * d);
  concat_.resize(n * d);

  gemm_packed(input, d, w_qkv_.data(), qkv_.data(), 3 * d, n, d, 3 * d);  // [Q | K | V] = X [W_Q | W_K | W_V]
  const float scale = static_cast<float>(1.0 / ((options.scale ? std::sqrt(double(dk)) : 1.0) * options.temperature));
  const PrefixMask mask{options.causal, options.valid_length.value_or(n)};
  for (std::size_t h = 0; h < n_heads_; ++h) {
    // Head h's columns of Q, K, V (row stride 3d) into its columns of the concatenation
    if (!attend_head(qkv_.data() + h * dk, 3 * d, qkv_.data() + d + h * dk, 3 * d, qkv_.data() + 2 * d + h * dk, 3 * d,
                     n, n, dk, dk, scale, mask, concat_.data() + h * dk, d, head_,
                     weights ? weights + h * n * n : nullptr)) {
      throw std::invalid_argument("attention: scores hold NaN (did the inputs overflow float32?)");
    }
  }
  gemm_packed(concat_.data(), d, w_o_.data(), output, d, n, d, d);  // Concat(heads) W_O
}

}  // namespace attn
