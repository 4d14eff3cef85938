#include "attn/train/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "attn/core/random.hpp"

namespace attn::train {

namespace {

// A number as a message writes it: 0.05, not to_string's 0.050000.
std::string shortest(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

}  // namespace

SamplingDistribution sampling_distribution(const float* logits, std::size_t n, std::int32_t unk, double temperature,
                                           std::size_t top_k, std::size_t first) {
  if (!(temperature >= kMinOutputTemperature && temperature <= kMaxOutputTemperature)) {
    throw std::out_of_range("sample: temperature must be in [" + shortest(kMinOutputTemperature) + ", " +
                            shortest(kMaxOutputTemperature) + "], got " + shortest(temperature));
  }
  if (top_k > kMaxSampleTopK) {
    throw std::out_of_range("sample: topK must be in [0, " + std::to_string(kMaxSampleTopK) +
                            "] (0: every word), got " + std::to_string(top_k));
  }
  std::vector<std::int32_t> ids;
  ids.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<std::int32_t>(i) != unk) ids.push_back(static_cast<std::int32_t>(i));
  }
  if (ids.empty()) throw std::out_of_range("sample: the output vocabulary has no word besides <unk>");
  const auto before = [&](std::int32_t a, std::int32_t b) {
    return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
  };
  const std::size_t kept = top_k == 0 ? ids.size() : std::min(top_k, ids.size());
  // Sorted only as far as needed: the kept words (top-k, at most 100), or with every word kept, the first ones asked
  // for (the bars show 10 of 8,191; the normalizing sum needs no order).
  const std::size_t sorted = top_k == 0 ? std::max<std::size_t>(1, std::min(first, kept)) : kept;
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(sorted), ids.end(), before);
  ids.resize(kept);
  // exp((z_i − z_max) / T): the largest term is 1, so the sum cannot overflow however small T is.
  const double max = logits[ids.front()];
  double sum = 0;
  for (const std::int32_t id : ids) sum += std::exp((static_cast<double>(logits[id]) - max) / temperature);
  ids.resize(std::min(first, kept));
  SamplingDistribution out{std::move(ids), {}};
  for (const std::int32_t id : out.ids)
    out.q.push_back(static_cast<float>(std::exp((static_cast<double>(logits[id]) - max) / temperature) / sum));
  return out;
}

SampledWord draw(const SamplingDistribution& q, std::uint64_t seed) {
  if (q.ids.empty()) throw std::invalid_argument("sample: the distribution is empty");
  SplitMix64 rng(seed);
  const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
  double cumulative = 0;
  for (std::size_t i = 0; i < q.ids.size(); ++i) {
    cumulative += q.q[i];
    if (u < cumulative) return {q.ids[i], q.q[i]};
  }
  return {q.ids.back(), q.q.back()};
}

// One pass that keeps the best k in order: almost every entry is turned away by one comparison with the k-th best.
std::vector<std::int32_t> top_ids(const float* row, std::size_t n, std::size_t k, std::int32_t skip) {
  std::vector<std::int32_t> best;
  best.reserve(k + 1);
  for (std::size_t o = 0; o < n; ++o) {
    if (static_cast<std::int32_t>(o) == skip || (best.size() == k && row[o] <= row[best.back()])) continue;
    const auto at =
        std::upper_bound(best.begin(), best.end(), row[o], [&](float x, std::int32_t id) { return x > row[id]; });
    best.insert(at, static_cast<std::int32_t>(o));
    if (best.size() > k) best.pop_back();
  }
  return best;
}

}  // namespace attn::train
