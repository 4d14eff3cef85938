#pragma once
// One whole update of the explorer: text → tokens → X → X + P → multi-head self-attention.
// The page calls this once per keystroke and draws every figure from the returned trace.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/embeddings.hpp"
#include "attn/multi_head.hpp"
#include "attn/tokenizer.hpp"

namespace attn {

// Longest sentence the explorer traces; longer text is cut (Trace::truncated).
constexpr std::size_t kMaxTokens = 256;

enum class Projection { identity, random };

struct ExplainOptions {
  std::size_t n_heads = 1;               // must divide the embedding width (100: 1, 2, 4, 5, 10, …)
  Projection projection = Projection::identity;
  std::uint64_t seed = 0;                // for Projection::random
  bool positional_encoding = true;       // add P to X
  double base = 10000.0;                 // sinusoid base
  AttentionOptions attention;            // causal, valid_length, temperature
  std::size_t max_tokens = kMaxTokens;   // 1 … kMaxTokens
};

struct TracedToken {
  Token token;
  std::int64_t id;  // vocabulary row, or -1
  bool oov;         // out of vocabulary: its vector is oov_vector(key)
};

struct Trace {
  std::vector<TracedToken> tokens;  // seq_len tokens
  std::size_t total_tokens;         // tokens in the text before cutting
  bool truncated;                   // total_tokens > max_tokens
  xt::xtensor<float, 2> embeddings; // X      [seq_len, d_model]
  xt::xtensor<float, 2> positional; // P      [seq_len, d_model]  (computed even when not added)
  xt::xtensor<float, 2> input;      // X + P, or X without positional encoding  [seq_len, d_model]
  MultiHeadResult attention;        // every intermediate of multi-head self-attention
};

// A valid_length above the (cut) token count is clamped to it, since the sentence changes on every
// keystroke. Throws std::out_of_range for n_heads not dividing d_model, max_tokens outside
// 1 … kMaxTokens, and the ranges of sinusoidal_encoding and scaled_dot_product_attention.
Trace explain(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options);

}  // namespace attn
