#include <catch2/catch.hpp>

#include <xtensor/xview.hpp>

#include "../asset.hpp"
#include "attn/core/positional.hpp"
#include "attn/lessons/explain.hpp"

TEST_CASE("explain traces every step with consistent shapes") {
  attn::ExplainOptions options;
  options.n_heads = 4;
  options.projection = attn::Projection::random;
  options.seed = 3;
  const auto t = attn::explain("The river bank was muddy after the storm", shipped_table(), options);
  REQUIRE(t.tokens.size() == 8);
  CHECK_FALSE(t.truncated);
  CHECK(t.embeddings.shape() == std::array<std::size_t, 2>{8, 100});
  REQUIRE(t.attention.heads.size() == 4);
  CHECK(t.attention.heads[3].inputs.queries.shape() == std::array<std::size_t, 2>{8, 25});
  CHECK(t.block.hidden.shape() == std::array<std::size_t, 2>{8, 400});
  CHECK(t.projection.coordinates.shape() == std::array<std::size_t, 2>{16, 2});
  CHECK(t.attention.weights.shape() == std::array<std::size_t, 3>{4, 8, 8});
  CHECK(t.attention.output.shape() == std::array<std::size_t, 2>{8, 100});
  CHECK(t.input == t.embeddings + attn::sinusoidal_encoding(8, 100));
  for (const auto& token : t.tokens) CHECK_FALSE(token.oov);
}

TEST_CASE("explain without positional encoding feeds X itself, unknown words are flagged") {
  attn::ExplainOptions options;
  options.positional = attn::PositionalKind::none;
  const auto t = attn::explain("bank blorptastic", shipped_table(), options);
  CHECK(t.input == t.embeddings);
  CHECK(t.positional(0, 1) == 1.0f);  // P is still traced for the page
  CHECK_FALSE(t.tokens[0].oov);
  CHECK(t.tokens[1].oov);
  CHECK(t.tokens[1].id == -1);
}

TEST_CASE("explain cuts long text at max_tokens and handles empty text") {
  std::string text;
  for (int i = 0; i < 300; ++i) text += "word ";
  const auto t = attn::explain(text, shipped_table(), {});
  CHECK(t.tokens.size() == attn::kMaxTokens);
  CHECK(t.total_tokens == 300);
  CHECK(t.truncated);
  const auto empty = attn::explain("   ", shipped_table(), {});
  CHECK(empty.tokens.empty());
  CHECK(empty.attention.weights.shape() == std::array<std::size_t, 3>{1, 0, 0});
}

TEST_CASE("explain clamps valid_length to the sentence and rejects bad options") {
  attn::ExplainOptions options;
  options.attention.valid_length = 50;
  CHECK(attn::explain("a b c", shipped_table(), options).attention.weights(0, 2, 2) > 0.0f);
  options.attention.valid_length = 2;
  CHECK(attn::explain("a b c", shipped_table(), options).attention.weights(0, 0, 2) == 0.0f);
  options = {};
  options.n_heads = 3;
  CHECK_THROWS_WITH(attn::explain("a", shipped_table(), options), Catch::Contains("numHeads"));
  options = {};
  options.max_tokens = 0;
  CHECK_THROWS_AS(attn::explain("a", shipped_table(), options), std::out_of_range);
}

TEST_CASE("masking replaces a word's vector by the fixed mean vector, padding keys get weight 0") {
  attn::ExplainOptions options;
  options.masked_positions = {2};
  options.attention.valid_length = 3;
  const auto t = attn::explain("the river bank was muddy", shipped_table(), options);
  CHECK(t.tokens[2].masked);
  CHECK_FALSE(t.tokens[1].masked);
  const auto& mask = shipped_table().mask_vector();
  for (std::size_t c = 0; c < 100; ++c) CHECK(t.embeddings(2, c) == mask(c));
  double mean0 = 0.0;  // the mask vector is the vocabulary mean
  for (std::size_t r = 0; r < shipped_table().vocab_size(); ++r) mean0 += shipped_table().vector(r)(0);
  CHECK(mask(0) == Approx(mean0 / shipped_table().vocab_size()).margin(1e-6));
  CHECK(t.valid_length == 3);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 3; j < 5; ++j) CHECK(t.attention.weights(0, i, j) == 0.0f);
  options.masked_positions = {5};  // beyond the sentence: ignored
  for (const auto& token : attn::explain("the river bank was muddy", shipped_table(), options).tokens)
    CHECK_FALSE(token.masked);
}

TEST_CASE("compare_contexts shares one PCA across two sentences") {
  attn::ExplainOptions options;
  options.positional = attn::PositionalKind::none;
  const auto c =
      attn::compare_contexts("the river bank was muddy", "she deposited money at the bank", shipped_table(), options);
  REQUIRE(c.projection.coordinates.shape(0) == 2 * 5 + 2 * 6);
  // "bank" starts at the same point in both sentences (row 2 of the first, row 10 + 5 of the second).
  CHECK(c.projection.coordinates(2, 0) == Approx(c.projection.coordinates(10 + 5, 0)).margin(1e-5));
  CHECK(c.projection.coordinates(2, 1) == Approx(c.projection.coordinates(10 + 5, 1)).margin(1e-5));
  CHECK(c.first.projection.coordinates.size() == 0);
}

TEST_CASE("explain with prepared weights equals explain without, and refuses weights of another configuration") {
  attn::ExplainOptions options;
  options.projection = attn::Projection::random;
  options.seed = 5;
  const auto weights = attn::model_weights(100, attn::Projection::random, 5);
  const auto a = attn::explain("the river bank", shipped_table(), options);
  const auto b = attn::explain("the river bank", shipped_table(), options, weights);
  CHECK(a.block.output == b.block.output);
  options.seed = 6;
  CHECK_THROWS_WITH(attn::explain("the river bank", shipped_table(), options, weights),
                    Catch::Contains("another configuration"));
}
