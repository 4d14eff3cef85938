#include <catch2/catch.hpp>

#include "attn/core/encoder_block.hpp"
#include "attn/core/layer_norm.hpp"
#include "attn/core/random.hpp"

TEST_CASE("encoder block: residual, LayerNorm, ReLU feed-forward, residual, LayerNorm") {
  const std::size_t n = 3, d = 4, d_ff = 16;
  const auto input = attn::glorot_uniform(n, d, 1) * 3.0f;
  const auto attention = attn::glorot_uniform(n, d, 2);
  const auto ffn = attn::random_feed_forward(d, d_ff, 9);
  const auto r = attn::encoder_block_after_attention(input, attention, ffn);
  CHECK(r.hidden.shape() == std::array<std::size_t, 2>{n, d_ff});
  // Independent recomputation with plain loops.
  const xt::xtensor<float, 2> residual1 = input + attention;
  const auto norm1 = attn::layer_norm(residual1);
  xt::xtensor<float, 2> residual2 = norm1;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t h = 0; h < d_ff; ++h) {
      double z = 0.0;
      for (std::size_t t = 0; t < d; ++t) z += double(norm1(i, t)) * ffn.w1(t, h);
      const double relu = z > 0 ? z : 0.0;
      CHECK(r.hidden(i, h) == Approx(relu).margin(1e-5));
      for (std::size_t t = 0; t < d; ++t) residual2(i, t) += static_cast<float>(relu * ffn.w2(h, t));
    }
  }
  const auto expected = attn::layer_norm(residual2);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) CHECK(r.output(i, t) == Approx(expected(i, t)).margin(1e-4));
}

TEST_CASE("feed-forward weights are seeded, Glorot-bounded, with zero biases") {
  const auto a = attn::random_feed_forward(10, 40, 3), b = attn::random_feed_forward(10, 40, 3);
  CHECK(a.w1 == b.w1);
  CHECK(a.w2 == b.w2);
  CHECK(xt::amax(xt::abs(a.w1))() < std::sqrt(6.0f / 50.0f));
  CHECK(xt::amax(xt::abs(a.b1))() == 0.0f);
  CHECK_THROWS_AS(attn::random_feed_forward(0, 4, 1), std::out_of_range);
  CHECK_THROWS_AS(attn::encoder_block_after_attention(xt::ones<float>({2, 10}), xt::ones<float>({2, 9}), a),
                  std::invalid_argument);
}
