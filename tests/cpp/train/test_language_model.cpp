#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "../asset.hpp"
#include "attn/core/positional.hpp"
#include "fixture_text.hpp"
#include "small_language_options.hpp"
#include "attn/train/head_statistics.hpp"
#include "attn/train/language_model_file.hpp"

using namespace attn::train;

namespace {

LanguageModel round_trip(const Trainer& trainer, const LanguageTrainerOptions& options) {
  const SafeTensors file = language_model_file(trainer, recipe_json(options), "{}", {1.0}, true);
  const auto bytes = write_safetensors(file);
  return read_language_model(read_safetensors(bytes.data(), bytes.size(), "model.safetensors"), "model.safetensors",
                             shipped_table());
}

}  // namespace

TEST_CASE("language model: a file round trip runs the trained parameters, and weights, top-k and scores are consistent",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer trainer = language_trainer(small_options(Objective::causal), shipped_table(), train, held_out);
  trainer.step(5);
  LanguageModel model = round_trip(trainer, small_options(Objective::causal));
  const LanguageRun r = model.run("The river bank was muddy after the storm", 10);
  const std::size_t T = r.tokens.size(), H = 4, V = model.config().outputs();
  REQUIRE(T == 8);
  REQUIRE(r.attention.size() == H * T * T);
  REQUIRE(r.hidden.size() == T * 100);
  for (std::size_t h = 0; h < H; ++h) {
    for (std::size_t i = 0; i < T; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < T; ++j) {
        const float w = r.attention[(h * T + i) * T + j];
        if (j > i) CHECK(w == 0.0f);  // causal
        sum += w;
      }
      CHECK(sum == Approx(1.0).epsilon(1e-5));
    }
  }
  for (std::size_t t = 0; t < T; ++t) {
    const float* row = r.logits.data() + t * V;
    double total = 0, max = row[0];
    for (std::size_t j = 0; j < V; ++j) max = std::max(max, static_cast<double>(row[j]));
    for (std::size_t j = 0; j < V; ++j) total += std::exp(row[j] - max);
    for (std::size_t i = 0; i < 10; ++i) {
      CHECK(r.top[t][i].p == Approx(std::exp(row[r.top[t][i].id] - max) / total).epsilon(1e-5));
      if (i) CHECK(r.top[t][i].p <= r.top[t][i - 1].p);
    }
    CHECK(r.unk[t] == Approx(std::exp(row[V - 1] - max) / total).epsilon(1e-5));  // <unk> is last, apart from top
  }
  // sample(): the same seed, the same word; top-k = 1, the most likely word after the text.
  const LanguageModel::Sample a = model.sample("The river bank was muddy after the storm", {0.8, 20, 5});
  const LanguageModel::Sample b = model.sample("The river bank was muddy after the storm", {0.8, 20, 5});
  CHECK((a.id == b.id && a.word == b.word && a.position == T - 1));
  {
    const LanguageRun last = model.run("The river bank was muddy after the storm", 1, std::vector<std::int64_t>{-1});
    CHECK(model.sample("The river bank was muddy after the storm", {1.0, 1, 9}).id == last.top[0][0].id);
  }
  const LanguageModel::Score s = model.score("The river bank was muddy after the storm");
  double mean = 0;
  for (const float lp : s.log_prob) mean += lp;
  mean /= static_cast<double>(s.log_prob.size());
  CHECK(s.log_prob.size() == T - 1);
  CHECK(s.perplexity == Approx(std::exp(-mean)).epsilon(1e-6));
  // "bank" follows "river": its log-probability is the log-softmax of position 1's logits at bank's output id
  const float* row1 = r.logits.data() + 1 * V;
  double total = 0;
  for (std::size_t j = 0; j < V; ++j) total += std::exp(static_cast<double>(row1[j]));
  CHECK(s.log_prob[1] == Approx(row1[model.vocabulary().id_of("bank")] - std::log(total)).epsilon(1e-4));
}

