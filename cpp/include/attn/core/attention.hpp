#pragma once
// Scaled dot-product attention for one head (Vaswani et al. 2017 §3.2.1, eq. 1; d2l.ai §11.3).
//
// Dimensions used in this header and in multi_head.hpp:
//   n        number of queries (seq_len for self-attention)
//   m        number of keys and values
//   d_k      width of a query or key vector
//   d_v      width of a value vector
#include <cstddef>
#include <optional>

#include <xtensor/xtensor.hpp>

#include "attn/core/normalizers.hpp"
#include "attn/core/score_functions.hpp"

namespace attn {

// Masks and sharpness shared by single- and multi-head attention.
struct AttentionOptions {
  bool causal = false;                                // query i sees keys j ≤ i only (decoder / GPT style)
  std::optional<std::size_t> valid_length;            // keys j ≥ valid_length are padding (d2l's valid_lens)
  float temperature = 1.0f;                           // τ: scores are divided by τ; must be finite and > 0
  bool scale = true;                                  // divide by √d_k (Vaswani eq. 1); false shows why it matters
  bool mask_diagonal = false;                         // query i does not see key i (the designed semantic head),
                                                      // unless key i is the only key it may see: then it attends to
                                                      // itself (the first token under a causal mask)
  const xt::xtensor<float, 2>* score_bias = nullptr;  // [n, m] added to the scaled scores before masking
                                                      // (ALiBi, T5); not owned, must outlive the call
  Normalizer normalizer = Normalizer::softmax;        // how scores become weights (normalizers.hpp): softmax is
                                                      // eq. 1; sparsemax / entmax15 give exact zeros; hardmax one-hot
  const AdditiveScorer* additive = nullptr;  // set: additive scores vᵀ tanh(W_q q + W_k k) (score_functions.hpp)
                                             // instead of Q Kᵀ, never ÷ √d_k; not owned, must outlive the call
};

struct AttentionResult {
  xt::xtensor<float, 2> dot_products;  // [n, m]  the raw scores a(q_i, k_j) before scaling and masking: Q Kᵀ, or
                                       //         the additive scores when options.additive is set
  xt::xtensor<float, 2> scores;        // [n, m]  Q Kᵀ / (√d_k · τ) (or additive / τ); masked cells are −∞
  xt::xtensor<float, 2> weights;       // [n, m]  softmax of each row; rows sum to 1; masked cells 0
  xt::xtensor<float, 2> output;        // [n, d_v] weights · V
};

// The masked softmax of attention (Vaswani et al. 2017 eq. 1), over each row of `scores` [n, m] →
// weights [n, m]: w_ij = exp(s_ij − max_j s_ij) / Σ_j exp(s_ij − max_j s_ij), computed stably (the row
// maximum is subtracted before exp, in double, rounded to float32 once). Masked cells are −∞ and get
// weight exactly 0. A FULLY MASKED ROW (every cell −∞, e.g. valid_length = 0 or a causal row with every
// key padded) has no key to attend to: it becomes all zeros, deliberately not NaN and not uniform, so
// its output row is 0 and nothing leaks from padding. A row with +∞ cells (scores that overflowed)
// shares its weight equally among them, softmax's limit. Throws std::invalid_argument on NaN in scores.
// This is the only softmax over attention scores in the core: it is normalize(scores, softmax) (the
// other normalizers share its masking rules), and the packed kernels' softmax_prefix (kernels.hpp), its
// SIMD form for prefix masks, is tested against it.
xt::xtensor<float, 2> masked_softmax(const xt::xtensor<float, 2>& scores);

// Shannon entropy of each row of `weights` [n, m], in bits: H_i = −Σ_j w_ij log2 w_ij (0 log 0 = 0).
// 0 for a one-hot row, log2(m) for a uniform one; 0 for an all-zero (fully masked) row. → [n]
xt::xtensor<float, 1> row_entropy_bits(const xt::xtensor<float, 2>& weights);

// attention(Q, K, V) = softmax(mask(Q Kᵀ / (√d_k · τ))) V.
//   queries [n, d_k], keys [m, d_k], values [m, d_v] → AttentionResult. With options.additive the
//   scores are additive_scores(Q, K) / τ and queries and keys may differ in width (the scorer's).
// The causal mask hides keys j > i (query row i attends to keys 0…i).
// mask_diagonal hides key i from query i while another key is left; a query left with only itself
// attends to itself (weight 1 with softmax), so only padding (valid_length = 0) empties a row.
// Throws std::invalid_argument if the widths or key/value counts disagree, or an input holds NaN/∞
// (and what additive_scores throws);
// std::out_of_range if temperature is not finite and > 0, valid_length exceeds m, or the scores or
// output would exceed kMaxCells (limits.hpp). A temperature near 0 tends to argmax (ties share).
// Scores too large for float32 become ±∞ and are handled as masked_softmax describes.
AttentionResult scaled_dot_product_attention(const xt::xtensor<float, 2>& queries, const xt::xtensor<float, 2>& keys,
                                             const xt::xtensor<float, 2>& values, const AttentionOptions& options = {});

}  // namespace attn
