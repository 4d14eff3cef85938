#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/model.hpp"

using namespace attn::train;

namespace {

ModelConfig small_config(Positional positional, std::size_t layers = 2, std::size_t heads = 2) {
  ModelConfig c;
  c.vocab_size = 5;
  c.d_model = 4;
  c.n_heads = heads;
  c.n_layers = layers;
  c.seq_len = 4;
  c.positional = positional;
  return c;
}

// A batch of B = 2 sequences with random tokens, some scored with random targets.
Batch random_batch(const ModelConfig& c, std::uint64_t seed) {
  attn::SplitMix64 rng(seed);
  Batch batch;
  batch.batch_size = 2;
  batch.seq_len = c.seq_len;
  for (std::size_t r = 0; r < 2 * c.seq_len; ++r) {
    batch.tokens.push_back(static_cast<std::int32_t>(uniform_below(rng, static_cast<std::uint32_t>(c.vocab_size))));
    const bool scored = r % 3 != 1;
    batch.scored.push_back(scored ? 1 : 0);
    batch.targets.push_back(
        scored ? static_cast<std::int32_t>(uniform_below(rng, static_cast<std::uint32_t>(c.vocab_size))) : -1);
  }
  return batch;
}

std::vector<double> as_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// scored_only: the training step's forward pass (forward_scored: the output layer at the scored rows only).
void forward_pass(const ModelConfig& c, const std::vector<double>& params, const Batch& batch,
                  const std::vector<std::uint8_t>& ablated, Workspace<double>& ws, const FrozenInputs<double>& frozen,
                  bool scored_only) {
  if (scored_only) return forward_scored(c, params.data(), batch, ablated, ws, frozen);
  forward(c, params.data(), batch.tokens.data(), batch.batch_size, batch.seq_len, ablated, ws, frozen);
}

double loss_at(const ModelConfig& c, const std::vector<double>& params, const Batch& batch,
               const std::vector<std::uint8_t>& ablated, const FrozenInputs<double>& frozen, bool scored_only) {
  Workspace<double> ws;
  forward_pass(c, params, batch, ablated, ws, frozen, scored_only);
  return loss(c, ws, batch);
}

// Every parameter's gradient against central differences (h = 1e-5, float64). Prints, per tensor (as
// llm.c's test_gpt2.c), the largest relative error and OK / NOT OK; fails above 1e-7.
void check_gradients(const ModelConfig& c, const std::vector<std::uint8_t>& ablated, std::uint64_t seed,
                     const Batch& batch, const FrozenInputs<double>& frozen = {}, bool scored_only = false) {
  auto params = as_double(init_parameters(c, seed));
  // Perturb the constants too (γ = 1, β = b = 0 at the start), so their gradients are checked at a generic point.
  attn::SplitMix64 rng(seed + 99);
  for (const ParameterSpec& s : parameter_specs(c)) {
    for (std::size_t i = 0; !s.decay() && i < s.size; ++i) params[s.offset + i] += 0.3 * (2 * rng.uniform() - 1);
  }
  Workspace<double> ws;
  forward_pass(c, params, batch, ablated, ws, frozen, scored_only);
  std::vector<double> grads(params.size());
  backward(c, params.data(), batch, ablated, ws, grads.data(), frozen);
  const double h = 1e-5;
  double worst = 0;
  for (const ParameterSpec& s : parameter_specs(c)) {
    double tensor_worst = 0, largest = 0;
    for (std::size_t i = s.offset; i < s.offset + s.size; ++i) {
      auto plus = params, minus = params;
      plus[i] += h;
      minus[i] -= h;
      const double numeric = (loss_at(c, plus, batch, ablated, frozen, scored_only) -
                              loss_at(c, minus, batch, ablated, frozen, scored_only)) /
                             (2 * h);
      tensor_worst = std::max(tensor_worst, std::abs(numeric - grads[i]) / std::max(1.0, std::abs(numeric)));
      largest = std::max(largest, std::abs(numeric));
    }
    std::printf("  %-28s max |gradient| %.2e, largest error %.2e %s\n", s.name.c_str(), largest, tensor_worst,
                tensor_worst < 1e-7 ? "OK" : "NOT OK");
    worst = std::max(worst, tensor_worst);
  }
  std::printf("%s, %zu layers, %zu heads: %zu parameters, largest gradient error %.2e\n",
              attn::name_of(kPositionalNames, c.positional), c.n_layers, c.n_heads, params.size(), worst);
  CHECK(worst < 1e-7);
}

// The float path's gradients (the kernels) against the double path's: within 1e-5 of the largest gradient.
void check_float_against_double(const std::vector<float>& gf, const std::vector<double>& gd, const char* what) {
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < gf.size(); ++i) {
    worst = std::max(worst, std::abs(gf[i] - gd[i]));
    largest = std::max(largest, std::abs(gd[i]));
  }
  std::printf("%s, float vs double gradients: largest difference %.2e (largest gradient %.2e)\n", what, worst, largest);
  CHECK(worst < 1e-5 * std::max(1.0, largest));
}

