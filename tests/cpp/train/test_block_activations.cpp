#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../asset.hpp"
#include "attn/core/positional.hpp"
#include "attn/train/language_model.hpp"
#include "fixture_text.hpp"

using namespace attn::train;

namespace {

using Matrix = std::vector<double>;  // row-major

// A 2-layer post-LN model with biases, a few AdamW steps from its initialization so that every bias, γ and β
// has moved away from 0 or 1 (a step the reference left out would show).
LanguageModel trained_model(Objective objective) {
  const auto [train, held_out] = fixture_text();
  LanguageTrainerOptions o;
  o.objective = objective;
  o.n_layers = 2, o.n_heads = 4, o.d_ff = 16, o.seq_len = 8, o.batch_size = 4, o.shards = 1, o.output_words = 60;
  o.schedule = {1, 10, 0.1f};
  Trainer trainer = language_trainer(o, shipped_table(), train, held_out);
  trainer.step(4);
  return LanguageModel(trainer.config(), objective, corpus_of(trainer).vocabulary().words(), trainer.parameters(),
                       shipped_table());
}

// The reference: the block recomputed in double from the parameters by name (Vaswani et al. 2017 §3.1–3.3,
// post-LN), written out loop by loop, independent of ops.cpp and the attention kernel.
struct Reference {
  const ModelConfig& c;
  std::map<std::string, const float*> p;

  Reference(const LanguageModel& m) : c(m.config()) {
    for (const ParameterSpec& s : parameter_specs(c)) p[s.name] = m.parameters().data() + s.offset;
  }
  const float* at(std::size_t layer, const std::string& name) const {
    return p.at("layers." + std::to_string(layer) + "." + name);
  }

  // y (T, n) = x (T, m) W (m, n) + b
  static Matrix affine(const Matrix& x, const float* w, const float* b, std::size_t T, std::size_t m, std::size_t n) {
    Matrix y(T * n);
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t o = 0; o < n; ++o) {
        double sum = b[o];
        for (std::size_t i = 0; i < m; ++i) sum += x[t * m + i] * static_cast<double>(w[i * n + o]);
        y[t * n + o] = sum;
      }
    }
    return y;
  }
  static Matrix layer_norm(const Matrix& x, const float* gamma, const float* beta, std::size_t T, std::size_t d) {
    Matrix y(T * d);
    for (std::size_t t = 0; t < T; ++t) {
      double mean = 0, var = 0;
      for (std::size_t j = 0; j < d; ++j) mean += x[t * d + j] / static_cast<double>(d);
      for (std::size_t j = 0; j < d; ++j) var += (x[t * d + j] - mean) * (x[t * d + j] - mean) / static_cast<double>(d);
      for (std::size_t j = 0; j < d; ++j)
        y[t * d + j] = gamma[j] * (x[t * d + j] - mean) / std::sqrt(var + kLayerNormEpsilon) + beta[j];
    }
    return y;
  }
  static Matrix add(const Matrix& a, const Matrix& b) {
    Matrix y(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) y[i] = a[i] + b[i];
    return y;
  }

  // Every step of block `layer` for head `head`, by BlockActivations' field names; x: the block's input (T, d).
  // off: the heads knocked out, (L·H) flags, 1 = that head's columns of Z are 0 (empty: none).
  std::map<std::string, Matrix> block(const Matrix& x, std::size_t layer, std::size_t head, std::size_t T,
                                      const std::vector<std::uint8_t>& off = {}) const {
    const std::size_t d = c.d_model, H = c.n_heads, dk = d / H, ff = c.d_ff;
    std::map<std::string, Matrix> s;
    s["input"] = x;
    const Matrix q = affine(x, at(layer, "attention.w_q"), at(layer, "attention.b_q"), T, d, d);
    const Matrix k = affine(x, at(layer, "attention.w_k"), at(layer, "attention.b_k"), T, d, d);
    const Matrix v = affine(x, at(layer, "attention.w_v"), at(layer, "attention.b_v"), T, d, d);
    Matrix z(T * d);
    for (std::size_t h = 0; h < H; ++h) {
      Matrix scores(T * T), weights(T * T, 0.0), out(T * dk, 0.0);
      for (std::size_t i = 0; i < T; ++i) {
        double max = -std::numeric_limits<double>::infinity(), total = 0;
        for (std::size_t j = 0; j < T; ++j) {
          double dot = 0;
          for (std::size_t e = 0; e < dk; ++e) dot += q[i * d + h * dk + e] * k[j * d + h * dk + e];
          scores[i * T + j] =
              c.causal && j > i ? -std::numeric_limits<double>::infinity() : dot / std::sqrt(static_cast<double>(dk));
          max = std::max(max, scores[i * T + j]);
        }
        for (std::size_t j = 0; j < T; ++j) total += std::exp(scores[i * T + j] - max);
        for (std::size_t j = 0; j < T; ++j) {
          weights[i * T + j] = std::exp(scores[i * T + j] - max) / total;
          for (std::size_t e = 0; e < dk; ++e) out[i * dk + e] += weights[i * T + j] * v[j * d + h * dk + e];
        }
        const bool knocked_out = !off.empty() && off[layer * H + h];
        for (std::size_t e = 0; e < dk; ++e) z[i * d + h * dk + e] = knocked_out ? 0.0 : out[i * dk + e];
      }
      if (h != head) continue;
      s["scores"] = scores, s["weights"] = weights, s["head_output"] = out;
      for (const auto& [name, full] : {std::pair{"queries", &q}, std::pair{"keys", &k}, std::pair{"values", &v}}) {
        Matrix cols(T * dk);
        for (std::size_t t = 0; t < T; ++t) {
          for (std::size_t e = 0; e < dk; ++e) cols[t * dk + e] = (*full)[t * d + h * dk + e];
        }
        s[name] = cols;
      }
    }
    s["concat"] = z;
    s["attention_output"] = affine(z, at(layer, "attention.w_o"), at(layer, "attention.b_o"), T, d, d);
    s["residual1"] = add(x, s["attention_output"]);
    s["norm1"] = layer_norm(s["residual1"], at(layer, "norm1.gamma"), at(layer, "norm1.beta"), T, d);
    Matrix hidden = affine(s["norm1"], at(layer, "feed_forward.w_1"), at(layer, "feed_forward.b_1"), T, d, ff);
    for (double& u : hidden) u = std::max(u, 0.0);
    s["ff_hidden"] = hidden;
    s["ff_output"] = affine(hidden, at(layer, "feed_forward.w_2"), at(layer, "feed_forward.b_2"), T, ff, d);
    s["residual2"] = add(s["norm1"], s["ff_output"]);
    s["output"] = layer_norm(s["residual2"], at(layer, "norm2.gamma"), at(layer, "norm2.beta"), T, d);
    return s;
  }
};

