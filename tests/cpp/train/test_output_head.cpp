#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "attn/train/model.hpp"

using namespace attn::train;

// The head's gradients are checked against central differences with the rest of the language-model
// configuration (test_model.cpp); GELU's own, by hand, in test_ops.cpp.
TEST_CASE("train model: BERT's output head on a hand case: d = 2, W_T = I, b_T = 0, γ = 1, β = 0", "[train]") {
  // x = (1, 0): dense = (1, 0), GELU = (Φ(1), 0) = (0.8413447460685429, 0); LayerNorm of two values (m ± δ) is
  // ±δ/√(δ² + ε) with δ = Φ(1)/2, so t = (s, −s), s = 0.42067237303427146 / √(0.42067237303427146² + 1e-5).
  ModelConfig c;
  c.vocab_size = 3, c.d_model = 2, c.n_heads = 1, c.n_layers = 1, c.seq_len = 2, c.output_head = true;
  std::vector<double> params(parameter_count(c), 0.0);
  const Parameters<double> p = bind_parameters(c, params.data());
  p.head_w[0] = p.head_w[3] = 1, p.head_gamma[0] = p.head_gamma[1] = 1;
  const std::vector<double> x = {1.0, 0.0};
  std::vector<double> dense(2), gelu(2), out(2), mean(1), rstd(1);
  output_head_forward(c, params.data(), x.data(), 1, dense.data(), gelu.data(), out.data(), mean.data(), rstd.data());
  const double delta = 0.8413447460685429 / 2, s = delta / std::sqrt(delta * delta + 1e-5);
  CHECK(gelu[0] == Approx(0.8413447460685429).epsilon(1e-15));
  CHECK(out[0] == Approx(s).epsilon(1e-14));
  CHECK(out[1] == Approx(-s).epsilon(1e-14));
  CHECK(parameter_specs(c)[parameter_specs(c).size() - 2].name == "output_head.norm.beta");
}