void check_gradients(const ModelConfig& c, const std::vector<std::uint8_t>& ablated, std::uint64_t seed) {
  check_gradients(c, ablated, seed, random_batch(c, seed + 1));
}

}  // namespace

TEST_CASE("train model: every gradient agrees with central finite differences in double", "[train]") {
  for (const Positional p : {Positional::sinusoidal, Positional::learned, Positional::none}) {
    check_gradients(small_config(p), {}, 7);
  }
  check_gradients(small_config(Positional::learned, 3, 4), {}, 8);
  check_gradients(small_config(Positional::sinusoidal, 1, 1), {}, 9);
}

TEST_CASE("train model: gradients with an ablated head agree with finite differences, and its Q K V get none",
          "[train]") {
  const ModelConfig c = small_config(Positional::sinusoidal);
  std::vector<std::uint8_t> ablated(c.n_layers * c.n_heads, 0);
  ablated[1 * c.n_heads + 0] = 1;  // layer 1, head 0
  check_gradients(c, ablated, 11);
  const auto params = as_double(init_parameters(c, 11));
  const Batch batch = random_batch(c, 12);
  Workspace<double> ws;
  forward(c, params.data(), batch.tokens.data(), 2, c.seq_len, ablated, ws);
  std::vector<double> grads(params.size());
  backward(c, params.data(), batch, ablated, ws, grads.data());
  const Parameters<double> g = bind_parameters(c, grads.data());
  const std::size_t d = c.d_model, dk = d / c.n_heads;
  for (const double* w : {g.layers[1].w_q, g.layers[1].w_k, g.layers[1].w_v}) {
    for (std::size_t row = 0; row < d; ++row) {
      for (std::size_t col = 0; col < dk; ++col) CHECK(w[row * d + col] == 0.0);
    }
  }
}