// The largest |a − b| over the finite entries; infinity if a and b disagree in size or in where they are −∞.
double max_difference(const std::vector<float>& a, const Matrix& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isinf(a[i]) || std::isinf(b[i])) {
      if (a[i] != b[i]) return std::numeric_limits<double>::infinity();
      continue;
    }
    worst = std::max(worst, std::abs(static_cast<double>(a[i]) - b[i]));
  }
  return worst;
}

}  // namespace

TEST_CASE("block activations: every step of a head's block equals the block recomputed in double from the parameters",
          "[train]") {
  const std::string text = "The river bank was muddy after the storm";
  for (const Objective objective : {Objective::causal, Objective::masked}) {
    LanguageModel model = trained_model(objective);
    const Reference reference(model);
    const ModelConfig& c = model.config();
    const std::size_t d = c.d_model;
    const LanguageRun plain = model.run(text, 3);
    const std::size_t T = plain.tokens.size();
    REQUIRE(T == 8);
    // x₀ = row(token) + P: the frozen word vector (or the learned row of <unk>) and the sinusoidal P
    const std::vector<float> frozen = frozen_rows(shipped_table());
    const auto row = [&](std::size_t id) {
      return id < c.frozen_rows ? frozen.data() + id * d : reference.p.at("embedding") + (id - c.frozen_rows) * d;
    };
    const auto P = attn::sinusoidal_encoding(T, d);
    Matrix x(T * d), words(T * d), positions(T * d);
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t j = 0; j < d; ++j) {
        words[t * d + j] = row(static_cast<std::size_t>(plain.inputs[t]))[j];
        positions[t * d + j] = P(t, j);
        x[t * d + j] = words[t * d + j] + positions[t * d + j];
      }
    }
    for (std::size_t layer = 0; layer < c.n_layers; ++layer) {
      for (std::size_t head = 0; head < c.n_heads; ++head) {
        const LanguageRun r = model.run(text, 3, OutputPositions::all, HeadChoice{layer, head});
        REQUIRE(r.activations);
        const BlockActivations& a = *r.activations;
        CHECK(a.layer == layer);
        CHECK(a.head == head);
        CHECK(r.attention == plain.attention);  // asking for the steps changes nothing else
        std::map<std::string, Matrix> expected = reference.block(x, layer, head, T);
        expected["word_vectors"] = words, expected["positional"] = positions;
        const std::pair<const char*, const std::vector<float>*> fields[] = {{"word_vectors", &a.word_vectors},
                                                                            {"positional", &a.positional},
                                                                            {"input", &a.input},
                                                                            {"queries", &a.queries},
                                                                            {"keys", &a.keys},
                                                                            {"values", &a.values},
                                                                            {"scores", &a.scores},
                                                                            {"weights", &a.weights},
                                                                            {"head_output", &a.head_output},
                                                                            {"concat", &a.concat},
                                                                            {"attention_output", &a.attention_output},
                                                                            {"residual1", &a.residual1},
                                                                            {"norm1", &a.norm1},
                                                                            {"ff_hidden", &a.ff_hidden},
                                                                            {"ff_output", &a.ff_output},
                                                                            {"residual2", &a.residual2},
                                                                            {"output", &a.output}};
        for (const auto& [name, values] : fields) {
          const double worst = max_difference(*values, expected.at(name));
          if ((layer == 1 && head == 2) || worst >= 1e-4) {
            std::printf("%s L%zu H%zu %-16s max |C++ − double| %.2e %s\n", name_of(kObjectiveNames, objective),
                        layer + 1, head + 1, name, worst, worst < 1e-4 ? "OK" : "NOT OK");
          }
          CHECK(worst < 1e-4);
        }
        // The block's output is the run's hidden state of that layer.
        CHECK(a.output == std::vector<float>(r.hidden.begin() + static_cast<std::ptrdiff_t>(layer * T * d),
                                             r.hidden.begin() + static_cast<std::ptrdiff_t>((layer + 1) * T * d)));
      }
      x = reference.block(x, layer, 0, T).at("output");  // the next layer's input
    }
  }
}

