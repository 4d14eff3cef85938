#include "attn/lessons/designed_heads.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <xtensor/xview.hpp>

#include "attn/core/positional.hpp"

namespace attn {

namespace {

HeadInputs semantic_head(const xt::xtensor<float, 2>& x, const xt::xtensor<float, 2>& values) {
  const std::size_t seq_len = x.shape(0), d_model = x.shape(1);
  const float c = std::sqrt(kDesignedSharpness * std::sqrt(static_cast<float>(d_model)));
  xt::xtensor<float, 2> unit = xt::zeros<float>({seq_len, d_model});
  for (std::size_t i = 0; i < seq_len; ++i) {
    double sq = 0.0;
    for (std::size_t t = 0; t < d_model; ++t) sq += double(x(i, t)) * x(i, t);
    if (sq == 0.0) continue;  // a zero vector stays zero: similar to nothing
    const float scale = c / static_cast<float>(std::sqrt(sq));
    for (std::size_t t = 0; t < d_model; ++t) unit(i, t) = x(i, t) * scale;
  }
  return {unit, unit, values};
}

// Mean over frequencies of cos(ω_j): the similarity p_i·p_{i+1} / (d_qk/2) of neighbouring positions.
double neighbour_similarity(std::size_t d_qk, double base) {
  double sum = 0.0;
  for (std::size_t j = 0; j < d_qk / 2; ++j) sum += std::cos(std::pow(base, -2.0 * j / static_cast<double>(d_qk)));
  return sum / static_cast<double>(d_qk / 2);
}

HeadInputs positional_head(const HeadSpec& spec, std::size_t seq_len, std::size_t d_k,
                           const xt::xtensor<float, 2>& values, double base) {
  const std::size_t d_qk = d_k + d_k % 2;  // rotations act on (sin, cos) pairs
  // Scale so the target's score beats its nearest neighbours' by kPositionalMargin (after ÷ √d_qk):
  // c² · (d_qk/2) · (1 − neighbour_similarity) / √d_qk = margin.
  const double gap = (static_cast<double>(d_qk) / 2.0) * (1.0 - neighbour_similarity(d_qk, base));
  const float c = static_cast<float>(std::sqrt(kPositionalMargin * std::sqrt(static_cast<double>(d_qk)) / gap));
  const xt::xtensor<float, 2> p = sinusoidal_encoding(seq_len, d_qk, base);
  xt::xtensor<float, 2> queries = xt::zeros<float>({seq_len, d_qk});
  if (spec.kind == HeadKind::offset) {
    queries = rotate_encoding(p, spec.offset, base) * c;
  } else if (spec.kind == HeadKind::first_token && seq_len > 0) {
    for (std::size_t i = 0; i < seq_len; ++i) xt::view(queries, i) = xt::view(p, 0) * c;
  }
  return {queries, xt::xtensor<float, 2>(p * c), values};
}

}  // namespace

HeadInputs designed_head(const HeadSpec& spec, const xt::xtensor<float, 2>& word_vectors,
                         const xt::xtensor<float, 2>& values, double base) {
  if (spec.kind == HeadKind::projected) {
    throw std::invalid_argument("designed_head: a projected head has no designed queries and keys");
  }
  if (std::abs(spec.offset) > kMaxHeadOffset) {
    throw std::out_of_range("designed_head: offset must be within ±" + std::to_string(kMaxHeadOffset));
  }
  if (values.shape(1) == 0) throw std::out_of_range("designed_head: d_k must be at least 1");
  if (spec.kind == HeadKind::semantic) return semantic_head(word_vectors, values);
  return positional_head(spec, word_vectors.shape(0), values.shape(1), values, base);
}

bool positional_by_construction(HeadKind kind) {
  return kind == HeadKind::offset || kind == HeadKind::first_token || kind == HeadKind::uniform;
}

AttentionOptions head_options(const HeadSpec& spec, const AttentionOptions& shared) {
  AttentionOptions options = shared;
  if (spec.kind == HeadKind::semantic) options.mask_diagonal = true;
  return options;
}

HeadSpec head_spec_from_name(const std::string& name, int offset, const std::string& argument) {
  for (const auto& alias : kHeadKindAliases) {
    if (name == alias.name) return {HeadKind::offset, alias.value};
  }
  for (const auto& entry : kHeadKindNames) {
    if (name == entry.name) return {entry.value, entry.value == HeadKind::offset ? offset : 0};
  }
  throw std::out_of_range(argument + " must be one of " + name_list(kHeadKindNames) + ", " +
                          name_list(kHeadKindAliases) + ", got '" + name + "'");
}

}  // namespace attn
