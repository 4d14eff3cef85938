// libFuzzer harness: explain() and scaled_dot_product_attention() with arbitrary configurations.
// The first 12 bytes choose the options, the rest is the text (or, in attention mode, raw floats).
// Allowed outcomes: a result whose weights are finite, non-negative and whose rows sum to 1 or 0,
// or std::out_of_range / std::invalid_argument. Anything else (crash, NaN, other exception) is a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <xtensor/xview.hpp>

#include "attn/lessons/explain.hpp"

namespace {

const attn::EmbeddingTable& table() {
  static const attn::EmbeddingTable loaded = [] {
    std::ifstream in(ATTN_ASSET_PATH, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return attn::EmbeddingTable::from_bytes(bytes.data(), bytes.size());
  }();
  return loaded;
}

void check_weights(const xt::xtensor<float, 2>& w) {
  for (std::size_t i = 0; i < w.shape(0); ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < w.shape(1); ++j) {
      if (!std::isfinite(w(i, j)) || w(i, j) < 0.0f) __builtin_trap();
      sum += w(i, j);
    }
    if (!(std::abs(sum - 1.0) < 1e-3 || sum == 0.0)) __builtin_trap();
  }
}

attn::ExplainOptions options_from(const std::uint8_t* c) {
  static const std::size_t kHeads[] = {1, 2, 3, 4, 5, 10, 20, 25, 50, 100, 7, 0};
  attn::ExplainOptions o;
  o.n_heads = kHeads[c[0] % 12];  // 3, 7 and 0 are invalid on purpose
  o.projection = c[1] & 1 ? attn::Projection::random : attn::Projection::identity;
  o.seed = c[2];
  o.positional = static_cast<attn::PositionalKind>((c[1] >> 1 & 1) + 2 * (c[6] % 3));  // all six kinds
  o.attention.causal = c[1] & 4;
  o.attention.scale = c[1] & 8;
  o.encoder_block = c[1] & 16;
  o.project_2d = c[1] & 32;
  if (c[1] & 64) o.attention.valid_length = c[3];
  const float temperatures[] = {1.0f, 0.05f, 5.0f, 1e-30f, 0.0f, -1.0f, 1e30f, NAN};
  o.attention.temperature = temperatures[c[4] % 8];
  o.max_tokens = c[5] % 70;                // 0 is invalid; small for speed
  o.base = c[6] % 5 == 0 ? 1.0 : 10000.0;  // 1 is invalid
  for (std::size_t h = 0; h < (c[7] % 4); ++h) {
    attn::HeadSpec spec;
    spec.kind = static_cast<attn::HeadKind>(c[8 + h] % 5);
    spec.offset = static_cast<std::int8_t>(c[11]);
    o.heads.push_back(spec);
  }
  if (c[9] & 1) o.masked_positions = {c[10], static_cast<std::size_t>(c[10]) + 1};
  const float scales[] = {1.0f, 0.0f, 10.0f, 100.0f, 101.0f, -1.0f};  // the last two are invalid
  o.positional_scale = scales[c[9] / 2 % 6];
  o.embedding_scale = scales[c[9] / 16 % 6] == 0.0f ? 0.5f : scales[c[9] / 16 % 6];
  o.position_checks = c[2] & 128;
  o.shuffle_seed = c[2];
  return o;
}

void run_attention(const std::uint8_t* data, std::size_t size, const attn::AttentionOptions& options) {
  std::vector<float> floats(size / sizeof(float));
  if (!floats.empty()) std::memcpy(floats.data(), data, floats.size() * sizeof(float));
  const std::size_t n = floats.empty() ? 0 : 1 + floats.size() % 7, d = 2;
  if (floats.size() < 3 * n * d) return;
  const auto matrix = [&](std::size_t at) {
    xt::xtensor<float, 2> m = xt::empty<float>({n, d});
    std::copy(floats.begin() + at, floats.begin() + at + n * d, m.begin());
    return m;
  };
  const auto r = attn::scaled_dot_product_attention(matrix(0), matrix(n * d), matrix(2 * n * d), options);
  check_weights(r.weights);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kConfig = 12;
  if (size < kConfig) return 0;
  const attn::ExplainOptions options = options_from(data);
  try {
    if (data[0] & 128) {
      run_attention(data + kConfig, size - kConfig, options.attention);
      return 0;
    }
    const std::string text(reinterpret_cast<const char*>(data + kConfig), size - kConfig);
    const attn::Trace trace = attn::explain(text, table(), options);
    for (const auto& head : trace.attention.heads) check_weights(head.attention.weights);
    for (float x : trace.attention.output)
      if (!std::isfinite(x)) __builtin_trap();
    const auto& shuffled = trace.checks.shuffle.weights;
    for (std::size_t h = 0; h < shuffled.shape(0); ++h) check_weights(xt::view(shuffled, h, xt::all(), xt::all()));
    if (!std::isfinite(trace.checks.shuffle.max_weight_difference)) __builtin_trap();
  } catch (const std::out_of_range&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