TEST_CASE("language model: the first block's input is each word's table row plus sinusoidal P, recomputed here",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer trainer = language_trainer(small_options(Objective::masked), shipped_table(), train, held_out);
  trainer.step(2);
  LanguageModel model = round_trip(trainer, small_options(Objective::masked));
  // "bank" twice at different positions: the same row, different inputs; a [MASK] reads the table's mask vector.
  const LanguageRun r = model.run("the bank by the [MASK] bank", 5, OutputPositions::masks);
  const std::size_t T = r.tokens.size(), d = 100;
  REQUIRE(T == 6);
  REQUIRE(r.embeddings.size() == T * d);
  REQUIRE(r.input.size() == T * d);
  const auto p = attn::sinusoidal_encoding(T, d);
  const attn::EmbeddingTable& table = shipped_table();
  for (const std::size_t t : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
    const auto row = table.vector(static_cast<std::size_t>(table.id_of(r.tokens[t].key)));
    for (std::size_t j = 0; j < d; ++j) {
      CHECK(r.embeddings[t * d + j] == row(j));
      CHECK(r.input[t * d + j] == Approx(row(j) + p(t, j)).margin(1e-6));
    }
  }
  for (std::size_t j = 0; j < d; ++j) CHECK(r.embeddings[4 * d + j] == table.mask_vector()(j));
  CHECK(std::equal(r.embeddings.begin() + d, r.embeddings.begin() + 2 * d, r.embeddings.begin() + 5 * d));
  CHECK_FALSE(std::equal(r.input.begin() + d, r.input.begin() + 2 * d, r.input.begin() + 5 * d));
}

TEST_CASE("language model: outputs at chosen positions equal x_L U + b recomputed in double, and those of a full run",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  for (const bool tied : {false, true}) {
    LanguageTrainerOptions o = small_options(Objective::causal);
    o.tied_output = tied;
    Trainer trainer = language_trainer(o, shipped_table(), train, held_out);
    trainer.step(5);
    LanguageModel model = round_trip(trainer, o);
    const std::string text = "The river bank was muddy after the storm";
    const LanguageRun all = model.run(text, 5);
    const LanguageRun some = model.run(text, 5, LanguageModel::Positions{std::vector<std::int64_t>{-1, 2, 2}});
    const std::size_t T = all.tokens.size(), d = 100, V = model.config().outputs();
    REQUIRE(some.positions == std::vector<std::size_t>{T - 1, 2, 2});
    REQUIRE(some.logits.size() == 3 * V);
    CHECK(some.attention == all.attention);
    CHECK(some.hidden == all.hidden);
    // U: the unembedding parameter, or (tied) the input rows of the output words; b: output_bias
    const auto specs = parameter_specs(model.config());
    const auto spec = [&](const std::string& name) {
      for (const ParameterSpec& p : specs)
        if (p.name == name) return model.parameters().data() + p.offset;
      FAIL("no parameter " << name);
      return model.parameters().data();
    };
    const std::vector<float> frozen = frozen_rows(shipped_table());
    const std::vector<std::int32_t>& rows = model.vocabulary().input_rows();
    const float* x_last = all.hidden.data() + (model.config().n_layers - 1) * T * d;
    double worst = 0;
    for (std::size_t i = 0; i < some.positions.size(); ++i) {
      const std::size_t t = some.positions[i];
      for (std::size_t o = 0; o < V; ++o) {
        double expected = spec("output_bias")[o];
        const auto id = static_cast<std::size_t>(rows[o]);
        for (std::size_t j = 0; j < d; ++j) {
          const double u = !tied ? spec("unembedding")[j * V + o]
                           : id < model.config().frozen_rows
                               ? frozen[id * d + j]
                               : spec("embedding")[(id - model.config().frozen_rows) * d + j];
          expected += static_cast<double>(x_last[t * d + j]) * u;
        }
        worst = std::max(worst, std::abs(expected - some.logits[i * V + o]));
        CHECK(some.logits[i * V + o] == Approx(all.logits[t * V + o]).margin(1e-5));
      }
      for (std::size_t r = 0; r < 5; ++r) CHECK(some.top[i][r].id == all.top[t][r].id);
      // the top 5 are the 5 largest logits: every other output's logit is at most the 5th's
      const float* row = some.logits.data() + i * V;
      std::size_t above = 0;
      const auto unk = static_cast<std::size_t>(model.vocabulary().unk());
      for (std::size_t o = 0; o < V; ++o) above += o != unk && row[o] > row[some.top[i][4].id];
      CHECK(above == 4);  // among the words: <unk> is never listed, its probability is unk[i]
      for (const WordProbability& w : some.top[i]) CHECK(w.id != model.vocabulary().unk());
    }
    std::printf("%s output: logits at 3 positions vs x_L U + b in double: max |difference| %.2e\n",
                tied ? "tied" : "untied", worst);
    CHECK(worst < 1e-4);
    CHECK_THROWS_WITH(model.run(text, 5, std::vector<std::int64_t>{static_cast<std::int64_t>(T)}),
                      Catch::Contains("languageModel.run: position must be in [-8, 8) for 8 tokens, got 8"));
    CHECK_THROWS_WITH(model.run(text, 5, std::vector<std::int64_t>{-9}), Catch::Contains("got -9"));
    CHECK(model.run(text, 5, std::vector<std::int64_t>{}).top.empty());
  }
}

