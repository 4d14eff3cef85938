#include "attn/core/positional_variants.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"
#include "attn/core/positional.hpp"
#include "attn/core/random.hpp"

namespace attn {

namespace {
constexpr std::uint64_t kLearnedStream = 0x1EA2ED0000000000ULL;
constexpr std::uint64_t kT5Stream = 0x7575000000000000ULL;
constexpr int kT5Buckets = 32, kT5MaxDistance = 128;
}  // namespace

xt::xtensor<float, 2> learned_encoding(std::size_t seq_len, std::size_t d_model, std::uint64_t seed) {
  check_cells(std::uint64_t{seq_len} * d_model, "learned_encoding");
  xt::xtensor<float, 2> p = xt::empty<float>({seq_len, d_model});
  for (std::size_t i = 0; i < seq_len; ++i) {
    SplitMix64 rng((seed ^ kLearnedStream) + 0x9E3779B97F4A7C15ULL * (i + 1));
    for (std::size_t c = 0; c < d_model; ++c) p(i, c) = rng.uniform() - 0.5f;
  }
  return p;
}

xt::xtensor<float, 2> apply_rope(const xt::xtensor<float, 2>& x, double base) {
  if (!std::isfinite(base) || base <= 1.0) throw std::out_of_range("apply_rope: base must be a finite number > 1");
  const std::size_t n = x.shape(0), d = x.shape(1);
  xt::xtensor<float, 2> out = x;
  for (std::size_t c = 0; c + 1 < d; c += 2) {
    const double theta = std::pow(base, -static_cast<double>(c) / static_cast<double>(d));
    for (std::size_t i = 0; i < n; ++i) {
      const double angle = static_cast<double>(i) * theta, cs = std::cos(angle), sn = std::sin(angle);
      const double a = x(i, c), b = x(i, c + 1);
      out(i, c) = static_cast<float>(a * cs - b * sn);
      out(i, c + 1) = static_cast<float>(a * sn + b * cs);
    }
  }
  return out;
}

xt::xtensor<float, 1> alibi_slopes(std::size_t n_heads, AlibiSlopes rule) {
  if (n_heads == 0) throw std::out_of_range("alibi_slopes: n_heads must be at least 1");
  xt::xtensor<float, 1> m = xt::empty<float>({n_heads});
  if (rule == AlibiSlopes::paper) {
    for (std::size_t h = 1; h <= n_heads; ++h) m(h - 1) = static_cast<float>(std::exp2(-8.0 * h / n_heads));
    return m;
  }
  // get_slopes(n) = power_of_2(c) + get_slopes(2c)[0::2][:n − c], c the largest power of 2 ≤ n; the
  // inner get_slopes(2c) is a power of 2, so its every other slope is 2^(−8(2k+1)/(2c)).
  std::size_t c = 1;
  while (2 * c <= n_heads) c *= 2;
  for (std::size_t h = 1; h <= c; ++h) m(h - 1) = static_cast<float>(std::exp2(-8.0 * h / c));
  for (std::size_t k = 0; c + k < n_heads; ++k) m(c + k) = static_cast<float>(std::exp2(-4.0 * (2 * k + 1) / c));
  return m;
}

xt::xtensor<float, 2> alibi_bias(std::size_t seq_len, float slope) {
  xt::xtensor<float, 2> bias = xt::empty<float>({seq_len, seq_len});
  for (std::size_t i = 0; i < seq_len; ++i)
    for (std::size_t j = 0; j < seq_len; ++j) bias(i, j) = -slope * static_cast<float>(i > j ? i - j : j - i);
  return bias;
}

int t5_bucket(long relative_position, int num_buckets, int max_distance) {
  if (num_buckets < 4 || num_buckets % 2 != 0 || max_distance <= num_buckets / 4) {
    throw std::out_of_range("t5_bucket: num_buckets must be even and ≥ 4, max_distance > num_buckets / 4");
  }
  const int half = num_buckets / 2;  // keys before the query, then keys after it
  int bucket = relative_position > 0 ? half : 0;
  const long n = std::labs(relative_position);
  const int max_exact = half / 2;
  if (n < max_exact) return bucket + static_cast<int>(n);
  const int large =
      max_exact + static_cast<int>(std::log(static_cast<double>(n) / max_exact) /
                                   std::log(static_cast<double>(max_distance) / max_exact) * (half - max_exact));
  return bucket + std::min(large, half - 1);
}

xt::xtensor<float, 2> t5_bias(std::size_t seq_len, const xt::xtensor<float, 1>& values) {
  xt::xtensor<float, 2> bias = xt::empty<float>({seq_len, seq_len});
  for (std::size_t i = 0; i < seq_len; ++i)
    for (std::size_t j = 0; j < seq_len; ++j)
      bias(i, j) = values(static_cast<std::size_t>(
          t5_bucket(static_cast<long>(j) - static_cast<long>(i), static_cast<int>(values.size()), kT5MaxDistance)));
  return bias;
}

xt::xtensor<float, 1> t5_bucket_values(std::size_t head, std::uint64_t seed) {
  SplitMix64 rng((seed ^ kT5Stream) + 0x9E3779B97F4A7C15ULL * (head + 1));
  xt::xtensor<float, 1> values = xt::empty<float>({std::size_t(kT5Buckets)});
  for (auto& v : values) v = 2.0f * rng.uniform() - 1.0f;
  return values;
}

std::vector<xt::xtensor<float, 2>> apply_relative_position(PositionalKind kind, std::vector<HeadInputs>& heads,
                                                           const std::vector<bool>& rotate, std::uint64_t seed,
                                                           double base, AlibiSlopes alibi) {
  std::vector<xt::xtensor<float, 2>> biases;
  if (heads.empty()) return biases;
  const std::size_t seq_len = heads[0].values.shape(0);
  if (kind == PositionalKind::rope) {
    for (std::size_t h = 0; h < heads.size(); ++h) {
      if (h < rotate.size() && !rotate[h]) continue;
      heads[h].queries = apply_rope(heads[h].queries, base);
      heads[h].keys = apply_rope(heads[h].keys, base);
    }
  } else if (kind == PositionalKind::alibi) {
    const auto slopes = alibi_slopes(heads.size(), alibi);
    for (std::size_t h = 0; h < heads.size(); ++h) biases.push_back(alibi_bias(seq_len, slopes(h)));
  } else if (kind == PositionalKind::t5) {
    for (std::size_t h = 0; h < heads.size(); ++h) biases.push_back(t5_bias(seq_len, t5_bucket_values(h, seed)));
  }
  return biases;
}

MultiHeadResult multi_head_attention(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                     const Projections& projections, const AttentionOptions& options,
                                     PositionalKind kind, std::uint64_t seed, double base, AlibiSlopes alibi) {
  const std::size_t seq_len = input.shape(0), d_model = input.shape(1);
  xt::xtensor<float, 2> positioned = input;
  if (kind == PositionalKind::sinusoidal) positioned += sinusoidal_encoding(seq_len, d_model, base);
  if (kind == PositionalKind::learned) positioned += learned_encoding(seq_len, d_model, seed);
  std::vector<HeadInputs> heads = project_heads(positioned, n_heads, projections);
  const auto biases = apply_relative_position(kind, heads, std::vector<bool>(n_heads, true), seed, base, alibi);
  std::vector<AttentionOptions> head_options(n_heads, options);
  for (std::size_t h = 0; h < biases.size(); ++h) head_options[h].score_bias = &biases[h];
  return attend_heads(std::move(heads), head_options, projections.w_o);
}

}  // namespace attn
