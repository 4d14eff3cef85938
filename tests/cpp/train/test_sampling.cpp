#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/sampling.hpp"

using namespace attn::train;

namespace {

// Logits of 6 outputs, the last <unk> (the largest, so that leaving it out shows).
const std::vector<float> kLogits = {2.0f, 1.0f, 0.5f, 0.5f, -1.0f, 3.0f};
constexpr std::int32_t kUnk = 5;

}  // namespace

TEST_CASE("sampling_distribution: softmax(z / T) over the words, <unk> left out, top-k kept and renormalised",
          "[train]") {
  const SamplingDistribution all = sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 1.0, 0);
  REQUIRE(all.ids == std::vector<std::int32_t>{0, 1, 2, 3, 4});  // ties (0.5, 0.5): the lower id first
  double total = 0;
  for (const float x : {2.0, 1.0, 0.5, 0.5, -1.0}) total += std::exp(x);
  for (std::size_t i = 0; i < all.ids.size(); ++i) CHECK(all.q[i] == Approx(std::exp(kLogits[all.ids[i]]) / total));
  // The first 2 only: the same two, with the same q (normalized over every word, not over the two).
  const SamplingDistribution first = sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 1.0, 0, 2);
  REQUIRE(first.ids == std::vector<std::int32_t>{0, 1});
  CHECK(first.q == std::vector<float>{all.q[0], all.q[1]});
  const SamplingDistribution two = sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 0.5, 2);
  REQUIRE(two.ids == std::vector<std::int32_t>{0, 1});
  const double a = std::exp(2.0 / 0.5), b = std::exp(1.0 / 0.5);
  CHECK(two.q[0] == Approx(a / (a + b)));
  CHECK(two.q[1] == Approx(b / (a + b)));
  // A small temperature: the argmax to float precision, and no overflow (the largest logit is subtracted first).
  const std::vector<float> big = {400.0f, 399.0f, 0.0f};
  const SamplingDistribution cold = sampling_distribution(big.data(), big.size(), 2, kMinOutputTemperature, 0);
  CHECK(cold.q[0] == Approx(1.0).margin(1e-8));
  CHECK(std::isfinite(cold.q[1]));
}

TEST_CASE("sampling_distribution: bad options are std::out_of_range naming the range", "[train]") {
  CHECK_THROWS_WITH(sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 0.0, 0),
                    Catch::Contains("temperature must be in [0.05, 5], got 0"));
  CHECK_THROWS_AS(sampling_distribution(kLogits.data(), kLogits.size(), kUnk, std::nan(""), 0), std::out_of_range);
  CHECK_THROWS_WITH(sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 1.0, kMaxSampleTopK + 1),
                    Catch::Contains("topK must be in [0, 100]"));
  CHECK_THROWS_AS(sampling_distribution(kLogits.data(), 1, 0, 1.0, 0), std::out_of_range);  // only <unk>
}

TEST_CASE("draw: inverse transform sampling with SplitMix64(seed): frequencies follow q, top-k = 1 is the argmax",
          "[train]") {
  const SamplingDistribution q = sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 1.0, 0);
  constexpr int kDraws = 100000;
  std::map<std::int32_t, int> counts;
  for (int seed = 0; seed < kDraws; ++seed) ++counts[draw(q, static_cast<std::uint64_t>(seed)).id];
  CHECK(counts.count(kUnk) == 0);
  double chi2 = 0;
  for (std::size_t i = 0; i < q.ids.size(); ++i) {
    const double expected = kDraws * static_cast<double>(q.q[i]);
    chi2 += (counts[q.ids[i]] - expected) * (counts[q.ids[i]] - expected) / expected;
  }
  CHECK(chi2 < 33.4);  // chi-square, 4 degrees of freedom: exceeded with probability 10⁻⁶
  // The same seed, the same word.
  CHECK(draw(q, 99).id == draw(q, 99).id);
  const SamplingDistribution one = sampling_distribution(kLogits.data(), kLogits.size(), kUnk, 3.0, 1);
  for (int seed = 0; seed < 100; ++seed) CHECK(draw(one, static_cast<std::uint64_t>(seed)).id == 0);
}
