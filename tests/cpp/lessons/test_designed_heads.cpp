#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "../asset.hpp"
#include "attn/core/positional.hpp"
#include "attn/lessons/designed_heads.hpp"
#include "attn/lessons/explain.hpp"

namespace {
std::size_t row_argmax(const xt::xtensor<float, 2>& w, std::size_t i) {
  std::size_t best = 0;
  for (std::size_t j = 1; j < w.shape(1); ++j)
    if (w(i, j) > w(i, best)) best = j;
  return best;
}

attn::AttentionResult run(const attn::HeadSpec& spec, std::size_t seq_len, std::size_t d_k) {
  const xt::xtensor<float, 2> x = attn::sinusoidal_encoding(seq_len, 100, 77.0);  // any word vectors
  const xt::xtensor<float, 2> values = xt::zeros<float>({seq_len, d_k});
  const auto head = attn::designed_head(spec, x, values);
  return attn::scaled_dot_product_attention(head.queries, head.keys, head.values, attn::head_options(spec, {}));
}
}  // namespace

TEST_CASE("offset heads put each row's maximum at j = i + δ wherever that exists") {
  for (int delta : {-1, 1, 2, -3, 5}) {
    for (std::size_t d_k : {1, 2, 10, 25, 100}) {
      const std::size_t seq_len = 40;
      const auto r = run({attn::HeadKind::offset, delta}, seq_len, d_k);
      for (std::size_t i = 0; i < seq_len; ++i) {
        const long target = static_cast<long>(i) + delta;
        if (target < 0 || target >= static_cast<long>(seq_len)) continue;
        INFO("delta " << delta << " d_k " << d_k << " row " << i);
        CHECK(row_argmax(r.weights, i) == static_cast<std::size_t>(target));
      }
    }
  }
}

TEST_CASE("the offset head reaches its target through the rotation of P") {
  const auto p = attn::sinusoidal_encoding(30, 26);
  const auto rotated = attn::rotate_encoding(p, 3);
  const auto later = attn::sinusoidal_encoding(33, 26);
  double max_err = 0.0;
  for (std::size_t i = 0; i < 30; ++i)
    for (std::size_t c = 0; c < 26; ++c) max_err = std::max(max_err, double(std::abs(rotated(i, c) - later(i + 3, c))));
  INFO("max |R(δ) p_i − p_{i+δ}| = " << max_err);
  CHECK(max_err < 1e-5);
  CHECK_THROWS_AS(attn::rotate_encoding(attn::sinusoidal_encoding(3, 5), 1), std::invalid_argument);
}

TEST_CASE("first-token head attends to position 0, uniform head weighs every key 1/n") {
  const auto first = run({attn::HeadKind::first_token, 0}, 12, 20);
  for (std::size_t i = 0; i < 12; ++i) CHECK(row_argmax(first.weights, i) == 0);
  CHECK(first.weights(7, 0) > 4.0f / 12.0f);  // well above uniform (1/12)
  const auto uniform = run({attn::HeadKind::uniform, 0}, 9, 20);
  for (float w : uniform.weights) CHECK(w == Approx(1.0f / 9.0f));
}

TEST_CASE("semantic head: words attend to the most similar other word, never to themselves") {
  attn::ExplainOptions options;
  options.heads = {{attn::HeadKind::semantic, 0}};
  const auto t = attn::explain("river money muddy bank", shipped_table(), options);
  const auto& w = t.attention.heads[0].attention.weights;
  for (std::size_t i = 0; i < 4; ++i) CHECK(w(i, i) == 0.0f);
  CHECK(row_argmax(w, 3) == 1);  // bank → money over river and muddy
  CHECK(w(3, 0) > w(3, 2));      // bank → river over bank → muddy
  CHECK(t.attention.heads[0].inputs.queries.shape(1) == 100);
}

TEST_CASE("semantic head with a causal mask: the first word has no earlier word and attends to itself") {
  attn::ExplainOptions options;
  options.heads = {{attn::HeadKind::semantic, 0}};
  options.attention.causal = true;
  const auto t = attn::explain("the river bank was muddy", shipped_table(), options);
  const auto& w = t.attention.heads[0].attention.weights;
  CHECK(w(0, 0) == 1.0f);
  for (std::size_t i = 1; i < 5; ++i) {
    CHECK(w(i, i) == 0.0f);  // every later word still looks only at other words
    float sum = 0.0f;
    for (std::size_t j = 0; j < 5; ++j) sum += w(i, j);
    CHECK(sum == Approx(1.0f));
  }
}

