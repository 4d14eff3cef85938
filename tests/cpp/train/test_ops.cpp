#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/ops.hpp"
#include "attn/train/parameters.hpp"

using namespace attn::train;

// LayerNorm of one row of d = 2, x = (m − δ, m + δ): μ = m, σ² = δ², r = 1/√(δ² + ε), x̂ = (−s, s) with
// s = r·δ. For dout = (a, b) and γ = (γ₁, γ₂), g = (a γ₁, b γ₂), mean(g) = (a γ₁ + b γ₂)/2 and
// mean(g ⊙ x̂) = s (b γ₂ − a γ₁)/2, so
//   dx₁ = r (g₁ − mean(g) − x̂₁ mean(g ⊙ x̂)) = r (a γ₁ − b γ₂)/2 · (1 − s²) = r (a γ₁ − b γ₂) ε / (2 (δ² + ε)),
//   dx₂ = −dx₁,  dγ = (a, b) ⊙ x̂,  dβ = (a, b).
// With δ² comparable to ε (δ = 0.002) the ε terms are not negligible: 1 − s² = 1e-5 / 1.4e-5.
TEST_CASE("train ops: LayerNorm's backward pass equals the hand-derived case", "[train]") {
  const double m = 0.7, delta = 0.002, a = 1.5, b = -0.25, eps = kLayerNormEpsilon;
  const std::vector<double> x = {m - delta, m + delta}, gamma = {2.0, 0.5}, beta = {0.1, -0.2}, dout = {a, b};
  std::vector<double> out(2), mean(1), rstd(1), dx(2, 0.0), dgamma(2, 0.0), dbeta(2, 0.0);
  layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), gamma.data(), beta.data(), 1, 2);
  const double r = 1 / std::sqrt(delta * delta + eps), s = r * delta;
  CHECK(mean[0] == Approx(m).epsilon(1e-15));
  CHECK(rstd[0] == Approx(r).epsilon(1e-12));
  CHECK(out[0] == Approx(-2.0 * s + 0.1).epsilon(1e-12));
  CHECK(out[1] == Approx(0.5 * s - 0.2).epsilon(1e-12));
  layernorm_backward(dx.data(), dgamma.data(), dbeta.data(), dout.data(), x.data(), mean.data(), rstd.data(),
                     gamma.data(), 1, 2);
  const double dx1 = r * (a * 2.0 - b * 0.5) * eps / (2 * (delta * delta + eps));
  CHECK(dx[0] == Approx(dx1).epsilon(1e-9));
  CHECK(dx[1] == Approx(-dx1).epsilon(1e-9));
  CHECK(dgamma[0] == Approx(-a * s).epsilon(1e-12));
  CHECK(dgamma[1] == Approx(b * s).epsilon(1e-12));
  CHECK(dbeta[0] == a);
  CHECK(dbeta[1] == b);
}

TEST_CASE("train ops: LayerNorm's input gradient is orthogonal to the mean and scale directions (γ = 1)", "[train]") {
  const std::size_t d = 5;
  const std::vector<double> x = {0.3, -1.2, 2.5, 0.0, 0.9}, gamma(d, 1.0), beta(d, 0.0),
                            dout = {0.4, -0.1, 0.7, 0.2, -0.9};
  std::vector<double> out(d), mean(1), rstd(1), dx(d, 0.0), dgamma(d, 0.0), dbeta(d, 0.0);
  layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), gamma.data(), beta.data(), 1, d);
  layernorm_backward(dx.data(), dgamma.data(), dbeta.data(), dout.data(), x.data(), mean.data(), rstd.data(),
                     gamma.data(), 1, d);
  double sum = 0, along = 0, mean_out = 0;
  for (std::size_t j = 0; j < d; ++j) sum += dx[j], along += dx[j] * out[j], mean_out += out[j];
  CHECK(std::abs(sum) < 1e-12);   // shifting x leaves the output unchanged
  CHECK(std::abs(along) < 1e-5);  // scaling x leaves it unchanged too, up to ε
  CHECK(std::abs(mean_out) < 1e-12);
}

TEST_CASE("train ops: exp_nonpositive is e^x to 3e-7 relative on [-87, 0], and 0-ish below", "[train]") {
  double worst = 0;
  for (int i = 0; i <= 870000; ++i) {
    const float x = -0.0001f * static_cast<float>(i);
    const double exact = std::exp(static_cast<double>(x));
    worst = std::max(worst, std::abs(static_cast<double>(exp_nonpositive(x)) - exact) / exact);
  }
  std::printf("exp_nonpositive: largest relative error %.2e on [-87, 0]\n", worst);
  CHECK(worst < 3e-7);
  CHECK(exp_nonpositive(0.0f) == 1.0f);
  CHECK(exp_nonpositive(-1000.0f) < 2e-38f);
  CHECK(exp_nonpositive(-1000.0f) >= 0.0f);
}

