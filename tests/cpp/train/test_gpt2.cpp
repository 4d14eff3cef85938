#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/gpt2.hpp"
#include "attn/train/head_statistics.hpp"

using namespace attn::train;

namespace {

using FileTensors = std::vector<std::pair<std::string, std::vector<std::size_t>>>;

// The (name, shape) list of a file holding every tensor of `config`, under `prefix`, with HF's mask buffers.
FileTensors file_of(const Gpt2Config& config, const std::string& prefix = "") {
  FileTensors out;
  for (const Gpt2TensorSpec& spec : gpt2_tensor_specs(config)) out.emplace_back(prefix + spec.name, spec.shape);
  for (std::size_t l = 0; l < config.n_layers; ++l)
    out.emplace_back(prefix + "h." + std::to_string(l) + ".attn.bias", std::vector<std::size_t>{1, 1, 4, 4});
  return out;
}

const Gpt2Config kSmall{11, 9, 8, 2, 2, 12};  // V, n_positions, d, H, L, d_ff

// Every tensor of `model` loaded with seeded values in [−scale, scale), in blocks of 3 rows.
void load_random(Gpt2Model& model, std::uint64_t seed, float scale = 0.5f) {
  attn::SplitMix64 rng(seed);
  const auto specs = gpt2_tensor_specs(model.config());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::size_t rows = specs[i].shape.size() == 1 ? 1 : specs[i].shape[0], cols = specs[i].shape.back();
    for (std::size_t first = 0; first < rows; first += 3) {
      const std::size_t count = std::min<std::size_t>(3, rows - first);
      std::vector<float> values(count * cols);
      for (float& v : values) v = scale * (2.0f * static_cast<float>(rng.uniform()) - 1.0f);
      model.load(i, first, values.data(), count);
    }
  }
  model.finish_loading();
}

}  // namespace

TEST_CASE("gpt2: the layout's tensors, and the config read from a file's shapes", "[train]") {
  const auto specs = gpt2_tensor_specs(kSmall);
  REQUIRE(specs.size() == 2 + 12 * 2 + 2);
  CHECK(specs[4].name == "h.0.attn.c_attn.weight");
  CHECK(specs[4].shape == std::vector<std::size_t>{8, 24});
  CHECK(specs[12].name == "h.0.mlp.c_proj.weight");
  CHECK(specs[12].shape == std::vector<std::size_t>{12, 8});
  // GPT-2 small: 124,439,808 parameters (Radford et al. 2019 report 117 M, counted without wpe and the biases'
  // rounding)
  CHECK(Gpt2Config{50257, 1024, 768, 12, 12, 3072}.parameter_count() == 124439808);
  for (const std::string prefix : {"", "transformer."}) {
    const Gpt2FileLayout layout = gpt2_file_layout(file_of(kSmall, prefix), 2);
    CHECK(layout.config.vocab_size == 11);
    CHECK(layout.config.n_positions == 9);
    CHECK(layout.config.n_layers == 2);
    CHECK(layout.config.d_ff == 12);
    REQUIRE(layout.tensor_of_spec.size() == specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) CHECK(layout.tensor_of_spec[i] == i);
  }
  Gpt2Config wide = kSmall;
  wide.d_model = 128, wide.n_heads = 1;
  CHECK(gpt2_file_layout(file_of(wide)).config.n_heads == 2);  // d / 64 without config.json
}

TEST_CASE("gpt2: a file of another layout is an error naming what is wrong", "[train]") {
  const auto fails_with = [](const FileTensors& tensors, const std::string& words, std::size_t heads = 2) {
    CHECK_THROWS_WITH(gpt2_file_layout(tensors, heads), Catch::Contains(words));
  };
  FileTensors bert = {{"bert.embeddings.word_embeddings.weight", {11, 8}}};
  fails_with(bert, "no wte.weight: not a GPT-2 checkpoint in Hugging Face's layout");
  FileTensors missing = file_of(kSmall);
  missing.erase(missing.begin() + 7);  // h.0.attn.c_proj.bias
  fails_with(missing, "tensor 'h.0.attn.c_proj.bias' is missing");
  FileTensors reshaped = file_of(kSmall);
  reshaped[4].second = {24, 8};  // c_attn as nn.Linear [3d, d] (nanoGPT's own layout), not Conv1D
  fails_with(reshaped, "tensor 'h.0.attn.c_attn.weight' has shape [24, 8], expected [8, 24]");
  FileTensors mixed = file_of(kSmall, "transformer.");
  mixed[3].first = "h.0.ln_1.bias";
  fails_with(mixed, "tensor 'h.0.ln_1.bias' is not under 'transformer.'");
  FileTensors extra = file_of(kSmall);
  extra.emplace_back("h.0.attn.q_proj.weight", std::vector<std::size_t>{8, 8});
  fails_with(extra, "tensor 'h.0.attn.q_proj.weight' is not part of GPT-2's layout");
  fails_with(file_of(kSmall), "is not a multiple of n_heads = 3", 3);
  fails_with(file_of(kSmall), "not a multiple of 64, GPT-2's head width: give n_heads", 0);
  CHECK_THROWS_WITH(Gpt2Model(Gpt2Config{50257, 1024, 2048, 16, 24, 8192}), Catch::Contains("above the limit"));
}

