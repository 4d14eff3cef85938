#include "attn/attention_layer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/kernels.hpp"
#include "attn/limits.hpp"

namespace attn {

namespace {

constexpr std::size_t kQueryBlock = 36;  // query rows per block of scores → softmax → weights·V: a multiple of
                                         // the 6-row tile; smaller blocks skip more of a causal mask (A/B: 24, 36, 64, 128)

void require_weights(const xt::xtensor<float, 2>& w, std::size_t d_model, const char* name) {
  if (w.shape(0) != d_model || w.shape(1) != d_model) {
    throw std::invalid_argument(std::string("MultiHeadLayer: ") + name + " must be [d_model, d_model] = [" +
                                std::to_string(d_model) + ", " + std::to_string(d_model) + "]");
  }
  for (float x : w) {
    if (!std::isfinite(x)) throw std::invalid_argument(std::string("MultiHeadLayer: ") + name + " must hold finite numbers");
  }
}

}  // namespace

MultiHeadLayer::MultiHeadLayer(std::size_t n_heads, const Projections& p)
    : n_heads_(n_heads), d_model_(p.w_q.shape(0)), d_k_(0) {
  if (n_heads == 0 || d_model_ == 0 || d_model_ % n_heads != 0) {
    throw std::out_of_range("MultiHeadLayer: n_heads must be a divisor of d_model = " + std::to_string(d_model_) +
                            ", got " + std::to_string(n_heads));
  }
  check_cells(std::uint64_t{3} * d_model_ * d_model_, "MultiHeadLayer: the packed weights");
  require_weights(p.w_q, d_model_, "W_Q");
  require_weights(p.w_k, d_model_, "W_K");
  require_weights(p.w_v, d_model_, "W_V");
  require_weights(p.w_o, d_model_, "W_O");
  d_k_ = d_model_ / n_heads;
  std::vector<float> w_qkv(3 * d_model_ * d_model_);
  for (std::size_t r = 0; r < d_model_; ++r) {
    std::copy_n(p.w_q.data() + r * d_model_, d_model_, w_qkv.data() + r * 3 * d_model_);
    std::copy_n(p.w_k.data() + r * d_model_, d_model_, w_qkv.data() + r * 3 * d_model_ + d_model_);
    std::copy_n(p.w_v.data() + r * d_model_, d_model_, w_qkv.data() + r * 3 * d_model_ + 2 * d_model_);
  }
  w_qkv_ = pack_panels(w_qkv.data(), 3 * d_model_, d_model_, 3 * d_model_);
  w_o_ = pack_panels(p.w_o.data(), d_model_, d_model_, d_model_);
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
      throw std::invalid_argument("MultiHeadLayer: input[" + std::to_string(i / d) + ", " + std::to_string(i % d) + "] is " +
                                  (std::isnan(input[i]) ? "NaN" : "infinite") + "; numbers must be finite");
    }
  }
  qkv_.resize(3 * n * d);
  keys_.resize(packed_size(dk, n));
  values_.resize(packed_size(n, dk));
  scores_.resize(n * n);
  concat_.resize(n * d);

  gemm_packed(input, d, w_qkv_.data(), qkv_.data(), 3 * d, n, d, 3 * d);  // [Q | K | V] = X [W_Q | W_K | W_V]
  const float scale = static_cast<float>(1.0 / ((options.scale ? std::sqrt(double(dk)) : 1.0) * options.temperature));
  const std::size_t valid = options.valid_length.value_or(n);
  for (std::size_t h = 0; h < n_heads_; ++h) {
    const float* q = qkv_.data() + h * dk;  // [n, dk], row stride 3d
    pack_panels_into(qkv_.data() + d + h * dk, 3 * d, dk, n, keys_.data(), true);  // K_hᵀ [dk, n]
    pack_panels_into(qkv_.data() + 2 * d + h * dk, 3 * d, n, dk, values_.data());   // V_h [n, dk]
    // Blocks of query rows: causal and padding masks keep a prefix of keys (j < min(i + 1, valid)),
    // so each block computes scores and weights·V only over the keys its rows can see.
    for (std::size_t i0 = 0; i0 < n; i0 += kQueryBlock) {
      const std::size_t i1 = std::min(n, i0 + kQueryBlock);
      const std::size_t keys = std::min(valid, options.causal ? i1 : n);
      float* block = scores_.data() + i0 * n;
      gemm_packed(q + i0 * 3 * d, 3 * d, keys_.data(), block, n, i1 - i0, dk, keys);  // Q_h K_hᵀ
      for (std::size_t i = i0; i < i1; ++i) {
        const std::size_t limit = std::min(valid, options.causal ? i + 1 : n);
        if (!softmax_prefix(scores_.data() + i * n, limit, n, scale)) {
          throw std::invalid_argument("attention: scores hold NaN (did the inputs overflow float32?)");
        }
      }
      gemm_packed(block, n, values_.data(), concat_.data() + i0 * d + h * dk, d, i1 - i0, keys, dk, n);  // head_h = A_h V_h
    }
    if (weights) std::copy(scores_.begin(), scores_.end(), weights + h * n * n);
  }
  gemm_packed(concat_.data(), d, w_o_.data(), output, d, n, d, d);  // Concat(heads) W_O
}

}  // namespace attn