TEST_CASE("train ops: cross-entropy's float backward (vectorized exp, lane sums) agrees with the double one",
          "[train]") {
  const std::size_t V = 8195;  // not a multiple of the lanes
  attn::SplitMix64 rng(5);
  std::vector<double> d(2 * V);
  for (double& x : d) x = 20 * rng.uniform() - 10;
  std::vector<float> f(d.begin(), d.end());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = f[i];
  const std::vector<std::int32_t> targets = {17, 8194};
  const std::vector<std::uint8_t> scored = {1, 1};
  const double sum_d = crossentropy_backward(d.data(), targets.data(), scored.data(), 2, V, 0.5);
  const double sum_f = crossentropy_backward(f.data(), targets.data(), scored.data(), 2, V, 0.5f);
  CHECK(sum_f == Approx(sum_d).epsilon(1e-6));
  double worst = 0;
  for (std::size_t i = 0; i < d.size(); ++i) worst = std::max(worst, std::abs(f[i] - d[i]));
  CHECK(worst < 1e-7);
}

TEST_CASE("train ops: cross-entropy's forward and backward on a hand case", "[train]") {
  // logits (1, 3) = (0, ln 2, ln 5): softmax = (1, 2, 5)/8; target 2: loss = ln(8/5)
  std::vector<double> logits = {0.0, std::log(2.0), std::log(5.0)};
  const std::vector<std::int32_t> targets = {2};
  const std::vector<std::uint8_t> scored = {1};
  CHECK(crossentropy_forward(logits.data(), targets.data(), scored.data(), 1, 3) ==
        Approx(std::log(8.0 / 5.0)).epsilon(1e-14));
  crossentropy_backward(logits.data(), targets.data(), scored.data(), 1, 3, 0.5);
  CHECK(logits[0] == Approx(0.5 / 8).epsilon(1e-14));
  CHECK(logits[1] == Approx(0.5 * 2 / 8).epsilon(1e-14));
  CHECK(logits[2] == Approx(0.5 * (5.0 / 8 - 1)).epsilon(1e-14));
}

TEST_CASE("train ops: GELU's forward and backward on hand cases, and against central differences", "[train]") {
  // GELU(x) = x Φ(x); GELU'(x) = Φ(x) + x φ(x). Φ(1) = 0.8413447460685429, φ(1) = e^(−1/2)/√(2π) = 0.24197072451914337,
  // Φ(−2) = 0.022750131948179195, φ(−2) = 0.05399096651318806.
  const std::vector<double> x = {0.0, 1.0, -2.0};
  std::vector<double> out(3), din(3, 0.5);  // the backward pass adds to din
  gelu_forward(out.data(), x.data(), 3);
  CHECK(out[0] == 0.0);
  CHECK(out[1] == Approx(0.8413447460685429).epsilon(1e-15));
  CHECK(out[2] == Approx(-2 * 0.022750131948179195).epsilon(1e-14));
  const std::vector<double> dout = {1.0, 2.0, -1.0};
  gelu_backward(din.data(), dout.data(), x.data(), 3);
  CHECK(din[0] == Approx(0.5 + 0.5).epsilon(1e-15));  // Φ(0) = 1/2
  CHECK(din[1] == Approx(0.5 + 2 * (0.8413447460685429 + 0.24197072451914337)).epsilon(1e-14));
  CHECK(din[2] == Approx(0.5 - (0.022750131948179195 - 2 * 0.05399096651318806)).epsilon(1e-13));
  double worst = 0;
  for (double at = -6; at <= 6; at += 0.37) {
    const double h = 1e-5;
    double plus, minus, grad = 0;
    const double xp = at + h, xm = at - h, one = 1;
    gelu_forward(&plus, &xp, 1);
    gelu_forward(&minus, &xm, 1);
    gelu_backward(&grad, &one, &at, 1);
    worst = std::max(worst, std::abs((plus - minus) / (2 * h) - grad));
  }
  CHECK(worst < 1e-9);
  std::vector<float> xf = {-3.5f, -0.25f, 0.0f, 0.75f, 4.0f}, of(5);
  gelu_forward(of.data(), xf.data(), 5);  // float agrees with double to float precision
  for (std::size_t i = 0; i < xf.size(); ++i) {
    double od;
    const double xd = xf[i];
    gelu_forward(&od, &xd, 1);
    CHECK(of[i] == Approx(od).margin(1e-7));
  }
}

TEST_CASE("train ops: GELU's tanh approximation on hand cases, and within 1e-3 of the exact GELU", "[train]") {
  // 0.5 x (1 + tanh(√(2/π)(x + 0.044715 x³))): at x = 1, the argument is 0.7978845608 · 1.044715 = 0.8335620…,
  // tanh of it 0.6823839…, so 0.8411920; at x = −2, argument −1.8811884…, tanh −0.9545977…, so −0.0454023.
  const std::vector<double> x = {0.0, 1.0, -2.0};
  std::vector<double> out(3);
  gelu_tanh_forward(out.data(), x.data(), 3);
  CHECK(out[0] == 0.0);
  CHECK(out[1] == Approx(0.8411919906082768).epsilon(1e-12));
  CHECK(out[2] == Approx(-0.04540230591222).epsilon(1e-9));
  double worst = 0;  // Hendrycks & Gimpel's approximation is close to x Φ(x) everywhere
  for (double at = -6; at <= 6; at += 0.01) {
    double approx, exact;
    gelu_tanh_forward(&approx, &at, 1);
    gelu_forward(&exact, &at, 1);
    worst = std::max(worst, std::abs(approx - exact));
  }
  CHECK(worst < 1e-3);
}