TEST_CASE("block activations: a layer or head that does not exist is refused, naming the range", "[train]") {
  LanguageModel model = trained_model(Objective::causal);
  CHECK_THROWS_AS(model.run("the bank", 3, OutputPositions::all, HeadChoice{2, 0}), std::out_of_range);
  CHECK_THROWS_WITH(model.run("the bank", 3, OutputPositions::all, HeadChoice{2, 0}),
                    Catch::Contains("activations: layer must be in [0, 2), got 2"));
  CHECK_THROWS_WITH(model.run("the bank", 3, OutputPositions::all, HeadChoice{0, 4}),
                    Catch::Contains("activations: head must be in [0, 4), got 4"));
  CHECK_FALSE(model.run("the bank", 3).activations);
}

TEST_CASE("knockout: run with ablate equals the model recomputed in double with those heads' outputs zeroed",
          "[train]") {
  // The heads' blocks of Z = [head_1 | … | head_H] are 0 before W_O (model.hpp); the reference zeroes them in its own
  // block() and carries x through both layers and the tied output layer logits = x_L U + b (U: the output words' rows).
  for (const Objective objective : {Objective::causal, Objective::masked}) {
    const std::string text = objective == Objective::causal ? "The river bank was muddy after the storm"
                                                            : "The river bank was [MASK] after the storm";
    LanguageModel model = trained_model(objective);
    const Reference reference(model);
    const ModelConfig& c = model.config();
    const std::size_t d = c.d_model, H = c.n_heads, V = c.outputs();
    const std::vector<HeadChoice> ablate = {{0, 1}, {1, 3}};
    std::vector<std::uint8_t> off(c.n_layers * H, 0);
    for (const HeadChoice& h : ablate) off[h.layer * H + h.head] = 1;
    const LanguageRun plain = model.run(text, 3, LanguageModel::Positions{std::vector<std::int64_t>{3}});
    const LanguageRun r =
        model.run(text, 3, LanguageModel::Positions{std::vector<std::int64_t>{3}}, std::nullopt, ablate);
    const std::size_t T = r.tokens.size();
    REQUIRE(T == 8);
    const std::vector<float> frozen = frozen_rows(shipped_table());
    const auto row = [&](std::size_t id) {
      return id < c.frozen_rows ? frozen.data() + id * d : reference.p.at("embedding") + (id - c.frozen_rows) * d;
    };
    const auto P = attn::sinusoidal_encoding(T, d);
    Matrix x(T * d);
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t j = 0; j < d; ++j) x[t * d + j] = row(static_cast<std::size_t>(r.inputs[t]))[j] + P(t, j);
    }
    for (std::size_t layer = 0; layer < c.n_layers; ++layer) {
      x = reference.block(x, layer, 0, T, off).at("output");
      const double worst =
          max_difference(std::vector<float>(r.hidden.begin() + static_cast<std::ptrdiff_t>(layer * T * d),
                                            r.hidden.begin() + static_cast<std::ptrdiff_t>((layer + 1) * T * d)),
                         x);
      CHECK(worst < 1e-4);
    }
    const std::vector<std::int32_t>& rows = model.vocabulary().input_rows();
    double worst = 0, moved = 0;
    for (std::size_t o = 0; o < V; ++o) {
      double logit = reference.p.at("output_bias")[o];
      for (std::size_t j = 0; j < d; ++j) logit += x[3 * d + j] * row(static_cast<std::size_t>(rows[o]))[j];
      worst = std::max(worst, std::abs(logit - r.logits[o]));
      moved = std::max(moved, std::abs(static_cast<double>(plain.logits[o] - r.logits[o])));
    }
    std::printf(
        "%s, heads L1 H2 and L2 H4 off: logits at position 3 max |C++ − double| %.2e %s (they moved up to %.2e)\n",
        name_of(kObjectiveNames, objective), worst, worst < 1e-4 ? "OK" : "NOT OK", moved);
    CHECK(worst < 1e-4);  // float32 through two blocks, as the block test's tolerance
    CHECK(moved > 1e-3);  // the knockout changed the prediction
    // layer 1's attention weights come before any knocked-out output; layer 2's read the changed x_1
    const std::size_t cells = H * T * T;
    CHECK(std::equal(r.attention.begin(), r.attention.begin() + static_cast<std::ptrdiff_t>(cells),
                     plain.attention.begin()));
    CHECK_FALSE(std::equal(r.attention.begin() + static_cast<std::ptrdiff_t>(cells), r.attention.end(),
                           plain.attention.begin() + static_cast<std::ptrdiff_t>(cells)));
  }
}

