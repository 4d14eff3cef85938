#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "attn/core/attention_layer.hpp"
#include "attn/core/random.hpp"

namespace {

xt::xtensor<float, 2> random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed, float scale = 1.0f) {
  attn::SplitMix64 rng(seed);
  xt::xtensor<float, 2> m = xt::empty<float>({rows, cols});
  for (auto& x : m) x = (2.0f * rng.uniform() - 1.0f) * scale;
  return m;
}

// Independent float64 reference: multi-head self-attention with plain loops.
std::vector<double> reference(const xt::xtensor<float, 2>& x, std::size_t heads, const attn::Projections& p,
                              const attn::AttentionOptions& o, std::vector<double>& weights) {
  const std::size_t n = x.shape(0), d = x.shape(1), dk = d / heads;
  auto project = [&](const xt::xtensor<float, 2>& w) {
    std::vector<double> out(n * d, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < d; ++t)
        for (std::size_t c = 0; c < d; ++c) out[i * d + c] += double(x(i, t)) * w(t, c);
    return out;
  };
  const auto q = project(p.w_q), k = project(p.w_k), v = project(p.w_v);
  std::vector<double> concat(n * d, 0.0);
  weights.assign(heads * n * n, 0.0);
  const std::size_t valid = o.valid_length.value_or(n);
  for (std::size_t h = 0; h < heads; ++h) {
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double> s(n, -INFINITY);
      double max = -INFINITY;
      for (std::size_t j = 0; j < n; ++j) {
        if (j >= valid || (o.causal && j > i)) continue;
        double dot = 0.0;
        for (std::size_t c = 0; c < dk; ++c) dot += q[i * d + h * dk + c] * k[j * d + h * dk + c];
        s[j] = dot / ((o.scale ? std::sqrt(double(dk)) : 1.0) * o.temperature);
        max = std::max(max, s[j]);
      }
      if (max == -INFINITY) continue;
      double sum = 0.0;
      for (double& e : s) sum += (e = std::exp(e - max));
      for (std::size_t j = 0; j < n; ++j) {
        const double w = s[j] / sum;
        weights[(h * n + i) * n + j] = w;
        for (std::size_t c = 0; c < dk; ++c) concat[i * d + h * dk + c] += w * v[j * d + h * dk + c];
      }
    }
  }
  std::vector<double> out(n * d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t)
      for (std::size_t c = 0; c < d; ++c) out[i * d + c] += concat[i * d + t] * p.w_o(t, c);
  return out;
}

}  // namespace

TEST_CASE("MultiHeadLayer agrees with a float64 reference to 1e-5") {
  struct Case {
    std::size_t n, d, heads;
    bool causal;
    std::size_t valid;
    float tau;
    bool scale;
  };
  for (const Case& c : {Case{8, 64, 2, false, 8, 1.0f, true}, Case{16, 100, 4, true, 16, 1.0f, true},
                        Case{33, 24, 3, false, 20, 0.5f, true}, Case{5, 12, 4, true, 3, 2.0f, false},
                        Case{1, 8, 8, false, 1, 1.0f, true}}) {
    const auto x = random_matrix(c.n, c.d, c.n + c.d);
    const auto p = attn::random_projections(c.d, c.heads);
    attn::AttentionOptions o;
    o.causal = c.causal;
    o.valid_length = c.valid;
    o.temperature = c.tau;
    o.scale = c.scale;
    attn::MultiHeadLayer layer(c.heads, p);
    std::vector<float> out(c.n * c.d), weights(c.heads * c.n * c.n);
    for (int repeat = 0; repeat < 2; ++repeat) {  // the reused workspace gives the same result
      layer.forward(x.data(), c.n, out.data(), o, weights.data());
      std::vector<double> ref_weights;
      const auto ref = reference(x, c.heads, p, o, ref_weights);
      double max_err = 0.0;
      for (std::size_t i = 0; i < out.size(); ++i) max_err = std::max(max_err, std::abs(out[i] - ref[i]));
      for (std::size_t i = 0; i < weights.size(); ++i)
        max_err = std::max(max_err, std::abs(weights[i] - ref_weights[i]));
      INFO("n " << c.n << " d " << c.d << " heads " << c.heads << " max abs error " << max_err);
      CHECK(max_err < 1e-5);
    }
  }
}

TEST_CASE("MultiHeadLayer rejects bad arguments") {
  const auto p = attn::random_projections(12, 1);
  CHECK_THROWS_AS(attn::MultiHeadLayer(5, p), std::out_of_range);
  attn::MultiHeadLayer layer(3, p);
  std::vector<float> x(24, 0.5f), out(24);
  attn::AttentionOptions o;
  o.temperature = 0.0f;
  CHECK_THROWS_WITH(layer.forward(x.data(), 2, out.data(), o), Catch::Contains("temperature"));
  o = {};
  o.valid_length = 3;
  CHECK_THROWS_AS(layer.forward(x.data(), 2, out.data(), o), std::out_of_range);
  x[5] = NAN;
  CHECK_THROWS_WITH(layer.forward(x.data(), 2, out.data(), {}), Catch::Contains("finite"));
  auto bad = p;
  bad.w_o(0, 0) = INFINITY;
  CHECK_THROWS_AS(attn::MultiHeadLayer(3, bad), std::invalid_argument);
}
