#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "../asset.hpp"
#include "attn/core/positional_variants.hpp"
#include "attn/core/random.hpp"
#include "attn/lessons/explain.hpp"

namespace {
xt::xtensor<float, 2> one_row(const std::vector<float>& v) {
  xt::xtensor<float, 2> m = xt::empty<float>({std::size_t(1), v.size()});
  std::copy(v.begin(), v.end(), m.begin());
  return m;
}
}  // namespace

TEST_CASE("RoPE: q·k depends only on the offset between the two positions") {
  const std::vector<float> q = {0.3f, -1.2f, 0.7f, 0.5f, 2.0f, -0.4f, 0.1f, 0.9f},
                           k = {1.1f, 0.2f, -0.6f, 0.8f, -0.3f, 0.5f, 0.7f, -1.0f};
  const std::size_t n = 40, d = q.size();
  xt::xtensor<float, 2> qs = xt::empty<float>({n, d}), ks = xt::empty<float>({n, d});
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < d; ++c) {
      qs(i, c) = q[c];
      ks(i, c) = k[c];
    }
  const auto rq = attn::apply_rope(qs), rk = attn::apply_rope(ks);
  auto dot = [&](std::size_t i, std::size_t j) {
    double s = 0.0;
    for (std::size_t c = 0; c < d; ++c) s += double(rq(i, c)) * rk(j, c);
    return s;
  };
  for (std::size_t offset : {0, 1, 5, 17}) {
    const double first = dot(0, offset);
    for (std::size_t i = 1; i + offset < n; i += 7) CHECK(dot(i, i + offset) == Approx(first).margin(1e-4));
  }
  CHECK(std::abs(dot(0, 1) - dot(0, 5)) > 1e-3);  // and it does depend on the offset
  // Position 0 is not rotated; rotation keeps each pair's length.
  CHECK(rq(0, 0) == q[0]);
  CHECK(std::hypot(rq(9, 2), rq(9, 3)) == Approx(std::hypot(q[2], q[3])));
}

TEST_CASE("ALiBi: slopes 2^(−8h/n) and bias −m·|i − j|") {
  const auto m8 = attn::alibi_slopes(8);
  for (std::size_t h = 1; h <= 8; ++h) CHECK(m8(h - 1) == Approx(std::pow(2.0, -double(h))));
  const auto m4 = attn::alibi_slopes(4);
  CHECK(m4(0) == Approx(0.25));
  CHECK(m4(3) == Approx(1.0 / 256));
  const auto bias = attn::alibi_bias(5, 0.5f);
  CHECK(bias(0, 0) == 0.0f);
  CHECK(bias(1, 4) == -1.5f);
  CHECK(bias(4, 1) == -1.5f);
  CHECK_THROWS_AS(attn::alibi_slopes(0), std::out_of_range);
}

TEST_CASE("ALiBi 'reference' slopes: the authors' get_slopes(), equal to the paper's rule for powers of 2") {
  // get_slopes(5) worked by hand: get_slopes_power_of_2(4) = 2^-2, 2^-4, 2^-6, 2^-8, then
  // get_slopes(8)[0::2][:1] = 2^-1.
  const auto m5 = attn::alibi_slopes(5, attn::AlibiSlopes::reference);
  const double expected5[] = {0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5};
  for (std::size_t h = 0; h < 5; ++h) CHECK(m5(h) == Approx(expected5[h]).epsilon(1e-7));
  // n = 12: c = 8 → 2^-1 … 2^-8, then get_slopes(16)[0::2][:4] = 2^(-0.5·(2k+1)): 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
  const auto m12 = attn::alibi_slopes(12, attn::AlibiSlopes::reference);
  for (std::size_t h = 1; h <= 8; ++h) CHECK(m12(h - 1) == Approx(std::pow(2.0, -double(h))).epsilon(1e-7));
  for (std::size_t k = 0; k < 4; ++k)
    CHECK(m12(8 + k) == Approx(std::pow(2.0, -0.5 * double(2 * k + 1))).epsilon(1e-7));
  // The paper's rule differs there: 2^(−8/5) for the first of five heads.
  CHECK(attn::alibi_slopes(5)(0) == Approx(std::pow(2.0, -1.6)).epsilon(1e-7));
  for (std::size_t n : {1, 2, 4, 8, 16, 32}) {
    const auto paper = attn::alibi_slopes(n, attn::AlibiSlopes::paper),
               reference = attn::alibi_slopes(n, attn::AlibiSlopes::reference);
    for (std::size_t h = 0; h < n; ++h) CHECK(paper(h) == reference(h));
  }
  // The closed form against the recursion itself, for every n up to 64.
  std::function<std::vector<double>(std::size_t)> get_slopes = [&](std::size_t n) {
    auto power_of_2 = [](std::size_t p) {
      std::vector<double> s;
      const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(p)) - 3)));
      for (std::size_t i = 0; i < p; ++i) s.push_back(start * std::pow(start, double(i)));
      return s;
    };
    const std::size_t c = std::size_t(1) << static_cast<int>(std::floor(std::log2(double(n))));
    if (c == n) return power_of_2(n);
    std::vector<double> s = power_of_2(c);
    const auto next = get_slopes(2 * c);
    for (std::size_t i = 0; s.size() < n; i += 2) s.push_back(next[i]);
    return s;
  };
  for (std::size_t n = 1; n <= 64; ++n) {
    const auto ours = attn::alibi_slopes(n, attn::AlibiSlopes::reference);
    const auto expected = get_slopes(n);
    for (std::size_t h = 0; h < n; ++h) CHECK(ours(h) == Approx(expected[h]).epsilon(1e-6));
  }
}