// One position: every weight is 1, so the model is logits = (x + x W_V W_O) U with x = E[token], and the
// gradients follow by hand: with g = softmax(logits) − e_y,
//   dU = x₁ gᵀ, dx₁ = U g, dW_O = z dx₁ᵀ (z = x W_V), dz = W_O dx₁, dW_V = x dzᵀ, dW_Q = dW_K = 0,
//   dE[token] = dx₁ + W_V dz.
TEST_CASE("train model: one position, one layer: gradients equal the hand-derived ones", "[train]") {
  ModelConfig c = small_config(Positional::none, 1, 1);
  c.seq_len = 1;
  const auto params = as_double(init_parameters(c, 21));
  const std::size_t d = c.d_model, V = c.vocab_size;
  Batch batch;
  batch.batch_size = 1;
  batch.seq_len = 1;
  batch.tokens = {3};
  batch.targets = {1};
  batch.scored = {1};
  Workspace<double> ws;
  forward(c, params.data(), batch.tokens.data(), 1, 1, {}, ws);
  const double model_loss = loss(c, ws, batch);  // before backward(), which overwrites the logits
  std::vector<double> grads(params.size());
  backward(c, params.data(), batch, {}, ws, grads.data());

  const Parameters<const double> p = bind_parameters(c, params.data());
  const Parameters<double> gp = bind_parameters(c, grads.data());
  const double* E = p.embedding;
  const double* Wv = p.layers[0].w_v;
  const double* Wo = p.layers[0].w_o;
  const double* U = p.unembedding;
  std::vector<double> x(E + 3 * d, E + 4 * d), z(d, 0), x1(x), logits(V, 0), g(V), dx1(d, 0), dz(d, 0);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < d; ++i) z[j] += x[i] * Wv[i * d + j];
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < d; ++i) x1[j] += z[i] * Wo[i * d + j];
  for (std::size_t v = 0; v < V; ++v)
    for (std::size_t i = 0; i < d; ++i) logits[v] += x1[i] * U[i * V + v];
  double total = 0;
  for (std::size_t v = 0; v < V; ++v) total += std::exp(logits[v]);
  for (std::size_t v = 0; v < V; ++v) g[v] = std::exp(logits[v]) / total - (v == 1 ? 1.0 : 0.0);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t v = 0; v < V; ++v) dx1[i] += U[i * V + v] * g[v];
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) dz[i] += Wo[i * d + j] * dx1[j];

  CHECK(model_loss == Approx(std::log(total) - logits[1]).epsilon(1e-12));
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t v = 0; v < V; ++v) CHECK(gp.unembedding[i * V + v] == Approx(x1[i] * g[v]).margin(1e-12));
    for (std::size_t j = 0; j < d; ++j) {
      CHECK(gp.layers[0].w_o[i * d + j] == Approx(z[i] * dx1[j]).margin(1e-12));
      CHECK(gp.layers[0].w_v[i * d + j] == Approx(x[i] * dz[j]).margin(1e-12));
      CHECK(gp.layers[0].w_q[i * d + j] == 0.0);
      CHECK(gp.layers[0].w_k[i * d + j] == 0.0);
    }
    double de = dx1[i];
    for (std::size_t j = 0; j < d; ++j) de += Wv[i * d + j] * dz[j];
    CHECK(gp.embedding[3 * d + i] == Approx(de).margin(1e-12));
  }
  // Rows of E for tokens not in the batch get nothing
  for (std::size_t i = 0; i < 3 * d; ++i) CHECK(gp.embedding[i] == 0.0);
}

TEST_CASE("train model: the float instance on the kernels agrees with the double instance", "[train]") {
  ModelConfig c;
  c.vocab_size = 11, c.d_model = 16, c.n_heads = 4, c.n_layers = 2, c.seq_len = 13,
  c.positional = Positional::sinusoidal;
  const auto params = init_parameters(c, 31);
  attn::SplitMix64 rng(32);
  const Batch batch = sample_batch(Task::induction, 3, c.seq_len, c.vocab_size, rng);
  Workspace<float> wf;
  Workspace<double> wd;
  forward(c, params.data(), batch.tokens.data(), 3, c.seq_len, {}, wf);
  const auto pd = as_double(params);
  forward(c, pd.data(), batch.tokens.data(), 3, c.seq_len, {}, wd);
  CHECK(loss(c, wf, batch) == Approx(loss(c, wd, batch)).epsilon(1e-5));
  double worst_weight = 0;
  const std::size_t cells = 3 * c.n_heads * c.seq_len * c.seq_len;
  for (std::size_t l = 0; l < c.n_layers; ++l) {
    for (std::size_t i = 0; i < cells; ++i)
      worst_weight = std::max(worst_weight, std::abs(wf.layers[l].weights[i] - wd.layers[l].weights[i]));
  }
  CHECK(worst_weight < 1e-5);
  std::vector<float> gf(params.size());
  std::vector<double> gd(params.size());
  backward(c, params.data(), batch, {}, wf, gf.data());
  backward(c, pd.data(), batch, {}, wd, gd.data());
  check_float_against_double(gf, gd, "attention-only");
}

TEST_CASE("train model: causal weights, rows sum to 1, ablation zeroes a head's output", "[train]") {
  const ModelConfig c = small_config(Positional::sinusoidal);
  const auto params = init_parameters(c, 41);
  const std::vector<std::int32_t> tokens = {0, 1, 2, 3};
  Workspace<float> ws;
  forward(c, params.data(), tokens.data(), 1, 4, {}, ws);
  const std::size_t T = 4;
  for (std::size_t lh = 0; lh < c.n_layers * c.n_heads; ++lh) {
    for (std::size_t i = 0; i < T; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < T; ++j) {
        const float w = ws.layers[lh / c.n_heads].weights[((lh % c.n_heads) * T + i) * T + j];
        if (j > i) CHECK(w == 0.0f);
        sum += w;
      }
      CHECK(sum == Approx(1.0).epsilon(1e-6));
    }
  }
  std::vector<std::uint8_t> all(c.n_layers * c.n_heads, 1);
  forward(c, params.data(), tokens.data(), 1, 4, all, ws);
  // Every head ablated: the residual stream is x₀ throughout
  for (std::size_t i = 0; i < T * c.d_model; ++i) CHECK(ws.layers[c.n_layers - 1].out[i] == ws.x0[i]);
}