TEST_CASE("gpt2: a hand-worked forward pass", "[train]") {
  // d = 2, one head, one layer. LN₁ and LN₂ have γ = β = 0, so each sublayer reads 0 and adds its biases' path:
  // Q = K = 0 (uniform attention over the causal prefix), V = b_v = (1, 2), W_proj = I: x += (1, 2);
  // the feed-forward hidden is GELU_tanh(b_fc) = GELU_tanh((1, −2)) = (0.8411920, −0.0454023), W_fc_proj = I.
  // LN_f has γ = 1, β = 0: for d = 2 it maps (u, w) to (s, −s), s = (u − w)/2 / √(((u − w)/2)² + 1e-5).
  Gpt2Model model(Gpt2Config{3, 3, 2, 1, 1, 2});
  const std::vector<std::vector<float>> tensors = {{1, 0, 0, 1, 2, 1},        // wte: token 0 (1, 0), 1 (0, 1), 2 (2, 1)
                                                   {0, 0, 0.5f, 0, 0, 0.5f},  // wpe
                                                   {0, 0},
                                                   {0, 0},  // ln_1
                                                   std::vector<float>(12, 0.0f),
                                                   {0, 0, 0, 0, 1, 2},  // c_attn: W = 0, b = (b_q, b_k, b_v)
                                                   {1, 0, 0, 1},
                                                   {0, 0},  // c_proj = I
                                                   {0, 0},
                                                   {0, 0},  // ln_2
                                                   std::vector<float>(4, 0.0f),
                                                   {1, -2},  // c_fc
                                                   {1, 0, 0, 1},
                                                   {0, 0},  // mlp.c_proj = I
                                                   {1, 1},
                                                   {0, 0}};  // ln_f
  const auto specs = gpt2_tensor_specs(model.config());
  for (std::size_t i = 0; i < specs.size(); ++i)
    model.load(i, 0, tensors[i].data(), specs[i].shape.size() == 1 ? 1 : specs[i].shape[0]);
  model.finish_loading();
  const LanguageRun r = model.run({2, 0, 1}, 3);
  const double g1 = 0.8411919906082768, g2 = -0.04540230591222494;
  const double x0[3][2] = {{2, 1}, {1.5, 0}, {0, 1.5}};  // wte[id] + wpe[t]
  const double wte[3][2] = {{1, 0}, {0, 1}, {2, 1}};
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t j = 0; j < 3; ++j)  // uniform over the prefix, 0 after it
      CHECK(r.attention[t * 3 + j] == Approx(j <= t ? 1.0 / (t + 1) : 0.0).margin(1e-7));
    const double u = x0[t][0] + 1 + g1, w = x0[t][1] + 2 + g2;
    CHECK(r.hidden[t * 2] == Approx(u).epsilon(1e-6));
    CHECK(r.hidden[t * 2 + 1] == Approx(w).epsilon(1e-6));
    const double half = (u - w) / 2, s = half / std::sqrt(half * half + 1e-5);
    CHECK(r.output_input[t * 2] == Approx(s).epsilon(1e-5));
    double p[3], total = 0;
    for (std::size_t v = 0; v < 3; ++v) total += p[v] = std::exp(s * wte[v][0] - s * wte[v][1]);
    for (std::size_t v = 0; v < 3; ++v) CHECK(r.logits[t * 3 + v] == Approx(s * (wte[v][0] - wte[v][1])).epsilon(1e-5));
    CHECK(r.top[t][0].p == Approx(std::max({p[0], p[1], p[2]}) / total).epsilon(1e-5));
  }
  CHECK(r.embeddings == std::vector<float>{2, 1, 1, 0, 0, 1});  // read back from the packed wteᵀ
}

