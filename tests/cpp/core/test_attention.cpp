#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "attn/core/attention.hpp"
#include "attn/core/random.hpp"

namespace {
const xt::xtensor<float, 2> kQ3 = {{1, 0}, {0, 1}, {1, 1}};
const xt::xtensor<float, 2> kV3 = {{1, 2}, {3, 4}, {5, 6}};

xt::xtensor<float, 2> random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed, float scale = 1.0f) {
  attn::SplitMix64 rng(seed);
  xt::xtensor<float, 2> m = xt::empty<float>({rows, cols});
  for (auto& x : m) x = (2.0f * rng.uniform() - 1.0f) * scale;
  return m;
}
}  // namespace

TEST_CASE("hand-worked 3-token case: Q = K = [[1,0],[0,1],[1,1]], V = [[1,2],[3,4],[5,6]]") {
  // Worked by hand: scores = Q Qᵀ / √2; softmax per row; weights · V.
  const auto r = attn::scaled_dot_product_attention(kQ3, kQ3, kV3);
  const float s = 1.0f / std::sqrt(2.0f);
  CHECK(r.scores(0, 0) == Approx(s));
  CHECK(r.scores(0, 1) == Approx(0.0f).margin(1e-7));
  CHECK(r.scores(2, 2) == Approx(2 * s));
  const float expected_w[3][3] = {
      {0.401112f, 0.197776f, 0.401112f}, {0.197776f, 0.401112f, 0.401112f}, {0.248255f, 0.248255f, 0.503490f}};
  const float expected_o[3][2] = {{3.000000f, 4.000000f}, {3.406673f, 4.406673f}, {3.510470f, 4.510470f}};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) CHECK(r.weights(i, j) == Approx(expected_w[i][j]).margin(2e-6));
    for (int c = 0; c < 2; ++c) CHECK(r.output(i, c) == Approx(expected_o[i][c]).margin(1e-5));
  }
}

TEST_CASE("causal mask: upper triangle exactly 0, masked scores −∞, hand-worked rows") {
  attn::AttentionOptions options;
  options.causal = true;
  const auto r = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options);
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      CHECK(r.weights(i, j) == 0.0f);
      CHECK(r.scores(i, j) == -std::numeric_limits<float>::infinity());
    }
  }
  CHECK(r.weights(0, 0) == 1.0f);
  CHECK(r.weights(1, 0) == Approx(0.330238f));
  CHECK(r.weights(1, 1) == Approx(0.669762f));
  CHECK(r.output(1, 0) == Approx(2.339523f));
}

TEST_CASE("own position masked: a query with no other key attends to itself, and only padding empties a row") {
  attn::AttentionOptions options;
  options.mask_diagonal = true;
  options.causal = true;
  const auto r = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options);
  // Row 0 may see key 0 only (causal), which is itself: weight 1 there, output v_0.
  CHECK(r.weights(0, 0) == 1.0f);
  CHECK(std::isfinite(r.scores(0, 0)));
  CHECK(r.output(0, 0) == 1.0f);
  CHECK(r.output(0, 1) == 2.0f);
  // Later rows keep their own position masked: row 1 sees key 0 only, row 2 keys 0 and 1.
  CHECK(r.scores(1, 1) == -std::numeric_limits<float>::infinity());
  CHECK(r.weights(1, 0) == 1.0f);
  CHECK(r.weights(2, 2) == 0.0f);
  CHECK(r.weights(2, 0) + r.weights(2, 1) == Approx(1.0f));
  // Padding: with valid_length 1, query 0's only key is itself (attends to it); with 0, every row is empty.
  options.causal = false;
  options.valid_length = 1;
  const auto one = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options);
  CHECK(one.weights(0, 0) == 1.0f);
  CHECK(one.weights(2, 0) == 1.0f);
  options.valid_length = 0;
  const auto none = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options);
  for (float w : none.weights) CHECK(w == 0.0f);
}