TEST_CASE("semantic head: in the river bank was muddy, bank attends to river and muddy, not the and was") {
  // The head compares all-but-the-top vectors (EmbeddingTable::post_processed): by raw cosine, bank
  // would prefer "the" (0.54) and "was" (0.44) over "river" (0.34) and "muddy" (0.10).
  attn::ExplainOptions options;
  options.heads = {{attn::HeadKind::semantic, 0}};
  options.embedding_scale = 10.0f;  // scaling X changes nothing here: the head reads unscaled vectors
  const auto t = attn::explain("the river bank was muddy", shipped_table(), options);
  const auto& w = t.attention.heads[0].attention.weights;
  INFO("bank → the " << w(2, 0) << ", river " << w(2, 1) << ", was " << w(2, 3) << ", muddy " << w(2, 4));
  CHECK(std::min(w(2, 1), w(2, 4)) > std::max(w(2, 0), w(2, 3)));
  CHECK(row_argmax(w, 2) == 1);
  // X itself keeps the raw vectors.
  const auto& table = shipped_table();
  const auto bank = table.vector(static_cast<std::size_t>(table.id_of("bank")));
  CHECK(t.embeddings(2, 0) == Approx(10.0f * bank(0)));
}

TEST_CASE("designed heads reject a projected spec and huge offsets") {
  const xt::xtensor<float, 2> x = xt::ones<float>({3, 4}), v = xt::ones<float>({3, 2});
  CHECK_THROWS_AS(attn::designed_head({attn::HeadKind::projected, 0}, x, v), std::invalid_argument);
  CHECK_THROWS_AS(attn::designed_head({attn::HeadKind::offset, 5000}, x, v), std::out_of_range);
}

TEST_CASE("kDesignedHeads: four distinct kinds of head, each a name head_spec_from_name reads") {
  std::vector<std::pair<int, int>> specs;
  for (const char* name : attn::kDesignedHeads) {
    const auto spec = attn::head_spec_from_name(name, 0, "designedHeads");
    specs.emplace_back(static_cast<int>(spec.kind), spec.offset);
  }
  REQUIRE(specs.size() == 4);
  CHECK(specs == std::vector<std::pair<int, int>>{{static_cast<int>(attn::HeadKind::semantic), 0},
                                                  {static_cast<int>(attn::HeadKind::offset), -1},
                                                  {static_cast<int>(attn::HeadKind::offset), +1},
                                                  {static_cast<int>(attn::HeadKind::first_token), 0}});
}

TEST_CASE("head_spec_from_name: table names, the previous/next aliases, and unknown names throw") {
  CHECK(attn::head_spec_from_name("semantic", 7, "heads[0].kind").kind == attn::HeadKind::semantic);
  CHECK(attn::head_spec_from_name("semantic", 7, "heads[0].kind").offset == 0);  // the offset belongs to offset heads
  const auto offset = attn::head_spec_from_name("offset", -3, "heads[0].kind");
  CHECK(offset.kind == attn::HeadKind::offset);
  CHECK(offset.offset == -3);
  const auto previous = attn::head_spec_from_name("previous", 5, "heads[1].kind");
  CHECK(previous.kind == attn::HeadKind::offset);
  CHECK(previous.offset == -1);
  CHECK(attn::head_spec_from_name("next", 0, "heads[1].kind").offset == 1);
  CHECK(attn::head_spec_from_name("first", 0, "heads[1].kind").kind == attn::HeadKind::first_token);
  try {
    attn::head_spec_from_name("sideways", 0, "heads[2].kind");
    FAIL("no exception for 'sideways'");
  } catch (const std::out_of_range& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.rfind(
              "heads[2].kind must be one of 'projected', 'semantic', 'offset', 'first', 'uniform', 'previous', 'next'",
              0) == 0);
    CHECK(message.find("got 'sideways'") != std::string::npos);
  }
}