TEST_CASE("T5 buckets against worked examples (32 buckets, max distance 128, bidirectional)") {
  // Worked by hand from Raffel et al. 2020 / the reference implementation:
  // half = 16 buckets each side, exact below 8, logarithmic from 8 to 128.
  CHECK(attn::t5_bucket(0) == 0);
  CHECK(attn::t5_bucket(-1) == 1);
  CHECK(attn::t5_bucket(1) == 17);
  CHECK(attn::t5_bucket(-7) == 7);
  CHECK(attn::t5_bucket(-8) == 8);     // 8 + ⌊log(8/8) / log(16) · 8⌋ = 8
  CHECK(attn::t5_bucket(-20) == 10);   // 8 + ⌊log(2.5) / log(16) · 8⌋ = 8 + ⌊2.64⌋
  CHECK(attn::t5_bucket(-100) == 15);  // 8 + ⌊log(12.5) / log(16) · 8⌋ = 8 + ⌊7.29⌋
  CHECK(attn::t5_bucket(200) == 31);   // beyond max_distance: the last bucket of its side
  CHECK(attn::t5_bucket(-100000) == 15);
  CHECK_THROWS_AS(attn::t5_bucket(3, 5), std::out_of_range);
  const auto values = attn::t5_bucket_values(0, 1);
  const auto bias = attn::t5_bias(30, values);
  CHECK(bias(3, 2) == values(1));
  CHECK(bias(2, 3) == values(17));
  CHECK(bias(0, 25) == values(16 + 8 + 3));  // 8 + ⌊log(25/8)/log(16)·8⌋ = 8 + 3
}

TEST_CASE("learned table: seeded, independent of the sentence length, labelled untrained") {
  const auto a = attn::learned_encoding(5, 8, 3), b = attn::learned_encoding(9, 8, 3),
             c = attn::learned_encoding(5, 8, 4);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t d = 0; d < 8; ++d) REQUIRE(a(i, d) == b(i, d));
  CHECK(a(2, 3) != c(2, 3));
  CHECK(xt::amax(xt::abs(a))() <= 0.5f);
}

TEST_CASE("explain with every kind: without position, permuting words permutes the weights") {
  for (auto kind : {attn::PositionalKind::none, attn::PositionalKind::sinusoidal, attn::PositionalKind::learned,
                    attn::PositionalKind::rope, attn::PositionalKind::alibi, attn::PositionalKind::t5}) {
    attn::ExplainOptions options;
    options.positional = kind;
    options.n_heads = 4;
    options.projection = attn::Projection::random;
    // Not a reversal: ALiBi's |i − j| cannot tell a sentence from its mirror image.
    const auto a = attn::explain("dog bites man today", shipped_table(), options);
    const auto b = attn::explain("man bites dog today", shipped_table(), options);
    double diff = 0.0;  // weights of b, un-permuted (0 ↔ 2), against a
    const std::size_t perm[4] = {2, 1, 0, 3};
    for (std::size_t h = 0; h < 4; ++h)
      for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j)
          diff =
              std::max(diff, double(std::abs(b.attention.weights(h, perm[i], perm[j]) - a.attention.weights(h, i, j))));
    INFO("kind " << int(kind) << " max difference after un-permuting " << diff);
    if (kind == attn::PositionalKind::none) CHECK(diff < 1e-6);
    else CHECK(diff > 1e-3);
    if (kind == attn::PositionalKind::alibi || kind == attn::PositionalKind::t5) CHECK(a.score_biases.size() == 4);
  }
}

TEST_CASE("multi_head_attention with a positional kind agrees with explain's heads") {
  attn::ExplainOptions options;
  options.n_heads = 4;
  options.projection = attn::Projection::random;
  options.seed = 2;
  for (auto kind : {attn::PositionalKind::none, attn::PositionalKind::sinusoidal, attn::PositionalKind::learned,
                    attn::PositionalKind::rope, attn::PositionalKind::alibi, attn::PositionalKind::t5}) {
    options.positional = kind;
    const auto t = attn::explain("the cat sat on the mat", shipped_table(), options);
    const auto r =
        attn::multi_head_attention(t.embeddings, 4, attn::random_projections(100, 2), options.attention, kind, 2);
    INFO("kind " << int(kind));
    CHECK(xt::amax(xt::abs(r.weights - t.attention.weights))() < 1e-6f);
    CHECK(xt::amax(xt::abs(r.output - t.attention.output))() < 1e-5f);
  }
}