TEST_CASE("gpt2: causal, knockout and scoring agree with the forward pass", "[train]") {
  Gpt2Model model(kSmall);
  load_random(model, 7);
  const std::vector<std::int32_t> ids = {3, 1, 4, 1, 5, 9, 2};
  const LanguageRun whole = model.run(ids, 5);
  const LanguageRun prefix = model.run({ids.begin(), ids.begin() + 4}, 5, {-1});
  const std::size_t V = 11, T = 7;
  for (std::size_t v = 0; v < V; ++v)  // a token's logits do not depend on the tokens after it
    CHECK(prefix.logits[v] == Approx(whole.logits[3 * V + v]).margin(1e-5));
  const std::vector<double> lp = model.next_log_probs(ids);
  REQUIRE(lp.size() == T - 1);
  for (std::size_t t = 0; t + 1 < T; ++t) {
    double total = 0;
    for (std::size_t v = 0; v < V; ++v) total += std::exp(double(whole.logits[t * V + v]));
    CHECK(lp[t] == Approx(whole.logits[t * V + ids[t + 1]] - std::log(total)).margin(1e-5));
  }
  // Knocking out every head of layer 0 leaves its attention weights but changes what follows.
  const LanguageRun off = model.run(ids, 5, {}, {{0, 0}, {0, 1}});
  CHECK(std::equal(off.attention.begin(), off.attention.begin() + 2 * T * T, whole.attention.begin()));
  CHECK(off.logits != whole.logits);
  CHECK_THROWS_WITH(model.run(ids, 5, {}, {{2, 0}}), Catch::Contains("gpt2.run: ablate[0]"));
  CHECK_THROWS_WITH(model.run({3, 11}, 5), Catch::Contains("token 1 has id 11, outside [0, 11)"));
  CHECK_THROWS_WITH(model.run(std::vector<std::int32_t>(10, 1), 5), Catch::Contains("1 to 9 tokens, got 10"));
  CHECK_THROWS_WITH(model.run(ids, 5, {7}), Catch::Contains("position"));
}

TEST_CASE("gpt2: one prediction's log-probability, with heads off and a token occluded by the mean embedding",
          "[train]") {
  // wte's last row is the mean of the ten before it, so it is the mean of all eleven: occluding a token must equal
  // reading token 10 there (every other tensor random, as load_random draws them).
  Gpt2Model model(kSmall);
  attn::SplitMix64 rng(11);
  const auto specs = gpt2_tensor_specs(kSmall);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::size_t rows = specs[i].shape.size() == 1 ? 1 : specs[i].shape[0], cols = specs[i].shape.back();
    std::vector<float> values(rows * cols);
    for (float& v : values) v = 0.5f * (2.0f * static_cast<float>(rng.uniform()) - 1.0f);
    if (i == 0) {
      for (std::size_t c = 0; c < cols; ++c) {
        double sum = 0;
        for (std::size_t r = 0; r + 1 < rows; ++r) sum += values[r * cols + c];
        values[(rows - 1) * cols + c] = static_cast<float>(sum / static_cast<double>(rows - 1));
      }
    }
    model.load(i, 0, values.data(), rows);
  }
  model.finish_loading();
  const std::vector<std::int32_t> ids = {3, 1, 4, 1, 5, 9, 2};
  const std::size_t V = 11;
  const LanguageRun whole = model.run(ids, 5);
  const auto log_softmax = [&](const LanguageRun& r, std::size_t t, std::int32_t word) {
    double total = 0;
    for (std::size_t v = 0; v < V; ++v) total += std::exp(double(r.logits[t * V + v]));
    return r.logits[t * V + word] - std::log(total);
  };
  CHECK(model.log_prob_at(ids, 4, 6) == Approx(log_softmax(whole, 4, 6)).margin(1e-5));
  CHECK(model.log_prob_at(ids, -1, 0) == Approx(log_softmax(whole, 6, 0)).margin(1e-5));
  const LanguageRun off = model.run(ids, 5, {}, {{1, 1}});
  CHECK(model.log_prob_at(ids, 4, 6, {{1, 1}}) == Approx(log_softmax(off, 4, 6)).margin(1e-5));
  CHECK(model.log_prob_at(ids, 4, 6, {}, HeadChoice{1, 1}) == Approx(log_softmax(off, 4, 6)).margin(1e-5));
  for (std::size_t t : {0, 2, 4}) {
    std::vector<std::int32_t> replaced = ids;
    replaced[t] = 10;
    CHECK(model.log_prob_at(ids, 4, 6, {}, std::nullopt, t) == Approx(model.log_prob_at(replaced, 4, 6)).margin(1e-5));
  }
  // A head of layer 1 off on top of `ablate` starts from the kept stream of the pass with `ablate` alone at layer 1:
  // the same value, bit for bit, as that head listed in `ablate` (a pass from the first layer).
  const double fresh = model.log_prob_at(ids, 4, 6, {{0, 0}, {1, 1}});
  model.log_prob_at(ids, 4, 6, {{0, 0}});
  CHECK(model.log_prob_at(ids, 4, 6, {{0, 0}}, HeadChoice{1, 1}) == fresh);
  const std::vector<float> row10 = model.run({10}, 1).embeddings;  // wte[10]
  for (std::size_t c = 0; c < kSmall.d_model; ++c) CHECK(model.mean_embedding()[c] == Approx(row10[c]).margin(1e-6));
  CHECK_THROWS_WITH(model.log_prob_at(ids, 4, 11), Catch::Contains("word must be a token id in [0, 11), got 11"));
  CHECK_THROWS_WITH(model.log_prob_at(ids, 4, 1, {}, std::nullopt, 7),
                    Catch::Contains("occluded token must be in [0, 7), got 7"));
  CHECK_THROWS_WITH(model.log_prob_at(ids, 4, 1, {}, HeadChoice{2, 0}), Catch::Contains("alsoOff"));
  CHECK_THROWS_WITH(model.log_prob_at(ids, 7, 1), Catch::Contains("position"));
}

