#include "attn/explain.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "attn/positional.hpp"

namespace attn {

Trace explain(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options) {
  if (options.max_tokens == 0 || options.max_tokens > kMaxTokens) {
    throw std::out_of_range("explain: max_tokens must be 1 … " + std::to_string(kMaxTokens));
  }
  const std::size_t d_model = table.dim();
  if (options.n_heads == 0 || d_model % options.n_heads != 0) {
    throw std::out_of_range("explain: numHeads must divide d_model = " + std::to_string(d_model) + ", got " +
                            std::to_string(options.n_heads));
  }
  Trace trace;
  std::vector<Token> tokens = tokenize(text);
  trace.total_tokens = tokens.size();
  trace.truncated = tokens.size() > options.max_tokens;
  if (trace.truncated) tokens.resize(options.max_tokens);
  const std::size_t seq_len = tokens.size();

  std::vector<std::int64_t> ids;
  trace.embeddings = table.embed(tokens, ids);
  trace.tokens.reserve(seq_len);
  for (std::size_t t = 0; t < seq_len; ++t) trace.tokens.push_back({tokens[t], ids[t], ids[t] < 0});

  trace.positional = sinusoidal_encoding(seq_len, d_model, options.base);
  trace.input = options.positional_encoding ? xt::xtensor<float, 2>(trace.embeddings + trace.positional)
                                            : trace.embeddings;

  const Projections projections = options.projection == Projection::random
                                      ? random_projections(d_model, options.seed)
                                      : identity_projections(d_model);
  AttentionOptions attention = options.attention;
  if (attention.valid_length) attention.valid_length = std::min(*attention.valid_length, seq_len);
  trace.attention = multi_head_attention(trace.input, options.n_heads, projections, attention);
  return trace;
}

}  // namespace attn
