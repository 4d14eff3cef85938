#include "attn/lessons/explain.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/positional.hpp"

namespace attn {

void check_explain_options(const ExplainOptions& options, std::size_t d_model) {
  if (options.max_tokens == 0 || options.max_tokens > kMaxTokens) {
    throw std::out_of_range("explain: max_tokens must be 1 … " + std::to_string(kMaxTokens));
  }
  if (options.n_heads == 0 || d_model % options.n_heads != 0) {
    throw std::out_of_range("explain: numHeads must divide d_model = " + std::to_string(d_model) + ", got " +
                            std::to_string(options.n_heads));
  }
  const auto in_range = [](float scale, bool zero_allowed) {
    return std::isfinite(scale) && scale <= kMaxInputScale && (scale > 0.0f || (zero_allowed && scale == 0.0f));
  };
  const std::string max = std::to_string(static_cast<int>(kMaxInputScale));
  if (!in_range(options.embedding_scale, false))
    throw std::out_of_range("explain: embeddingScale must be in (0, " + max + "]");
  if (!in_range(options.positional_scale, true))
    throw std::out_of_range("explain: positionalScale must be in [0, " + max + "]");
  if (options.additive_hidden > kMaxAdditiveHidden) {
    throw std::out_of_range("explain: additiveHidden must be 0 … " + std::to_string(kMaxAdditiveHidden));
  }
  if (options.heads.size() > options.n_heads) {
    throw std::out_of_range("explain: heads lists " + std::to_string(options.heads.size()) + " kinds for " +
                            std::to_string(options.n_heads) + " heads");
  }
}

namespace {

// Rows [a; b] stacked: [rows_a + rows_b, d].
xt::xtensor<float, 2> stack_rows(const xt::xtensor<float, 2>& a, const xt::xtensor<float, 2>& b) {
  xt::xtensor<float, 2> out = xt::empty<float>({a.shape(0) + b.shape(0), a.shape(1)});
  std::copy_n(a.data(), a.size(), out.data());
  std::copy_n(b.data(), b.size(), out.data() + a.size());
  return out;
}

// Arrows start at the word vectors (identical for the same word anywhere) and end at what attention made of them.
xt::xtensor<float, 2> moved_rows(const Trace& t) { return stack_rows(t.embeddings, t.attention.output); }

}  // namespace

ModelWeights model_weights(std::size_t d_model, Projection projection, std::uint64_t seed) {
  return {d_model, projection, seed,
          projection == Projection::random ? random_projections(d_model, seed) : identity_projections(d_model),
          random_feed_forward(d_model, 4 * d_model, seed)};
}

Trace explain(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options) {
  return explain(text, table, options, model_weights(table.dim(), options.projection, options.seed));
}

namespace {

// One seeded scorer per head, for its query and key widths.
std::vector<AdditiveScorer> additive_scorers(const std::vector<HeadInputs>& heads, std::size_t hidden,
                                             std::uint64_t seed) {
  std::vector<AdditiveScorer> scorers;
  for (std::size_t h = 0; h < heads.size(); ++h) {
    scorers.push_back(additive_scorer(heads[h].queries.shape(1), heads[h].keys.shape(1), hidden, (seed << 16) + h));
  }
  return scorers;
}

bool is_absolute(PositionalKind kind) { return kind == PositionalKind::sinusoidal || kind == PositionalKind::learned; }

// Position k gets item order[k] (row k ← row order[k]).
template <typename T>
std::vector<T> reordered(const std::vector<T>& items, const std::vector<std::size_t>& order) {
  std::vector<T> out;
  for (std::size_t k : order) out.push_back(items[k]);
  return out;
}

xt::xtensor<float, 2> reordered_rows(const xt::xtensor<float, 2>& m, const std::vector<std::size_t>& order) {
  xt::xtensor<float, 2> out = xt::empty<float>(m.shape());
  for (std::size_t k = 0; k < order.size(); ++k) std::copy_n(&m(order[k], 0), m.shape(1), &out(k, 0));
  return out;
}

// The whole trace, with the (cut) tokens placed in `order` when one is given.
Trace trace_sentence(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options,
                     const ModelWeights& weights, const std::vector<std::size_t>* order) {
  const std::size_t d_model = table.dim();
  const Projections& projections = weights.projections;
  Trace trace;
  std::vector<Token> tokens = tokenize(text, table);
  trace.total_tokens = tokens.size();
  trace.truncated = tokens.size() > options.max_tokens;
  if (trace.truncated) tokens.resize(options.max_tokens);
  const std::size_t seq_len = tokens.size();

  std::vector<std::int64_t> ids;
  trace.embeddings = table.embed(tokens, ids);
  std::vector<bool> masked(seq_len, false);
  for (std::size_t position : options.masked_positions) {
    if (position >= seq_len) continue;  // the sentence got shorter since the word was masked
    masked[position] = true;
    std::copy_n(table.mask_vector().data(), d_model, trace.embeddings.data() + position * d_model);
  }
  trace.tokens.reserve(seq_len);
  for (std::size_t t = 0; t < seq_len; ++t) trace.tokens.push_back({tokens[t], ids[t], ids[t] < 0, masked[t]});
  if (order) {
    trace.tokens = reordered(trace.tokens, *order);
    trace.embeddings = reordered_rows(trace.embeddings, *order);
  }
  // The semantic head compares meanings: it gets the all-but-the-top vectors (embeddings.hpp),
  // made before scaling; X keeps the raw ones.
  const bool semantic = std::any_of(options.heads.begin(), options.heads.end(),
                                    [](const HeadSpec& spec) { return spec.kind == HeadKind::semantic; });
  const xt::xtensor<float, 2> meaning = semantic ? table.post_processed(trace.embeddings) : xt::xtensor<float, 2>();
  if (options.embedding_scale != 1.0f) trace.embeddings *= options.embedding_scale;

  trace.positional = options.positional == PositionalKind::learned
                         ? learned_encoding(seq_len, d_model, options.seed)
                         : sinusoidal_encoding(seq_len, d_model, options.base);
  if (options.positional_scale != 1.0f) trace.positional *= options.positional_scale;
  trace.input =
      is_absolute(options.positional) ? xt::xtensor<float, 2>(trace.embeddings + trace.positional) : trace.embeddings;

  AttentionOptions shared = options.attention;
  trace.valid_length = std::min(shared.valid_length.value_or(seq_len), seq_len);
  shared.valid_length = trace.valid_length;

  std::vector<HeadInputs> heads = project_heads(trace.input, options.n_heads, projections);
  std::vector<AttentionOptions> head_options_list;
  std::vector<bool> projected;
  trace.heads = options.heads;
  trace.heads.resize(options.n_heads);  // missing entries: projected heads
  for (std::size_t h = 0; h < options.n_heads; ++h) {
    const HeadSpec& spec = trace.heads[h];
    projected.push_back(spec.kind == HeadKind::projected);
    if (spec.kind != HeadKind::projected) {
      heads[h] = designed_head(spec, spec.kind == HeadKind::semantic ? meaning : trace.embeddings, heads[h].values,
                               options.base);
    }
    head_options_list.push_back(head_options(spec, shared));
  }
  // RoPE turns the projected heads' queries and keys; ALiBi and T5 bias every head's scores.
  trace.score_biases =
      apply_relative_position(options.positional, heads, projected, options.seed, options.base, options.alibi_slopes);
  for (std::size_t h = 0; h < trace.score_biases.size(); ++h) head_options_list[h].score_bias = &trace.score_biases[h];
  if (options.additive_hidden > 0) {
    trace.additive = additive_scorers(heads, options.additive_hidden, options.seed);
    for (std::size_t h = 0; h < options.n_heads; ++h) {
      if (projected[h]) head_options_list[h].additive = &trace.additive[h];
    }
  }
  trace.attention = attend_heads(std::move(heads), head_options_list, projections.w_o);

  if (options.encoder_block) {
    trace.block = encoder_block_after_attention(trace.input, trace.attention.output, weights.ffn, kLayerNormEpsilon);
  }
  if (options.project_2d && seq_len > 0) trace.projection = pca(moved_rows(trace), 2);
  return trace;
}

// Score terms, the same word twice, the shuffled sentence, and the norms (position_checks.hpp).
PositionChecks position_checks(const Trace& trace, const std::string& text, const EmbeddingTable& table,
                               const ExplainOptions& options, const ModelWeights& weights) {
  PositionChecks checks;
  const std::size_t seq_len = trace.tokens.size();
  if (is_absolute(options.positional) && options.additive_hidden == 0) {  // the split needs dot products
    const std::size_t d_k = table.dim() / options.n_heads;
    const AttentionOptions& a = options.attention;
    const float factor =
        static_cast<float>(1.0 / ((a.scale ? std::sqrt(static_cast<double>(d_k)) : 1.0) * a.temperature));
    checks.score_terms = score_terms(trace.embeddings, trace.positional, weights.projections, options.n_heads, factor);
    for (std::size_t h = 0; h < options.n_heads; ++h) {
      if (trace.heads[h].kind != HeadKind::projected) checks.score_terms[h] = {};
    }
  }
  std::vector<std::string> keys;
  for (const TracedToken& t : trace.tokens) keys.push_back(t.masked ? "[MASK]" : t.token.key);
  checks.repeated = repeated_words(keys, trace.attention);

  ExplainOptions plain = options;  // only the attention is compared
  plain.encoder_block = plain.project_2d = plain.position_checks = false;
  const std::vector<std::size_t> order = shuffled_order(seq_len, options.shuffle_seed);
  const Trace shuffled = trace_sentence(text, table, plain, weights, &order);
  checks.shuffle = compare_shuffled(trace.attention, shuffled.attention, order);
  checks.embedding_norms = row_norms(trace.embeddings);
  checks.positional_norms = row_norms(trace.positional);
  return checks;
}

}  // namespace

Trace explain(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options,
              const ModelWeights& weights) {
  check_explain_options(options, table.dim());
  if (weights.d_model != table.dim() || weights.projection != options.projection || weights.seed != options.seed) {
    throw std::invalid_argument("explain: the prepared weights belong to another configuration");
  }
  Trace trace = trace_sentence(text, table, options, weights, nullptr);
  if (options.position_checks) trace.checks = position_checks(trace, text, table, options, weights);
  return trace;
}

ContextComparison compare_contexts(const std::string& first, const std::string& second, const EmbeddingTable& table,
                                   ExplainOptions options) {
  options.project_2d = false;
  const ModelWeights weights = model_weights(table.dim(), options.projection, options.seed);
  ContextComparison comparison{explain(first, table, options, weights), explain(second, table, options, weights), {}};
  const xt::xtensor<float, 2> rows = stack_rows(moved_rows(comparison.first), moved_rows(comparison.second));
  if (rows.shape(0) > 0) comparison.projection = pca(rows, 2);
  return comparison;
}

}  // namespace attn