TEST_CASE("train model: bad sizes and tokens are refused", "[train]") {
  ModelConfig c = small_config(Positional::sinusoidal);
  const auto params = init_parameters(c, 1);
  Workspace<float> ws;
  const std::vector<std::int32_t> bad = {0, 5};
  CHECK_THROWS_WITH(forward(c, params.data(), bad.data(), 1, 2, {}, ws), Catch::Contains("outside [0, vocabSize = 5)"));
  const std::vector<std::int32_t> long_seq(5, 0);
  CHECK_THROWS_WITH(forward(c, params.data(), long_seq.data(), 1, 5, {}, ws), Catch::Contains("1 to seqLen = 4"));
  c.n_heads = 3;
  CHECK_THROWS_WITH(check_config(c), Catch::Contains("numHeads must divide dModel"));
  CHECK_THROWS_WITH(attn::value_of(kPositionalNames, "rope", "positionalEncoding"),
                    Catch::Contains("'sinusoidal', 'learned', 'none'"));
}

namespace {

// The language models' configuration at test size: F = 5 frozen input rows and 2 learned ones (ids 5, 6),
// post-LN blocks with a feed-forward layer and biases, V_out = 5 outputs; head: BERT's output head.
ModelConfig language_config(bool causal, bool tied, bool head = false) {
  ModelConfig c;
  c.vocab_size = 7;
  c.frozen_rows = 5;
  c.output_size = 5;
  c.d_model = 4;
  c.n_heads = 2;
  c.n_layers = 2;
  c.seq_len = 4;
  c.d_ff = 6;
  c.layer_norm = true;
  c.biases = true;
  c.causal = causal;
  c.tied_output = tied;
  c.output_head = head;
  return c;
}

FrozenInputs<double> frozen_inputs(const ModelConfig& c, std::uint64_t seed) {
  FrozenInputs<double> frozen;
  attn::SplitMix64 rng(seed);
  for (std::size_t i = 0; i < c.frozen_rows * c.d_model; ++i) frozen.table.push_back(2 * rng.uniform() - 1);
  if (c.tied_output) frozen.output_rows = {0, 2, 3, 4, 6};  // the last output (<unk>) tied to a learned row
  return frozen;
}

// Two sequences over every input id; targets in [0, V_out), every other position scored.
Batch language_batch(const ModelConfig& c) {
  Batch batch;
  batch.batch_size = 2;
  batch.seq_len = c.seq_len;
  batch.tokens = {0, 5, 2, 6, 6, 1, 3, 4};
  batch.targets = {1, -1, 4, 0, -1, 2, 3, -1};
  for (const std::int32_t t : batch.targets) batch.scored.push_back(t >= 0 ? 1 : 0);
  return batch;
}

}  // namespace

TEST_CASE(
    "train model: the language-model blocks' gradients (LayerNorm, feed-forward, biases, <unk>, output) agree with "
    "finite differences",
    "[train]") {
  for (const bool causal : {true, false}) {
    for (const bool tied : {false, true}) {
      for (const bool head : {false, true}) {
        const ModelConfig c = language_config(causal, tied, head);
        std::printf("%s, %s output%s:\n", causal ? "causal" : "bidirectional", tied ? "tied" : "untied",
                    head ? " after BERT's output head" : "");
        check_gradients(c, {}, 51, language_batch(c), frozen_inputs(c, 52));
        std::printf("the same, output layer at the scored rows only (forward_scored):\n");
        check_gradients(c, {}, 51, language_batch(c), frozen_inputs(c, 52), true);
      }
    }
  }
  ModelConfig one = language_config(true, false);
  one.n_layers = 1, one.layer_norm = false;  // a feed-forward layer without norms
  check_gradients(one, {}, 53, language_batch(one), frozen_inputs(one, 54));
}

