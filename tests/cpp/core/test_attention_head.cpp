#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "attn/core/attention_head.hpp"
#include "attn/core/random.hpp"

namespace {

std::vector<float> random_values(std::size_t size, std::uint64_t seed, float scale = 1.0f) {
  attn::SplitMix64 rng(seed);
  std::vector<float> v(size);
  for (auto& x : v) x = (2.0f * rng.uniform() - 1.0f) * scale;
  return v;
}

// Independent float64 reference: one head with a prefix mask, plain loops. Weights [n, m], output [n, dv].
void reference(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, std::size_t n,
               std::size_t m, std::size_t dk, std::size_t dv, double scale, attn::PrefixMask mask,
               std::vector<double>& weights, std::vector<double>& output) {
  weights.assign(n * m, 0.0);
  output.assign(n * dv, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t limit = std::min(mask.valid, mask.causal ? std::min(i + 1, m) : m);
    double max = -INFINITY, sum = 0.0;
    std::vector<double> s(limit);
    for (std::size_t j = 0; j < limit; ++j) {
      double dot = 0.0;
      for (std::size_t c = 0; c < dk; ++c) dot += double(q[i * dk + c]) * k[j * dk + c];
      s[j] = dot * scale;
      max = std::max(max, s[j]);
    }
    for (std::size_t j = 0; j < limit; ++j) sum += (s[j] = std::exp(s[j] - max));
    for (std::size_t j = 0; j < limit; ++j) {
      weights[i * m + j] = s[j] / sum;
      for (std::size_t c = 0; c < dv; ++c) output[i * dv + c] += weights[i * m + j] * v[j * dv + c];
    }
  }
}

}  // namespace

TEST_CASE("attend_head: one head against float64, n ≠ m, masks, shapes across panel and block edges") {
  attn::HeadWorkspace workspace;  // reused across every case, as the callers do
  for (auto [n, m, dk, dv] : std::vector<std::array<std::size_t, 4>>{
           {1, 1, 1, 1}, {5, 9, 3, 7}, {37, 20, 16, 8}, {40, 73, 33, 17}, {100, 64, 64, 9}}) {
    const auto q = random_values(n * dk, n, 1.5f), k = random_values(m * dk, m + 1, 1.5f), v = random_values(m * dv, 7);
    for (attn::PrefixMask mask :
         {attn::PrefixMask{false, m}, attn::PrefixMask{true, m}, attn::PrefixMask{false, (m + 1) / 2},
          attn::PrefixMask{true, 1}, attn::PrefixMask{false, 0}}) {
      const float scale = 0.7f / std::sqrt(float(dk));
      std::vector<float> out(n * dv, -1.0f), weights(n * m, -1.0f);
      REQUIRE(attn::attend_head(q.data(), dk, k.data(), dk, v.data(), dv, n, m, dk, dv, scale, mask, out.data(), dv,
                                workspace, weights.data()));
      std::vector<double> expected_weights, expected_output;
      reference(q, k, v, n, m, dk, dv, scale, mask, expected_weights, expected_output);
      double max_weight = 0, max_output = 0;
      for (std::size_t i = 0; i < n * m; ++i)
        max_weight = std::max(max_weight, std::abs(weights[i] - expected_weights[i]));
      for (std::size_t i = 0; i < n * dv; ++i) max_output = std::max(max_output, std::abs(out[i] - expected_output[i]));
      INFO(n << "×" << m << "×" << dk << "×" << dv << " causal " << mask.causal << " valid " << mask.valid);
      CHECK(max_weight < 1e-6);
      CHECK(max_output < 1e-5);
    }
  }
}

TEST_CASE("attend_head: a row stride wider than the head reads only its columns, and NaN scores are reported") {
  attn::HeadWorkspace workspace;
  const std::size_t n = 6, dk = 4, ld = 10;  // head columns 3 … 6 of a [6, 10] matrix
  auto wide = random_values(n * ld, 3);
  std::vector<float> q(n * dk);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < dk; ++c) q[i * dk + c] = wide[i * ld + 3 + c];
  std::vector<float> from_wide(n * ld, 0.0f), from_packed(n * dk);
  REQUIRE(attn::attend_head(wide.data() + 3, ld, wide.data() + 3, ld, wide.data() + 3, ld, n, n, dk, dk, 0.5f,
                            {true, n}, from_wide.data() + 3, ld, workspace));
  REQUIRE(attn::attend_head(q.data(), dk, q.data(), dk, q.data(), dk, n, n, dk, dk, 0.5f, {true, n}, from_packed.data(),
                            dk, workspace));
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(from_wide[i * ld] == 0.0f);  // columns outside the head are not written
    for (std::size_t c = 0; c < dk; ++c) CHECK(from_wide[i * ld + 3 + c] == from_packed[i * dk + c]);
  }
  q[0] = NAN;
  std::vector<float> out(n * dk);
  CHECK_FALSE(attn::attend_head(q.data(), dk, q.data(), dk, q.data(), dk, n, n, dk, dk, 0.5f, {false, n}, out.data(),
                                dk, workspace));
}
