#include <catch2/catch.hpp>

#include <xtensor/xview.hpp>

#include "attn/core/multi_head.hpp"
#include "attn/core/random.hpp"

namespace {
xt::xtensor<float, 2> random_input(std::size_t seq_len, std::size_t d_model, std::uint64_t seed) {
  attn::SplitMix64 rng(seed);
  xt::xtensor<float, 2> x = xt::empty<float>({seq_len, d_model});
  for (auto& v : x) v = 2.0f * rng.uniform() - 1.0f;
  return x;
}
}  // namespace

TEST_CASE("one identity head is plain attention of the input on itself") {
  const auto x = random_input(6, 8, 1);
  const auto mh = attn::multi_head_attention(x, 1, attn::identity_projections(8));
  const auto single = attn::scaled_dot_product_attention(x, x, x);
  REQUIRE(mh.weights.shape() == std::array<std::size_t, 3>{1, 6, 6});
  double max_diff = 0.0;
  for (std::size_t i = 0; i < 6; ++i) {
    for (std::size_t j = 0; j < 6; ++j)
      max_diff = std::max(max_diff, double(std::abs(mh.weights(0, i, j) - single.weights(i, j))));
    for (std::size_t c = 0; c < 8; ++c)
      max_diff = std::max(max_diff, double(std::abs(mh.output(i, c) - single.output(i, c))));
  }
  CHECK(max_diff < 1e-6);
}

TEST_CASE("head h uses columns h·d_k … (h+1)·d_k − 1 and concat · W_O is the output") {
  const std::size_t d_model = 12, heads = 3, d_k = 4;
  const auto x = random_input(5, d_model, 2);
  const auto p = attn::random_projections(d_model, 9);
  const auto r = attn::multi_head_attention(x, heads, p);
  // Independent reference: project, slice, attend, concatenate, project, with plain loops.
  for (std::size_t h = 0; h < heads; ++h) {
    xt::xtensor<float, 2> q = xt::zeros<float>({std::size_t(5), d_k}), k = q, v = q;
    for (std::size_t i = 0; i < 5; ++i) {
      for (std::size_t c = 0; c < d_k; ++c) {
        for (std::size_t t = 0; t < d_model; ++t) {
          q(i, c) += x(i, t) * p.w_q(t, h * d_k + c);
          k(i, c) += x(i, t) * p.w_k(t, h * d_k + c);
          v(i, c) += x(i, t) * p.w_v(t, h * d_k + c);
        }
      }
    }
    const auto ref = attn::scaled_dot_product_attention(q, k, v);
    for (std::size_t i = 0; i < 5; ++i) {
      for (std::size_t c = 0; c < d_k; ++c) {
        CHECK(r.heads[h].inputs.queries(i, c) == Approx(q(i, c)).margin(1e-5));
        CHECK(r.concat(i, h * d_k + c) == Approx(ref.output(i, c)).margin(1e-5));
      }
    }
  }
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t c = 0; c < d_model; ++c) {
      double o = 0.0;
      for (std::size_t t = 0; t < d_model; ++t) o += double(r.concat(i, t)) * p.w_o(t, c);
      CHECK(r.output(i, c) == Approx(o).margin(1e-5));
    }
  }
}

TEST_CASE("without positional encoding, self-attention is permutation equivariant") {
  const std::size_t seq_len = 7, d_model = 10;
  const auto x = random_input(seq_len, d_model, 3);
  const std::size_t perm[seq_len] = {3, 0, 6, 1, 5, 2, 4};
  xt::xtensor<float, 2> xp = xt::empty<float>({seq_len, d_model});
  for (std::size_t i = 0; i < seq_len; ++i) xt::view(xp, i) = xt::view(x, perm[i]);
  const auto p = attn::random_projections(d_model, 4);
  const auto a = attn::multi_head_attention(x, 2, p), b = attn::multi_head_attention(xp, 2, p);
  double max_diff = 0.0;
  for (std::size_t h = 0; h < 2; ++h) {
    for (std::size_t i = 0; i < seq_len; ++i) {
      for (std::size_t j = 0; j < seq_len; ++j) {
        max_diff = std::max(max_diff, double(std::abs(b.weights(h, i, j) - a.weights(h, perm[i], perm[j]))));
      }
    }
  }
  for (std::size_t i = 0; i < seq_len; ++i) {
    for (std::size_t c = 0; c < d_model; ++c)
      max_diff = std::max(max_diff, double(std::abs(b.output(i, c) - a.output(perm[i], c))));
  }
  INFO("max abs difference after un-permuting " << max_diff);
  CHECK(max_diff < 1e-6);
}

TEST_CASE("random projections are seeded and Glorot-bounded") {
  const auto a = attn::random_projections(10, 5), b = attn::random_projections(10, 5),
             c = attn::random_projections(10, 6);
  CHECK(a.w_q == b.w_q);
  CHECK(a.w_o == b.w_o);
  CHECK(a.w_q != c.w_q);
  CHECK(a.w_q != a.w_k);
  CHECK(xt::amax(xt::abs(a.w_v))() < std::sqrt(6.0f / 20.0f));
}

TEST_CASE("multi-head attention rejects invalid arguments") {
  const auto x = random_input(3, 10, 1);
  const auto p = attn::identity_projections(10);
  CHECK_THROWS_AS(attn::multi_head_attention(x, 0, p), std::out_of_range);
  CHECK_THROWS_AS(attn::multi_head_attention(x, 3, p), std::out_of_range);
  CHECK_THROWS_WITH(attn::multi_head_attention(x, 3, p), Catch::Contains("n_heads"));
  CHECK_THROWS_AS(attn::multi_head_attention(x, 2, attn::identity_projections(8)), std::invalid_argument);
  CHECK_THROWS_AS(attn::identity_projections(0), std::out_of_range);
}

TEST_CASE("multi-head attention refuses n_heads × seq_len² above the budget") {
  const auto x = random_input(1100, 16, 1);
  CHECK_THROWS_WITH(attn::multi_head_attention(x, 16, attn::identity_projections(16)), Catch::Contains("64 MB"));
}