TEST_CASE("language model: bad input is refused with a clear error", "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer causal = language_trainer(small_options(Objective::causal), shipped_table(), train, held_out);
  LanguageModel model = round_trip(causal, small_options(Objective::causal));
  CHECK_THROWS_WITH(model.run(""), Catch::Contains("1 to 256 tokens, got 0"));
  std::string long_text;
  for (int i = 0; i < 300; ++i) long_text += "word ";
  CHECK_THROWS_WITH(model.run(long_text), Catch::Contains("1 to 256 tokens, got 300"));
  CHECK_THROWS_WITH(model.run("the [MASK] was muddy"), Catch::Contains("not trained with [MASK]"));
  CHECK_THROWS_WITH(model.run("the bank", 0), Catch::Contains("k must be in [1, 100]"));
  CHECK_THROWS_WITH(model.score("bank"), Catch::Contains("at least 2 tokens"));
  const LanguageRun unknown = model.run("zzqx qqzx");  // only words the vectors lack: a defined result
  for (const auto& top : unknown.top) CHECK(std::isfinite(top[0].p));
  Trainer masked_trainer = language_trainer(small_options(Objective::masked), shipped_table(), train, held_out);
  LanguageModel masked = round_trip(masked_trainer, small_options(Objective::masked));
  const LanguageRun m = masked.run("the river [MASK] was muddy");
  CHECK(m.tokens[2].key == "[MASK]");
  const LanguageRun blanks = masked.run("the [MASK] bank [MASK] muddy", 3, OutputPositions::masks);
  CHECK(blanks.positions == std::vector<std::size_t>{1, 3});
  CHECK(masked.run("the river bank", 3, OutputPositions::masks).top.empty());
  CHECK(m.inputs[2] == mask_input(shipped_table()));
  CHECK_THROWS_WITH(masked.score("the river bank"), Catch::Contains("only the causal model"));
  LanguageTrainerOptions too_many = small_options(Objective::causal);
  too_many.output_words = 5000;  // the fixture has far fewer distinct words: the output layer cannot be filled
  CHECK_THROWS_WITH(language_trainer(too_many, shipped_table(), train, held_out),
                    Catch::Contains("outputWords = 5000, but the training text has only"));

  // Files: corrupted, another version, a tensor missing
  SafeTensors file = language_model_file(causal, recipe_json(small_options(Objective::causal)), "{}", {}, true);
  SafeTensors corrupted = file;
  corrupted.tensors[1].data[0] += 1.0f;
  CHECK_THROWS_WITH(read_language_model(corrupted, "causal.safetensors", shipped_table()),
                    Catch::Contains("causal.safetensors: the tensors do not match their checksum"));
  SafeTensors later = file;
  later.metadata["format_version"] = "2";
  CHECK_THROWS_WITH(read_language_model(later, "causal.safetensors", shipped_table()),
                    Catch::Contains("format version 2 is not supported"));
  SafeTensors missing = file;
  missing.tensors.pop_back();
  missing.metadata["checksum"] = tensors_checksum(missing);
  CHECK_THROWS_WITH(read_language_model(missing, "causal.safetensors", shipped_table()),
                    Catch::Contains("tensors, the recipe's model has"));
  SafeTensors other = file;
  other.metadata.erase("format");
  CHECK_THROWS_WITH(read_language_model(other, "x.safetensors", shipped_table()),
                    Catch::Contains("not a language model file"));
}

