#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <xtensor/xview.hpp>

#include "../asset.hpp"
#include "attn/lessons/explain.hpp"
#include "attn/lessons/position_checks.hpp"

namespace {

attn::ExplainOptions checked(attn::PositionalKind kind) {
  attn::ExplainOptions options;
  options.n_heads = 4;
  options.projection = attn::Projection::random;
  options.seed = 11;
  options.positional = kind;
  options.position_checks = true;
  options.shuffle_seed = 5;
  return options;
}

float max_abs(const xt::xtensor<float, 2>& m) { return m.size() ? xt::amax(xt::abs(m))() : 0.0f; }

}  // namespace

TEST_CASE("the four score terms sum to each head's scores") {
  for (auto kind : {attn::PositionalKind::sinusoidal, attn::PositionalKind::learned}) {
    auto options = checked(kind);
    options.attention.temperature = 0.7f;
    options.positional_scale = 2.5f;
    const auto t = attn::explain("the dog chased the cat across the garden", shipped_table(), options);
    REQUIRE(t.checks.score_terms.size() == 4);
    for (std::size_t h = 0; h < 4; ++h) {
      const auto& terms = t.checks.score_terms[h];
      const xt::xtensor<float, 2> sum =
          terms.content_content + terms.content_position + terms.position_content + terms.position_position;
      const xt::xtensor<float, 2> scores = xt::view(t.attention.scores, h, xt::all(), xt::all());
      INFO("head " << h << ": max |Σ terms − scores| = " << max_abs(sum - scores) << " of max |score| "
                   << max_abs(scores));
      CHECK(max_abs(sum - scores) < 1e-4f * std::max(1.0f, max_abs(scores)));
      CHECK(max_abs(terms.position_position) > 0.0f);
    }
  }
}

TEST_CASE("with identity projections the content–content term is X Xᵀ / √d_k") {
  auto options = checked(attn::PositionalKind::sinusoidal);
  options.projection = attn::Projection::identity;
  options.n_heads = 1;
  const auto t = attn::explain("river bank money", shipped_table(), options);
  const auto& cc = t.checks.score_terms[0].content_content;
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      double dot = 0.0;
      for (std::size_t c = 0; c < 100; ++c) dot += double(t.embeddings(i, c)) * t.embeddings(j, c);
      CHECK(cc(i, j) == Approx(dot / 10.0).epsilon(1e-5));
    }
  }
}

TEST_CASE("score terms exist only when P is added, and not for designed heads") {
  CHECK(attn::explain("a b", shipped_table(), checked(attn::PositionalKind::rope)).checks.score_terms.empty());
  CHECK(attn::explain("a b", shipped_table(), checked(attn::PositionalKind::none)).checks.score_terms.empty());
  auto options = checked(attn::PositionalKind::sinusoidal);
  options.heads = {attn::HeadSpec{attn::HeadKind::offset, 1}};
  const auto t = attn::explain("a b c", shipped_table(), options);
  CHECK(t.checks.score_terms[0].content_content.size() == 0);
  CHECK(t.checks.score_terms[1].content_content.size() == 9);
}

TEST_CASE("the same word twice: identical q, k, v without position, different with it") {
  const std::string text = "the dog chased the cat";
  const auto none = attn::explain(text, shipped_table(), checked(attn::PositionalKind::none)).checks.repeated;
  REQUIRE(none.size() == 1);
  CHECK(none[0].key == "the");
  CHECK(none[0].first == 0);
  CHECK(none[0].second == 3);
  CHECK(none[0].queries == 0.0f);
  CHECK(none[0].keys == 0.0f);
  CHECK(none[0].values == 0.0f);
  const auto sinusoidal =
      attn::explain(text, shipped_table(), checked(attn::PositionalKind::sinusoidal)).checks.repeated;
  CHECK(sinusoidal[0].queries > 0.05f);
  CHECK(sinusoidal[0].keys > 0.05f);
  CHECK(sinusoidal[0].values > 0.05f);
  // RoPE rotates queries and keys only: the values of the two "the" stay identical.
  const auto rope = attn::explain(text, shipped_table(), checked(attn::PositionalKind::rope)).checks.repeated;
  CHECK(rope[0].queries > 0.05f);
  CHECK(rope[0].values == 0.0f);
  REQUIRE(none[0].heads.size() == 4);
  for (const attn::RowDifference& d : none[0].heads) CHECK((d.queries == 0.0f && d.keys == 0.0f && d.values == 0.0f));
  CHECK(sinusoidal[0].heads[2].queries > 0.05f);
  // Designed heads that read positions by construction tell the two "the" apart with no positional encoding;
  // the semantic head, which reads only the word vectors, does not.
  auto designed = checked(attn::PositionalKind::none);
  designed.heads = {attn::HeadSpec{attn::HeadKind::semantic, 0}, attn::HeadSpec{attn::HeadKind::offset, -1},
                    attn::HeadSpec{attn::HeadKind::first_token, 0}, attn::HeadSpec{attn::HeadKind::projected, 0}};
  const auto mixed = attn::explain(text, shipped_table(), designed).checks.repeated[0].heads;
  CHECK((mixed[0].queries == 0.0f && mixed[0].keys == 0.0f));
  CHECK(mixed[1].keys > 0.05f);
  CHECK(mixed[2].keys > 0.05f);
  CHECK((mixed[3].queries == 0.0f && mixed[3].keys == 0.0f && mixed[3].values == 0.0f));
  CHECK(attn::positional_by_construction(attn::HeadKind::offset));
  CHECK(attn::positional_by_construction(attn::HeadKind::first_token));
  CHECK_FALSE(attn::positional_by_construction(attn::HeadKind::semantic));
  CHECK_FALSE(attn::positional_by_construction(attn::HeadKind::projected));
  // Only the first two occurrences; a masked word is not the word it hides.
  auto options = checked(attn::PositionalKind::none);
  options.masked_positions = {3};
  CHECK(attn::explain("the the the", shipped_table(), checked(attn::PositionalKind::none)).checks.repeated.size() == 1);
  CHECK(attn::explain(text, shipped_table(), options).checks.repeated.empty());
}

