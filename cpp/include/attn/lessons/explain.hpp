#pragma once
// One whole update of the explorer: text → tokens → X → X + P → multi-head self-attention → the rest
// of the encoder block, and a 2-D view of how attention moved each word. The page calls this once
// per keystroke and draws every figure from the returned trace.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/core/encoder_block.hpp"
#include "attn/core/multi_head.hpp"
#include "attn/core/pca.hpp"
#include "attn/core/positional_variants.hpp"
#include "attn/lessons/designed_heads.hpp"
#include "attn/lessons/position_checks.hpp"
#include "attn/text/embeddings.hpp"
#include "attn/text/tokenizer.hpp"

namespace attn {

// Longest sentence the explorer traces; longer text is cut (Trace::truncated).
constexpr std::size_t kMaxTokens = 256;
// Largest factor on the word vectors (embeddingScale) and on P (positionalScale): √d_model = 10 is the
// paper's §3.4 scaling, so 100 leaves room to overshoot it tenfold.
constexpr float kMaxInputScale = 100.0f;
// The range of the temperature τ the explorer offers (its slider and its attribute). Not a limit of the
// core: attention and explain take any finite τ > 0; the page keeps to this range, where every
// normalizer's picture stays readable.
constexpr double kMinExplorerTemperature = 0.05;
constexpr double kMaxExplorerTemperature = 5.0;
// LayerNorm ε of the encoder block (PyTorch's default).
constexpr float kLayerNormEpsilon = 1e-5f;

// W_Q, W_K, W_V, W_O of the projected heads: identity (scores are raw word-vector similarities) or
// seeded Glorot-uniform (multi_head.hpp).
enum class Projection { identity, random };

// JS names of the projections (core.limits.projections), the default first.
inline constexpr NamedValue<Projection> kProjectionNames[] = {{"identity", Projection::identity},
                                                              {"random", Projection::random}};

struct ExplainOptions {
  std::size_t n_heads = 1;  // must divide the embedding width (100: 1, 2, 4, 5, 10, …)
  Projection projection = Projection::identity;
  std::uint64_t seed = 0;                                  // random projections and the feed-forward weights
  std::vector<HeadSpec> heads;                             // per head (missing entries: projected)
  PositionalKind positional = PositionalKind::sinusoidal;  // how tokens learn where they are
  double base = 10000.0;                                   // sinusoid base
  AlibiSlopes alibi_slopes = AlibiSlopes::paper;           // ALiBi's per-head slopes (positional = alibi)
  AttentionOptions attention;                              // causal, valid_length, temperature, scale, normalizer
  std::size_t additive_hidden = 0;            // > 0: projected heads score additively (Bahdanau) with this many
                                              // hidden units, head h's scorer seeded (seed << 16) + h; 0: Q Kᵀ
  std::vector<std::size_t> masked_positions;  // tokens replaced by [MASK] (EmbeddingTable::mask_vector)
  float embedding_scale = 1.0f;               // word vectors × this (√d_model = 10 is the paper's §3.4), 0 … 100
  float positional_scale = 1.0f;              // P × this before it is added, 0 … 100
  bool position_checks = false;               // also trace PositionChecks (a second, shuffled pass)
  std::uint64_t shuffle_seed = 0;             // the shuffled order of PositionChecks::shuffle
  std::size_t max_tokens = kMaxTokens;        // 1 … kMaxTokens
  bool encoder_block = true;                  // also trace residual, LayerNorm, FFN (d_ff = 4·d_model)
  bool project_2d = true;                     // also trace the 2-D PCA of X and the attention output
};

struct TracedToken {
  Token token;
  std::int64_t id;  // vocabulary row, or -1
  bool oov;         // out of vocabulary: its vector is oov_vector(key)
  bool masked;      // replaced by [MASK]
};

// What position information does to this sentence (position_checks.hpp).
struct PositionChecks {
  std::vector<ScoreTerms> score_terms;     // per head; empty unless P is added (sinusoidal, learned) to dot-product
                                           // scores, and empty ScoreTerms for designed heads
  std::vector<RepeatedWord> repeated;      // words that occur twice
  ShuffleCheck shuffle;                    // the sentence in shuffled_order(seq_len, shuffle_seed)
  xt::xtensor<float, 1> embedding_norms;   // ‖x_i‖ of the word vectors as used  [seq_len]
  xt::xtensor<float, 1> positional_norms;  // ‖p_i‖ of the encoding as added     [seq_len]
};

struct Trace {
  std::vector<TracedToken> tokens;   // seq_len tokens
  std::size_t total_tokens;          // tokens in the text before cutting
  bool truncated;                    // total_tokens > max_tokens
  std::size_t valid_length;          // keys at positions ≥ valid_length are padding (= seq_len if none)
  std::vector<HeadSpec> heads;       // n_heads, as used
  xt::xtensor<float, 2> embeddings;  // X      [seq_len, d_model], × embedding_scale
  xt::xtensor<float, 2>
      positional;               // P      [seq_len, d_model], × positional_scale: the table added
                                //        (sinusoidal or learned), else the sinusoidal encoding, traced but not added
  xt::xtensor<float, 2> input;  // X + P for absolute encodings, else X  [seq_len, d_model]
  std::vector<xt::xtensor<float, 2>> score_biases;  // ALiBi / T5: one [seq_len, seq_len] bias per head
  std::vector<AdditiveScorer> additive;  // per head with additive_hidden > 0 (designed heads keep their dot products)
  MultiHeadResult attention;             // every intermediate of multi-head self-attention
  EncoderBlockResult block;              // empty unless options.encoder_block
  Pca projection;                        // of the 2·seq_len rows [X; attention output], k = 2; empty unless project_2d
  PositionChecks checks;                 // empty unless position_checks
};

// The seeded weights of one configuration — projections W_Q, W_K, W_V, W_O and the feed-forward
// network (d_ff = 4·d_model) — built once and reused while only the text changes.
struct ModelWeights {
  std::size_t d_model;
  Projection projection;
  std::uint64_t seed;
  Projections projections;
  FeedForward ffn;
};
ModelWeights model_weights(std::size_t d_model, Projection projection, std::uint64_t seed);

// A valid_length above the (cut) token count is clamped to it and masked positions beyond it are
// ignored, since the sentence changes on every keystroke. Throws std::out_of_range for n_heads not
// dividing d_model, more head specs than heads, max_tokens outside 1 … kMaxTokens, a scale outside
// 0 … 100 (embedding_scale above 0), additive_hidden above kMaxAdditiveHidden, and the ranges of
// sinusoidal_encoding, designed_head and scaled_dot_product_attention.
Trace explain(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options);

// The option checks explain() starts with (the throws listed above that do not depend on the text or
// on the attention itself), for callers that want to refuse bad options before preparing weights.
void check_explain_options(const ExplainOptions& options, std::size_t d_model);

// The same with prepared weights (model_weights of the table's width, options.projection and
// options.seed); throws std::invalid_argument if they were built for another configuration.
Trace explain(const std::string& text, const EmbeddingTable& table, const ExplainOptions& options,
              const ModelWeights& weights);

// Two sentences traced with the same options, and one PCA over both so their 2-D views share axes:
// projection.coordinates stacks [X_a; output_a; X_b; output_b] rows ([2·n_a + 2·n_b, 2]).
struct ContextComparison {
  Trace first, second;
  Pca projection;
};
ContextComparison compare_contexts(const std::string& first, const std::string& second, const EmbeddingTable& table,
                                   ExplainOptions options);

}  // namespace attn
