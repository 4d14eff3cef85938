// npm run bench (profile part): where one MultiHeadLayer forward spends its time, part by part, in
// the relaxed-SIMD build. Built as build/wasm/attn_layer_profile.{js,wasm} and run in headless
// Chromium by profile.mjs. Each part calls the kernels as attention_layer.cpp does (the per-head
// parts summed over the heads); medians of 15 samples, in µs per forward.
#include <emscripten.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "attn/core/attention_layer.hpp"
#include "attn/core/kernels.hpp"

namespace {

std::vector<float> uniform(std::size_t size, std::uint32_t seed, float scale) {
  std::vector<float> data(size);
  for (float& x : data) {
    seed = seed * 1664525u + 1013904223u;
    x = (static_cast<float>(seed) / 4294967296.0f * 2.0f - 1.0f) * scale;
  }
  return data;
}

// Median time of one call of f, in µs: after 20 ms of warm-up (V8 optimizes a function between calls),
// samples of enough calls to last ≥ 2 ms, as the browser's clock has 0.1 ms steps.
template <typename F>
double median_us(F&& f) {
  for (const double t0 = emscripten_get_now(); emscripten_get_now() - t0 < 20.0;) f();
  int reps = 1;
  for (;; reps *= 2) {
    const double t0 = emscripten_get_now();
    for (int i = 0; i < reps; ++i) f();
    if (emscripten_get_now() - t0 >= 2.0) break;
  }
  std::vector<double> samples;
  for (int s = 0; s < 15; ++s) {
    const double t0 = emscripten_get_now();
    for (int i = 0; i < reps; ++i) f();
    samples.push_back((emscripten_get_now() - t0) * 1000.0 / reps);
  }
  std::nth_element(samples.begin(), samples.begin() + 7, samples.end());
  return samples[7];
}

void profile(std::size_t n, std::size_t d, std::size_t heads) {
  const std::size_t dk = d / heads;
  const float limit = std::sqrt(6.0f / (2 * d));
  xt::xtensor<float, 2> w[4];
  for (std::uint32_t i = 0; i < 4; ++i) {
    w[i] = xt::xtensor<float, 2>::from_shape({d, d});
    const auto data = uniform(d * d, i + 1, limit);
    std::copy(data.begin(), data.end(), w[i].begin());
  }
  attn::MultiHeadLayer layer(heads, attn::Projections{w[0], w[1], w[2], w[3]});
  const auto input = uniform(n * d, 1000, 1.0f);
  std::vector<float> output(n * d);
  const double forward = median_us([&] { layer.forward(input.data(), n, output.data(), {}, nullptr); });

  // The parts, on workspaces shaped as in MultiHeadLayer::forward
  const auto w_qkv = attn::pack_panels(uniform(d * 3 * d, 5, limit).data(), 3 * d, d, 3 * d);
  const auto w_o = attn::pack_panels(w[3].data(), d, d, d);
  std::vector<float> qkv(3 * n * d), keys(attn::packed_size(dk, n)), values(attn::packed_size(n, dk));
  std::vector<float> scores(n * n), concat(n * d);
  const double projections =
      median_us([&] { attn::gemm_packed(input.data(), d, w_qkv.data(), qkv.data(), 3 * d, n, d, 3 * d); });
  const double packing = median_us([&] {
    for (std::size_t h = 0; h < heads; ++h) {
      attn::pack_panels_into(qkv.data() + d + h * dk, 3 * d, dk, n, keys.data(), true);
      attn::pack_panels_into(qkv.data() + 2 * d + h * dk, 3 * d, n, dk, values.data());
    }
  });
  const double qk = median_us([&] {
    for (std::size_t h = 0; h < heads; ++h)
      attn::gemm_packed(qkv.data() + h * dk, 3 * d, keys.data(), scores.data(), n, n, dk, n);
  });
  const std::vector<float> raw = scores;
  const double copy = median_us([&] {
    for (std::size_t h = 0; h < heads; ++h) std::copy(raw.begin(), raw.end(), scores.begin());
  });
  const double softmax =
      median_us([&] {
        for (std::size_t h = 0; h < heads; ++h) {
          std::copy(raw.begin(), raw.end(), scores.begin());  // fresh scores each time (subtracted below)
          for (std::size_t i = 0; i < n; ++i)
            attn::softmax_prefix(scores.data() + i * n, n, n, 1.0f / std::sqrt(float(dk)));
        }
      }) -
      copy;
  const double av = median_us([&] {
    for (std::size_t h = 0; h < heads; ++h)
      attn::gemm_packed(scores.data(), n, values.data(), concat.data() + h * dk, d, n, n, dk, n);
  });
  const double out = median_us([&] { attn::gemm_packed(concat.data(), d, w_o.data(), output.data(), d, n, d, d); });

  const double flops = 8.0 * n * d * d + 4.0 * n * n * d;
  std::printf(
      "%zu×%zu×%zu  forward %.1f µs (%.1f GFLOP/s) | X·[W_Q W_K W_V] %.1f (%.1f GFLOP/s)  Concat·W_O %.1f (%.1f "
      "GFLOP/s) | "
      "%zu heads: pack K, V %.1f  QKᵀ %.1f  softmax %.1f  weights·V %.1f | parts sum %.1f µs\n",
      n, d, heads, forward, flops / forward / 1e3, projections, 6.0 * n * d * d / projections / 1e3, out,
      2.0 * n * d * d / out / 1e3, heads, packing, qk, softmax, av, projections + packing + qk + softmax + av + out);
}

}  // namespace

int main() {
  for (const auto& [n, d, heads] : {std::array<std::size_t, 3>{8, 64, 2}, {32, 128, 8}, {128, 256, 8}, {512, 512, 8}})
    profile(n, d, heads);
  std::printf("profile done\n");
}