TEST_CASE("head statistics: each score is the mean over queries of the weights it names, recomputed here", "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer trainer = language_trainer(small_options(Objective::causal), shipped_table(), train, held_out);
  trainer.step(3);
  LanguageModel model = round_trip(trainer, small_options(Objective::causal));
  const std::string line = "the cat saw the dog and the cat ran";  // "the" and "cat" recur
  const std::vector<HeadStatistics> heads = head_statistics(model, line, 32);
  const std::vector<std::int32_t> ids = input_ids_of(language_tokens(line, shipped_table()), shipped_table());
  const std::vector<float> a = model.attention(ids);
  const std::size_t T = ids.size(), H = model.config().n_heads;
  REQUIRE(heads.size() == H);
  for (std::size_t h = 0; h < H; ++h) {
    const float* w = a.data() + h * T * T;
    double previous = 0, first = 0, self = 0, entropy = 0, prefix = 0;
    std::size_t prefix_queries = 0;
    for (std::size_t i = 0; i < T; ++i) {
      if (i) previous += w[i * T + i - 1], first += w[i * T];
      self += w[i * T + i];
      for (std::size_t j = 0; j < T; ++j) entropy -= w[i * T + j] > 0 ? w[i * T + j] * std::log2(w[i * T + j]) : 0;
    }
    // prefix: queries 3 ("the", earlier at 0: the token after it is 1), 6 ("the": 0 → 1, 3 → 4), 7 ("cat": 1 → 2)
    prefix = w[3 * T + 1] + (w[6 * T + 1] + w[6 * T + 4]) + w[7 * T + 2];
    prefix_queries = 3;
    CHECK(heads[h].scores[0] == Approx(previous / (T - 1)).epsilon(1e-9));
    CHECK(heads[h].scores[3] == Approx(first / (T - 1)).epsilon(1e-9));
    CHECK(heads[h].scores[2] == Approx(self / T).epsilon(1e-9));
    CHECK(heads[h].scores[1] == 0.0);  // causal: nothing on the next position
    CHECK(heads[h].scores[5] == Approx(prefix / static_cast<double>(prefix_queries)).epsilon(1e-6));
    CHECK(heads[h].entropy_bits == Approx(entropy / T).epsilon(1e-6));
    CHECK(heads[h].entropy_bits <= std::log2(static_cast<double>(T)));
  }
}

// float16 storage: the shipped files hold every parameter rounded to half precision (relative error ≤ 2⁻¹¹).
// Stated tolerance: the next-word probabilities of the stored model differ from the float32 ones by less
// than 0.01 (absolute) and the held-out loss by less than 0.01 nats.
TEST_CASE("language model: float16 storage changes probabilities by < 0.01 and the held-out loss by < 0.01 nats",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer trainer = language_trainer(small_options(Objective::causal), shipped_table(), train, held_out);
  trainer.step(10);
  const auto load = [&](bool half) {
    const auto bytes =
        write_safetensors(language_model_file(trainer, recipe_json(small_options(Objective::causal)), "{}", {}, half));
    return read_language_model(read_safetensors(bytes.data(), bytes.size(), "m"), "m", shipped_table());
  };
  LanguageModel full = load(false), half = load(true);
  const LanguageRun a = full.run("The river bank was muddy after the storm", 5),
                    b = half.run("The river bank was muddy after the storm", 5);
  const std::size_t V = full.config().outputs();
  double worst = 0;
  for (std::size_t t = 0; t < a.tokens.size(); ++t) {
    const auto softmax = [&](const std::vector<float>& logits, std::size_t j) {
      double max = -1e30, total = 0;
      for (std::size_t v = 0; v < V; ++v) max = std::max(max, static_cast<double>(logits[t * V + v]));
      for (std::size_t v = 0; v < V; ++v) total += std::exp(logits[t * V + v] - max);
      return std::exp(logits[t * V + j] - max) / total;
    };
    for (std::size_t j = 0; j < V; ++j) worst = std::max(worst, std::abs(softmax(a.logits, j) - softmax(b.logits, j)));
  }
  const double full_loss = trainer.evaluate().loss;
  trainer.set_parameters(half.parameters());
  const double half_loss = trainer.evaluate().loss;
  std::printf("float16 storage: largest probability change %.2e, held-out loss %.5f → %.5f\n", worst, full_loss,
              half_loss);
  CHECK(worst < 0.01);
  CHECK(std::abs(half_loss - full_loss) < 0.01);
}