TEST_CASE("train model: the output layer at the scored rows only gives the full pass's loss and gradients", "[train]") {
  for (const bool tied : {false, true}) {
    for (const bool head : {false, true}) {
      const ModelConfig c = language_config(false, tied, head);
      const auto frozen = frozen_inputs(c, 81);
      const auto params = as_double(init_parameters(c, 81));
      const Batch batch = language_batch(c);
      Workspace<double> full, scored;
      forward_pass(c, params, batch, {}, full, frozen, false);
      forward_pass(c, params, batch, {}, scored, frozen, true);
      CHECK(scored.output_rows == std::vector<std::size_t>{0, 2, 3, 5, 6});
      CHECK(loss(c, scored, batch) == Approx(loss(c, full, batch)).epsilon(1e-14));
      std::vector<double> g_full(params.size()), g_scored(params.size());
      const double sum_full = backward(c, params.data(), batch, {}, full, g_full.data(), frozen);
      const double sum_scored = backward(c, params.data(), batch, {}, scored, g_scored.data(), frozen);
      CHECK(sum_scored == Approx(sum_full).epsilon(1e-14));
      for (std::size_t i = 0; i < params.size(); ++i) CHECK(g_scored[i] == Approx(g_full[i]).margin(1e-14));
    }
  }
}

TEST_CASE("train model: frozen input rows get no gradient and are read as given", "[train]") {
  const ModelConfig c = language_config(true, true);
  const auto frozen = frozen_inputs(c, 61);
  const auto params = as_double(init_parameters(c, 61));
  const Batch batch = language_batch(c);
  Workspace<double> ws;
  forward(c, params.data(), batch.tokens.data(), 2, c.seq_len, {}, ws, frozen);
  // x₀ row 0 is frozen row 0 + P[0] = frozen row 0 + (0, 1, 0, 1)
  for (std::size_t j = 0; j < c.d_model; ++j)
    CHECK(ws.x0[j] == Approx(frozen.table[j] + (j % 2 ? 1.0 : 0.0)).epsilon(1e-15));
  std::vector<double> grads(params.size());
  backward(c, params.data(), batch, {}, ws, grads.data(), frozen);
  CHECK(parameter_specs(c).front().name == "embedding");
  CHECK(parameter_specs(c).front().shape == std::vector<std::size_t>{2, 4});  // only the learned rows are parameters
  FrozenInputs<double> wrong = frozen;
  wrong.table.pop_back();
  CHECK_THROWS_WITH(forward(c, params.data(), batch.tokens.data(), 2, c.seq_len, {}, ws, wrong),
                    Catch::Contains("frozenRows × dModel"));
}

TEST_CASE("train model: the language-model configuration's float path on the kernels agrees with the double path",
          "[train]") {
  for (const bool head : {false, true}) {
    ModelConfig c = language_config(true, false, head);
    c.d_model = 16, c.n_heads = 4, c.d_ff = 24, c.seq_len = 6;
    const FrozenInputs<double> frozen_d = frozen_inputs(c, 71);
    FrozenInputs<float> frozen_f;
    frozen_f.table.assign(frozen_d.table.begin(), frozen_d.table.end());
    const auto params = init_parameters(c, 72);
    Batch batch;
    batch.batch_size = 2, batch.seq_len = 6;
    batch.tokens = {0, 5, 2, 6, 1, 3, 4, 4, 6, 0, 2, 5};
    batch.targets = {1, 4, 0, 2, 3, 1, 0, 0, 2, 4, 1, 3};
    batch.scored.assign(12, 1);
    Workspace<float> wf;
    Workspace<double> wd;
    forward(c, params.data(), batch.tokens.data(), 2, 6, {}, wf, frozen_f);
    const auto pd = as_double(params);
    forward(c, pd.data(), batch.tokens.data(), 2, 6, {}, wd, frozen_d);
    CHECK(loss(c, wf, batch) == Approx(loss(c, wd, batch)).epsilon(1e-5));
    std::vector<float> gf(params.size());
    std::vector<double> gd(params.size());
    backward(c, params.data(), batch, {}, wf, gf.data(), frozen_f);
    backward(c, pd.data(), batch, {}, wd, gd.data(), frozen_d);
    check_float_against_double(
        gf, gd, head ? "language-model configuration with BERT's output head" : "language-model configuration");
  }
}