TEST_CASE("shuffled_order is a seeded permutation, never the identity") {
  for (std::size_t n : {2, 3, 10, 256}) {
    for (std::uint64_t seed : {0, 1, 2, 99}) {
      auto order = attn::shuffled_order(n, seed);
      CHECK(order == attn::shuffled_order(n, seed));
      CHECK_FALSE(std::is_sorted(order.begin(), order.end()));
      std::sort(order.begin(), order.end());
      for (std::size_t i = 0; i < n; ++i) CHECK(order[i] == i);
    }
  }
  CHECK(attn::shuffled_order(0, 1).empty());
  CHECK(attn::shuffled_order(1, 1) == std::vector<std::size_t>{0});
}

TEST_CASE("shuffled words: attention un-shuffles exactly only without position information") {
  const std::string text = "the quick brown fox jumps over the lazy dog";
  const auto none = attn::explain(text, shipped_table(), checked(attn::PositionalKind::none)).checks.shuffle;
  INFO("none: weights " << none.max_weight_difference << ", output " << none.max_output_difference);
  CHECK(none.max_weight_difference < 1e-6f);  // float32 sums in another order
  CHECK(none.max_output_difference < 1e-5f);
  CHECK(none.order.size() == 9);
  CHECK(none.weights.shape() == std::array<std::size_t, 3>{4, 9, 9});
  for (auto kind : {attn::PositionalKind::sinusoidal, attn::PositionalKind::learned, attn::PositionalKind::rope,
                    attn::PositionalKind::alibi, attn::PositionalKind::t5}) {
    const auto s = attn::explain(text, shipped_table(), checked(kind)).checks.shuffle;
    INFO("kind " << int(kind) << ": weights " << s.max_weight_difference);
    CHECK(s.max_weight_difference > 1e-3f);
  }
  REQUIRE(none.head_weight_differences.size() == 4);
  CHECK(*std::max_element(none.head_weight_differences.begin(), none.head_weight_differences.end()) ==
        none.max_weight_difference);
  auto designed =
      checked(attn::PositionalKind::none);  // an offset head differs by construction, a projected one does not
  designed.heads = {attn::HeadSpec{attn::HeadKind::offset, -1}, attn::HeadSpec{attn::HeadKind::projected, 0}};
  designed.n_heads = 2;
  const auto mixed = attn::explain(text, shipped_table(), designed).checks.shuffle;
  CHECK(mixed.head_weight_differences[0] > 1e-3f);
  CHECK(mixed.head_weight_differences[1] < 1e-6f);
  auto causal = checked(attn::PositionalKind::none);  // the causal mask is position information too
  causal.attention.causal = true;
  CHECK(attn::explain(text, shipped_table(), causal).checks.shuffle.max_weight_difference > 1e-3f);
  const auto t = attn::explain(text, shipped_table(), checked(attn::PositionalKind::none));
  CHECK_THROWS_AS(attn::compare_shuffled(t.attention, t.attention, {0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(attn::compare_shuffled(t.attention, t.attention, {0, 1, 2, 3, 4, 5, 6, 7, 7}), std::invalid_argument);
}

TEST_CASE("norms: ‖p_i‖ = √(d_model/2)·scale for the sinusoidal encoding, and the scales reach the attention") {
  auto options = checked(attn::PositionalKind::sinusoidal);
  options.positional_scale = 0.5f;
  options.embedding_scale = 10.0f;
  const auto t = attn::explain("king queen", shipped_table(), options);
  for (std::size_t i = 0; i < 2; ++i) CHECK(t.checks.positional_norms(i) == Approx(0.5 * std::sqrt(50.0)));
  auto plain = checked(attn::PositionalKind::sinusoidal);
  const auto u = attn::explain("king queen", shipped_table(), plain);
  CHECK(t.checks.embedding_norms(0) == Approx(10.0f * u.checks.embedding_norms(0)));
  CHECK(t.input(1, 3) == Approx(10.0f * u.embeddings(1, 3) + 0.5f * u.positional(1, 3)));
  options.positional_scale = 0.0f;  // no position at all: like 'none'
  CHECK(attn::explain("a b a", shipped_table(), options).checks.repeated[0].queries == 0.0f);
  for (float bad : {-1.0f, 101.0f, NAN}) {
    options.positional_scale = bad;
    CHECK_THROWS_WITH(attn::explain("a", shipped_table(), options), Catch::Contains("positionalScale"));
  }
  options.positional_scale = 1.0f;
  options.embedding_scale = 0.0f;
  CHECK_THROWS_WITH(attn::explain("a", shipped_table(), options), Catch::Contains("embeddingScale"));
}

TEST_CASE("position checks on an empty sentence are empty") {
  const auto t = attn::explain("  ", shipped_table(), checked(attn::PositionalKind::sinusoidal));
  CHECK(t.checks.repeated.empty());
  CHECK(t.checks.shuffle.order.empty());
  CHECK(t.checks.embedding_norms.size() == 0);
}