TEST_CASE("gpt2: a head's block step by step is the forward pass's own values, in the pre-LN order", "[train]") {
  Gpt2Model model(kSmall);
  load_random(model, 11);
  const std::vector<std::int32_t> ids = {3, 1, 4, 1, 5};
  const std::size_t T = 5, d = 8, dk = 4;
  const LanguageRun plain = model.run(ids, 3);
  const LanguageRun r = model.run(ids, 3, {}, {}, HeadChoice{1, 1});
  REQUIRE(r.activations);
  const BlockActivations& b = *r.activations;
  CHECK(r.logits == plain.logits);  // following a head changes nothing
  CHECK(b.input == std::vector<float>(plain.hidden.begin(), plain.hidden.begin() + T * d));  // layer 0's output
  CHECK(b.output == std::vector<float>(plain.hidden.begin() + T * d, plain.hidden.end()));
  CHECK(b.weights ==
        std::vector<float>(plain.attention.begin() + (2 + 1) * T * T, plain.attention.begin() + 4 * T * T));
  for (std::size_t i = 0; i < T * d; ++i) {
    CHECK(b.residual1[i] == b.input[i] + b.attention_output[i]);  // the residual stream, added as the pass added it
    CHECK(b.output[i] == b.residual1[i] + b.ff_output[i]);
    CHECK(b.concat[(i / d) * d + dk + i % dk] == b.head_output[(i / d) * dk + i % dk]);  // head 1's columns of Z
  }
  for (std::size_t t = 0; t < T; ++t) {  // the scores' causal softmax is the weights (the values: gpt2.test.js)
    double total = 0;
    for (std::size_t j = 0; j <= t; ++j) total += std::exp(double(b.scores[t * T + j]) - b.scores[t * T]);
    for (std::size_t j = 0; j <= t; ++j)
      CHECK(b.weights[t * T + j] ==
            Approx(std::exp(double(b.scores[t * T + j]) - b.scores[t * T]) / total).margin(1e-6));
    for (std::size_t j = t + 1; j < T; ++j) CHECK(std::isinf(b.scores[t * T + j]));
  }
  CHECK(b.norm1.size() == T * d);
  CHECK(b.norm2.size() == T * d);
  CHECK(b.ff_hidden.size() == T * 12);
  CHECK_THROWS_WITH(model.run(ids, 3, {}, {}, HeadChoice{0, 2}), Catch::Contains("gpt2.run: activations"));
}

