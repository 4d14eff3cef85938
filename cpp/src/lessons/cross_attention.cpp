#include "attn/lessons/cross_attention.hpp"

#include <utility>

#include "attn/core/layer_norm.hpp"

namespace attn {

namespace {

ExplainOptions source_options(ExplainOptions options) {
  options.attention.causal = false;
  options.encoder_block = true;
  options.project_2d = options.position_checks = false;
  return options;
}

ExplainOptions target_options(ExplainOptions options) {
  options.attention.causal = true;
  options.attention.valid_length.reset();
  options.masked_positions.clear();
  options.encoder_block = options.project_2d = options.position_checks = false;
  return options;
}

}  // namespace

CrossAttentionTrace explain_cross(const std::string& source, const std::string& target, const EmbeddingTable& table,
                                  const ExplainOptions& options) {
  CrossAttentionTrace r;
  r.source = explain(source, table, source_options(options));
  r.target = explain(target, table, target_options(options));
  r.memory = r.source.block.output;
  const std::size_t t = r.target.tokens.size(), s = r.source.tokens.size();
  if (t == 0 || s == 0) return r;

  r.queries_input = layer_norm(xt::xtensor<float, 2>(r.target.input + r.target.attention.output), kLayerNormEpsilon);
  const std::size_t d_model = table.dim();
  const Projections projections = options.projection == Projection::random
                                      ? random_projections(d_model, options.seed + 1)
                                      : identity_projections(d_model);
  std::vector<HeadInputs> asking = project_heads(r.queries_input, options.n_heads, projections);
  std::vector<HeadInputs> heads = project_heads(r.memory, options.n_heads, projections);
  for (std::size_t h = 0; h < options.n_heads; ++h) heads[h].queries = std::move(asking[h].queries);

  AttentionOptions shared = options.attention;
  shared.causal = shared.mask_diagonal = false;
  shared.score_bias = nullptr;
  shared.valid_length = r.source.valid_length;
  std::vector<AttentionOptions> per_head(options.n_heads, shared);
  if (options.additive_hidden > 0) {
    for (std::size_t h = 0; h < options.n_heads; ++h) {
      r.additive.push_back(additive_scorer(heads[h].queries.shape(1), heads[h].keys.shape(1), options.additive_hidden,
                                           ((options.seed + 1) << 16) + h));
    }
    for (std::size_t h = 0; h < options.n_heads; ++h) per_head[h].additive = &r.additive[h];
  }
  r.cross = attend_heads(std::move(heads), per_head, projections.w_o);
  return r;
}

}  // namespace attn