TEST_CASE("knockout: a head that does not exist, or one listed twice, is refused naming it", "[train]") {
  LanguageModel model = trained_model(Objective::causal);
  const auto run = [&](std::vector<HeadChoice> ablate) {
    return model.run("the bank", 3, OutputPositions::all, std::nullopt, ablate);
  };
  CHECK_THROWS_AS(run({{2, 0}}), std::out_of_range);
  CHECK_THROWS_WITH(run({{0, 1}, {2, 0}}), Catch::Contains("ablate[1]: layer must be in [0, 2), got 2"));
  CHECK_THROWS_WITH(run({{0, 4}}), Catch::Contains("ablate[0]: head must be in [0, 4), got 4"));
  CHECK_THROWS_WITH(run({{1, 2}, {1, 2}}), Catch::Contains("ablate[1]: layer 1, head 2 is listed twice"));
  CHECK_NOTHROW(run({}));
  CHECK_THROWS_WITH(model.attribute("the bank", 0, 0, {{0, 9}}), Catch::Contains("head must be in [0, 4), got 9"));
  CHECK_THROWS_WITH(model.attribute("the bank", 2, 0), Catch::Contains("position must be in [-2, 2)"));
  CHECK_THROWS_WITH(model.attribute("the bank", 0, -1), Catch::Contains("word must be an output id"));
}

TEST_CASE("knockout: attribute() equals the runs done one by one (a head off, a token replaced by [MASK])", "[train]") {
  LanguageModel model = trained_model(Objective::masked);
  const std::string text = "the river [MASK] was muddy";
  const LanguageRun first = model.run(text, 1, OutputPositions::masks);
  const std::int32_t word = first.top[0][0].id;
  const std::vector<HeadChoice> ablate = {{1, 0}};
  const LanguageModel::Attribution a = model.attribute(text, 2, word, ablate);
  const ModelConfig& c = model.config();
  const std::size_t V = c.outputs();
  // ln p(word) from run()'s logits at position 2
  const auto log_p = [&](const LanguageRun& r) {
    double max = r.logits[0], total = 0;
    for (std::size_t o = 0; o < V; ++o) max = std::max(max, static_cast<double>(r.logits[o]));
    for (std::size_t o = 0; o < V; ++o) total += std::exp(r.logits[o] - max);
    return r.logits[static_cast<std::size_t>(word)] - max - std::log(total);
  };
  const LanguageModel::Positions at{std::vector<std::int64_t>{2}};
  const double base = log_p(model.run(text, 1, at, std::nullopt, ablate));
  CHECK(a.log_prob == Approx(base).margin(1e-5));
  REQUIRE(a.heads.size() == c.n_layers * c.n_heads);
  for (std::size_t l = 0; l < c.n_layers; ++l) {
    for (std::size_t h = 0; h < c.n_heads; ++h) {
      if (l == 1 && h == 0) {
        CHECK(a.heads[l * c.n_heads + h] == 0.0);  // already off
        continue;
      }
      const double off = log_p(model.run(text, 1, at, std::nullopt, {{1, 0}, {l, h}}));
      CHECK(a.heads[l * c.n_heads + h] == Approx(off - base).margin(1e-5));
    }
  }
  // "river" replaced by [MASK]: the same text with the word written as [MASK]
  REQUIRE(a.occlusion.size() == 5);
  CHECK(a.occlusion[1] ==
        Approx(log_p(model.run("the [MASK] [MASK] was muddy", 1, at, std::nullopt, ablate)) - base).margin(1e-5));
  CHECK(a.occlusion[2] == 0.0);  // the blank itself
  CHECK(a.occlusion[1] != 0.0);
}