TEST_CASE("rows sum to 1 for random inputs, masks and temperatures") {
  const auto q = random_matrix(17, 8, 1, 3.0f), k = random_matrix(17, 8, 2, 3.0f), v = random_matrix(17, 5, 3);
  for (bool causal : {false, true}) {
    for (float tau : {0.05f, 1.0f, 5.0f}) {
      attn::AttentionOptions options;
      options.causal = causal;
      options.temperature = tau;
      options.valid_length = 11;
      const auto r = attn::scaled_dot_product_attention(q, k, v, options);
      for (std::size_t i = 0; i < 17; ++i) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < 17; ++j) {
          if (j >= 11) REQUIRE(r.weights(i, j) == 0.0f);  // padding keys are exactly 0
          REQUIRE(r.weights(i, j) >= 0.0f);
          sum += r.weights(i, j);
        }
        REQUIRE(sum == Approx(1.0f).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("temperature divides the scores") {
  attn::AttentionOptions hot;
  hot.temperature = 2.0f;
  const auto a = attn::scaled_dot_product_attention(kQ3, kQ3, kV3);
  const auto b = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, hot);
  CHECK(b.scores(2, 2) == Approx(a.scores(2, 2) / 2.0f));
}

TEST_CASE("softmax is stable for huge scores and a fully masked row is zeros, not NaN") {
  const float inf = std::numeric_limits<float>::infinity();
  const xt::xtensor<float, 2> scores = {{1e30f, 1e30f, -1e30f}, {-inf, -inf, -inf}, {88.0f, 89.0f, -inf}};
  const auto w = attn::masked_softmax(scores);
  CHECK(w(0, 0) == Approx(0.5f));
  CHECK(w(0, 2) == 0.0f);
  for (int j = 0; j < 3; ++j) CHECK(w(1, j) == 0.0f);
  CHECK(w(2, 0) + w(2, 1) == Approx(1.0f));
  attn::AttentionOptions none_valid;
  none_valid.valid_length = 0;
  const auto r = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, none_valid);
  for (float x : r.output) CHECK(x == 0.0f);
}

TEST_CASE("attention rejects every invalid argument") {
  const xt::xtensor<float, 2> k3 = {{1, 0, 0}};
  attn::AttentionOptions options;
  CHECK_THROWS_AS(attn::scaled_dot_product_attention(kQ3, k3, kV3), std::invalid_argument);
  CHECK_THROWS_AS(attn::scaled_dot_product_attention(kQ3, kQ3, xt::xtensor<float, 2>({{1, 2}})), std::invalid_argument);
  options.temperature = 0.0f;
  CHECK_THROWS_AS(attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options), std::out_of_range);
  options.temperature = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options), Catch::Contains("temperature"));
  options = {};
  options.valid_length = 4;
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(kQ3, kQ3, kV3, options), Catch::Contains("valid_length"));
  xt::xtensor<float, 2> bad = kQ3;
  bad(1, 1) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(bad, kQ3, kV3), Catch::Contains("queries"));
  const xt::xtensor<float, 2> nan_scores = {{std::numeric_limits<float>::quiet_NaN()}};
  CHECK_THROWS_AS(attn::masked_softmax(nan_scores), std::invalid_argument);
}