TEST_CASE("gpt2: the logit lens reads every layer's residual stream through the output layer", "[train]") {
  Gpt2Model model(kSmall);
  load_random(model, 13, 1.0f);
  const std::vector<std::int32_t> ids = {3, 1, 4, 1, 5, 9};
  const std::size_t T = 6, V = 11, R = 3, k = 4;
  const LanguageRun r = model.run(ids, k);
  const Gpt2Model::LogitLens lens = model.logit_lens(ids, k);
  REQUIRE(lens.ids.size() == R * T * k);
  REQUIRE(lens.next_p.size() == R * T);
  for (std::size_t t = 0; t < T; ++t) {
    for (std::size_t i = 0; i < k; ++i) {  // the last row is the model's own prediction
      CHECK(lens.ids[((R - 1) * T + t) * k + i] == r.top[t][i].id);
      CHECK(lens.p[((R - 1) * T + t) * k + i] == Approx(r.top[t][i].p).margin(1e-6));
    }
    if (t + 1 < T) {
      double total = 0;
      for (std::size_t v = 0; v < V; ++v) total += std::exp(double(r.logits[t * V + v]));
      CHECK(lens.next_p[(R - 1) * T + t] ==
            Approx(std::exp(double(r.logits[t * V + ids[t + 1]])) / total).margin(1e-6));
    } else {
      CHECK(std::isnan(lens.next_p[(R - 1) * T + t]));
    }
  }
  // Row 0 reads x₀ = wte + wpe: at position 0 with wpe[0] alone added, still a distribution over the 11 tokens
  double mass = 0;
  for (std::size_t i = 0; i < k; ++i) mass += lens.p[i];
  CHECK(mass <= 1.0 + 1e-6);
  CHECK(lens.ids != std::vector<std::int32_t>(lens.ids.size(), lens.ids[0]));
  const Gpt2Model::LogitLens last = model.logit_lens(ids, 2, {-1});
  CHECK(last.positions == std::vector<std::size_t>{5});
  CHECK(last.ids.size() == R * 2);
  CHECK(model.position_embeddings().size() == 9 * 8);
}

TEST_CASE("gpt2: the repeated-tokens probe scores every head on its own forward pass", "[train]") {
  Gpt2Model model(kSmall);
  load_random(model, 17, 1.0f);
  const std::size_t R = 3, T = 6, L = 2, H = 2;
  const RepeatedWordsScores s = repeated_words_probe(model, R, 1, 5);
  REQUIRE(s.example.size() == T);
  for (std::size_t t = 0; t < R; ++t) {
    CHECK(s.example[t] == s.example[t + R]);
    CHECK(s.example[t] < 10);  // the last token (<|endoftext|>) is never drawn
  }
  const LanguageRun r = model.run(s.example, 1);
  for (std::size_t lh = 0; lh < L * H; ++lh) {
    const float* a = r.attention.data() + lh * T * T;
    double previous = 0, duplicate = 0, induction = 0;
    for (std::size_t i = 1; i < T; ++i) previous += a[i * T + i - 1];
    for (std::size_t i = R; i < T; ++i) duplicate += a[i * T + i - R], induction += a[i * T + i - R + 1];
    CHECK(s.previous[lh] == Approx(previous / (T - 1)).margin(1e-6));
    CHECK(s.duplicate[lh] == Approx(duplicate / R).margin(1e-6));
    CHECK(s.induction[lh] == Approx(induction / R).margin(1e-6));
  }
  const std::vector<double> lp = model.next_log_probs(s.example);
  CHECK(s.first_half_loss == Approx(-(lp[0] + lp[1]) / 2).margin(1e-9));
  CHECK(s.second_half_loss == Approx(-(lp[3] + lp[4]) / 2).margin(1e-9));
  CHECK_THROWS_WITH(repeated_words_probe(model, 1, 1), Catch::Contains("repeat must be"));
}

TEST_CASE("gpt2: loading checks rows, values and completeness", "[train]") {
  Gpt2Model model(kSmall);
  std::vector<float> row(24, 0.1f);
  CHECK_THROWS_WITH(model.load(2 + 12 * 2 + 2, 0, row.data(), 1), Catch::Contains("tensor must be in [0, 28)"));
  CHECK_THROWS_WITH(model.load(0, 10, row.data(), 2), Catch::Contains("wte.weight has 11 rows"));
  row[5] = std::nanf("");
  CHECK_THROWS_WITH(model.load(4, 0, row.data(), 1), Catch::Contains("'h.0.attn.c_attn.weight' holds a value"));
  CHECK_THROWS_WITH(model.finish_loading(), Catch::Contains("'wte.weight' was not loaded whole (0 of 11 rows)"));
  CHECK_THROWS_WITH(model.run({1}, 1), Catch::Contains("not all loaded"));
}
