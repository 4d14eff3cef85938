#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../asset.hpp"
#include "attn/core/layer_norm.hpp"
#include "attn/lessons/cross_attention.hpp"

// Every test name starts with "cross-attention:" so that `ctest -R cross` selects them all.

namespace {

const char* kSource = "the cat sat on the mat";
const char* kTarget = "le chat zzyzxq sur le tapis .";  // "zzyzxq" is in no vocabulary

// Rows of `weights` [n, m] sum to 1.
void check_rows_sum_to_one(const xt::xtensor<float, 3>& weights, std::size_t head) {
  for (std::size_t i = 0; i < weights.shape(1); ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < weights.shape(2); ++j) sum += weights(head, i, j);
    CHECK(sum == Approx(1.0).margin(1e-5));
  }
}

}  // namespace

TEST_CASE("cross-attention: shapes of the decoder's two steps, causal target, flagged unknown words") {
  attn::ExplainOptions options;
  options.n_heads = 2;
  options.projection = attn::Projection::random;
  options.seed = 9;
  options.attention.causal = true;  // ignored for the source, always on for the target
  const auto r = attn::explain_cross(kSource, kTarget, shipped_table(), options);
  REQUIRE(r.source.tokens.size() == 6);
  REQUIRE(r.target.tokens.size() == 7);
  CHECK(bool(r.memory == r.source.block.output));
  CHECK(r.queries_input.shape() == std::array<std::size_t, 2>{7, 100});
  CHECK(r.cross.weights.shape() == std::array<std::size_t, 3>{2, 7, 6});
  CHECK(r.cross.output.shape() == std::array<std::size_t, 2>{7, 100});
  CHECK(r.target.attention.weights.shape() == std::array<std::size_t, 3>{2, 7, 7});
  CHECK(r.target.tokens[2].oov);
  CHECK_FALSE(r.source.tokens[1].oov);
  for (std::size_t h = 0; h < 2; ++h) {
    check_rows_sum_to_one(r.cross.weights, h);
    for (std::size_t i = 0; i < 7; ++i) {
      for (std::size_t j = i + 1; j < 7; ++j) CHECK(r.target.attention.weights(h, i, j) == 0.0f);  // step 1 is causal
    }
  }
  CHECK(r.source.attention.weights(0, 0, 5) > 0.0f);  // the source is bidirectional
}

TEST_CASE("cross-attention: step 2 equals softmax((Y W_Q)(memory W_K)ᵀ / √d_k), recomputed from its inputs") {
  attn::ExplainOptions options;
  options.n_heads = 4;  // identity projections: head h reads columns 25h … 25h + 24
  const auto r = attn::explain_cross(kSource, kTarget, shipped_table(), options);
  const auto y = attn::layer_norm(xt::xtensor<float, 2>(r.target.input + r.target.attention.output));
  const std::size_t d_k = 25;
  for (std::size_t h = 0; h < 4; ++h) {
    for (std::size_t i = 0; i < 7; ++i) {
      std::vector<double> scores(6);
      double max = -1e300, sum = 0.0;
      for (std::size_t j = 0; j < 6; ++j) {
        double dot = 0.0;
        for (std::size_t c = h * d_k; c < (h + 1) * d_k; ++c) dot += double(y(i, c)) * r.memory(j, c);
        scores[j] = dot / std::sqrt(double(d_k));
        max = std::max(max, scores[j]);
      }
      for (double s : scores) sum += std::exp(s - max);
      for (std::size_t j = 0; j < 6; ++j) {
        CHECK(r.cross.weights(h, i, j) == Approx(std::exp(scores[j] - max) / sum).margin(1e-5));
      }
    }
  }
}

TEST_CASE("cross-attention: padded source keys get no weight, an empty sentence gives no step 2") {
  attn::ExplainOptions options;
  options.attention.valid_length = 3;
  const auto r = attn::explain_cross(kSource, kTarget, shipped_table(), options);
  for (std::size_t i = 0; i < 7; ++i) {
    for (std::size_t j = 3; j < 6; ++j) CHECK(r.cross.weights(0, i, j) == 0.0f);
  }
  CHECK(r.target.valid_length == 7);  // the target has no padding
  const auto empty = attn::explain_cross(kSource, "", shipped_table(), attn::ExplainOptions{});
  CHECK(empty.target.tokens.empty());
  CHECK(empty.cross.heads.empty());
  CHECK(attn::explain_cross("", kTarget, shipped_table(), attn::ExplainOptions{}).cross.heads.empty());
}

TEST_CASE("cross-attention: additive scores across sentences") {
  attn::ExplainOptions options;
  options.n_heads = 2;
  options.additive_hidden = 4;
  const auto r = attn::explain_cross(kSource, kTarget, shipped_table(), options);
  REQUIRE(r.additive.size() == 2);
  const auto& head = r.cross.heads[1];
  CHECK(
      bool(head.attention.dot_products == attn::additive_scores(head.inputs.queries, head.inputs.keys, r.additive[1])));
  check_rows_sum_to_one(r.cross.weights, 1);
}