TEST_CASE("without 1/√d_k the scores are the raw dot products, entropy is in bits") {
  attn::AttentionOptions unscaled;
  unscaled.scale = false;
  const auto r = attn::scaled_dot_product_attention(kQ3, kQ3, kV3, unscaled);
  CHECK(r.scores(2, 2) == Approx(2.0f));
  const xt::xtensor<float, 2> w = {{0.25f, 0.25f, 0.25f, 0.25f}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
  const auto h = attn::row_entropy_bits(w);
  CHECK(h(0) == Approx(2.0f));
  CHECK(h(1) == 0.0f);
  CHECK(h(2) == 0.0f);
  CHECK(h(3) == Approx(1.0f));
}

TEST_CASE("numerical edges: huge scores, temperature near 0, d = 1, one token, denormals") {
  // Scores beyond float32 become ±inf: weights stay finite, non-negative and sum to 1.
  const xt::xtensor<float, 2> big = {{3e19f, 1e19f}, {-3e19f, 2e19f}};
  const auto r = attn::scaled_dot_product_attention(big, big, xt::xtensor<float, 2>({{1, 2}, {3, 4}}));
  for (std::size_t i = 0; i < 2; ++i) {
    float sum = 0.0f;
    for (std::size_t j = 0; j < 2; ++j) {
      REQUIRE(std::isfinite(r.weights(i, j)));
      sum += r.weights(i, j);
    }
    CHECK(sum == Approx(1.0f));
  }
  for (float x : r.output) CHECK(std::isfinite(x));
  // τ → 0 tends to argmax; ties share the weight.
  attn::AttentionOptions cold;
  cold.temperature = 1e-38f;
  const xt::xtensor<float, 2> q = {{1, 0}}, k = {{1, 0}, {0.5f, 0}, {1, 0}, {0, 0}}, v = {{1}, {2}, {3}, {4}};
  const auto a = attn::scaled_dot_product_attention(q, k, v, cold);
  CHECK(a.weights(0, 0) == 0.5f);
  CHECK(a.weights(0, 1) == 0.0f);
  CHECK(a.weights(0, 2) == 0.5f);
  CHECK(a.weights(0, 3) == 0.0f);
  CHECK(a.output(0, 0) == Approx(2.0f));
  // d = 1 and a single token.
  const xt::xtensor<float, 2> one = {{0.7f}};
  const auto s = attn::scaled_dot_product_attention(one, one, one);
  CHECK(s.weights(0, 0) == 1.0f);
  CHECK(s.output(0, 0) == Approx(0.7f));
  // Denormal inputs: no NaN, uniform weights.
  const xt::xtensor<float, 2> tiny = {{1e-40f, 1e-41f}, {1e-42f, 1e-40f}};
  const auto t = attn::scaled_dot_product_attention(tiny, tiny, tiny);
  for (float w : t.weights) CHECK(w == Approx(0.5f));
}

TEST_CASE("requests above the memory budget are refused before allocating") {
  const xt::xtensor<float, 2> q = xt::zeros<float>({std::size_t(5000), std::size_t(1)});
  CHECK_THROWS_AS(attn::scaled_dot_product_attention(q, q, q), std::out_of_range);
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, q, q), Catch::Contains("limit"));
}

TEST_CASE("attention with another normalizer: sparse weights are exact zeros, as normalize gives them") {
  attn::SplitMix64 rng(17);
  xt::xtensor<float, 2> q = xt::empty<float>({std::size_t(6), std::size_t(8)}), k = q, v = q;
  for (auto* m : {&q, &k, &v})
    for (float& x : *m) x = 3.0f * (rng.uniform() - 0.5f);
  for (const auto method : {attn::Normalizer::sparsemax, attn::Normalizer::entmax15, attn::Normalizer::hardmax}) {
    attn::AttentionOptions options;
    options.causal = true;
    options.normalizer = method;
    const auto r = attn::scaled_dot_product_attention(q, k, v, options);
    const auto expected = attn::normalize(r.scores, method);
    REQUIRE(r.weights == expected);
    std::size_t zeros = 0;
    for (std::size_t i = 0; i < 6; ++i) {
      float sum = 0;
      for (std::size_t j = 0; j < 6; ++j) {
        sum += r.weights(i, j);
        if (j > i) CHECK(r.weights(i, j) == 0.0f);  // causal
        else if (r.weights(i, j) == 0.0f) ++zeros;
      }
      CHECK(sum == Approx(1.0f));
    }
    CHECK(zeros > 0);  // visible keys with exactly zero weight: what softmax never gives
  }
}
