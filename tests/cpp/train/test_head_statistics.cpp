#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "../asset.hpp"
#include "fixture_text.hpp"
#include "attn/train/head_statistics.hpp"

using namespace attn::train;

namespace {

LanguageTrainerOptions two_layer_options(Objective objective) {
  LanguageTrainerOptions o;
  o.objective = objective;
  o.n_layers = 2, o.n_heads = 2, o.d_ff = 16, o.seq_len = 8, o.batch_size = 4, o.shards = 1, o.output_words = 60;
  o.tied_output = false;
  o.schedule = {2, 10, 0.1f};
  return o;
}

LanguageModel model_of(const Trainer& trainer, std::vector<float> parameters) {
  const CorpusSource& corpus = corpus_of(trainer);
  return LanguageModel(trainer.config(), corpus.objective(), corpus.vocabulary().words(), std::move(parameters),
                       shipped_table());
}

// The trainer's parameters with every query and key projection (weights and biases) set to 0, so that every score
// is 0 and each query spreads its weight evenly over the keys it sees; and the output layer (U, b) set to 0, so that
// every output has probability 1 / V_out.
std::vector<float> uniform_parameters(const Trainer& trainer) {
  std::vector<float> p = trainer.parameters();
  for (const ParameterSpec& s : parameter_specs(trainer.config())) {
    const bool zero = s.name.find("w_q") != std::string::npos || s.name.find("w_k") != std::string::npos ||
                      s.name.find("b_q") != std::string::npos || s.name.find("b_k") != std::string::npos ||
                      s.name == "unembedding" || s.name == "output_bias";
    if (zero)
      std::fill(p.begin() + static_cast<std::ptrdiff_t>(s.offset),
                p.begin() + static_cast<std::ptrdiff_t>(s.offset + s.size), 0.0f);
  }
  return p;
}

}  // namespace

TEST_CASE("repeated words: a head that attends evenly scores the hand-computed means, and the halves cost ln V_out",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  const std::size_t R = 5;
  for (const Objective objective : {Objective::causal, Objective::masked}) {
    Trainer trainer = language_trainer(two_layer_options(objective), shipped_table(), train, held_out);
    const std::vector<float> p = uniform_parameters(trainer);
    // Every name the zeroing relies on exists in the parameter table (else the case would test nothing)
    std::size_t zeroed = 0;
    for (std::size_t i = 0; i < p.size(); ++i) zeroed += p[i] == 0.0f && trainer.parameters()[i] != 0.0f;
    REQUIRE(zeroed > 1000);
    LanguageModel model = model_of(trainer, p);
    const RepeatedWordsScores s = repeated_words_probe(model, R, 3, 7);
    const bool causal = objective == Objective::causal;
    // Causal: query i sees i + 1 keys, each with weight 1 / (i + 1); masked: all 2R, each 1 / (2R)
    const auto weight = [&](std::size_t i) { return causal ? 1.0 / static_cast<double>(i + 1) : 1.0 / (2.0 * R); };
    double previous = 0, second = 0;
    for (std::size_t i = 1; i < 2 * R; ++i) previous += weight(i);
    for (std::size_t i = R; i < 2 * R; ++i) second += weight(i);
    REQUIRE(s.previous.size() == 4);
    CHECK(s.repeat == R);
    CHECK(s.sequences == 3);
    for (std::size_t lh = 0; lh < 4; ++lh) {
      CHECK(s.previous[lh] == Approx(previous / (2 * R - 1)).epsilon(1e-5));
      CHECK(s.duplicate[lh] == Approx(second / R).epsilon(1e-5));
      CHECK(s.induction[lh] == Approx(second / R).epsilon(1e-5));
    }
    if (causal) {
      const double uniform = std::log(static_cast<double>(model.config().outputs()));
      CHECK(s.first_half_loss == Approx(uniform).epsilon(1e-6));
      CHECK(s.second_half_loss == Approx(uniform).epsilon(1e-6));
    } else {
      CHECK(std::isnan(s.first_half_loss));
      CHECK(std::isnan(s.second_half_loss));
    }
  }
}

TEST_CASE("repeated words: each score is the mean of the weights it names on the drawn sequences, recomputed here",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer trainer = language_trainer(two_layer_options(Objective::causal), shipped_table(), train, held_out);
  trainer.step(4);
  LanguageModel model = model_of(trainer, trainer.parameters());
  const std::size_t R = 6, N = 4, T = 2 * R, L = 2, H = 2;
  const RepeatedWordsScores s = repeated_words_probe(model, R, N, 11);
  // The sequences, drawn as the probe documents: R uniform output words (<unk> never), then the same R
  attn::SplitMix64 rng(11);
  const OutputVocabulary& vocabulary = model.vocabulary();
  std::vector<double> previous(L * H), duplicate(L * H), induction(L * H);
  double first = 0, second = 0;
  for (std::size_t n = 0; n < N; ++n) {
    std::vector<std::int32_t> outputs(T), inputs(T);
    for (std::size_t t = 0; t < R; ++t) {
      outputs[t] = outputs[t + R] =
          static_cast<std::int32_t>(uniform_below(rng, static_cast<std::uint32_t>(vocabulary.size() - 1)));
      inputs[t] = inputs[t + R] = vocabulary.input_rows()[static_cast<std::size_t>(outputs[t])];
    }
    if (n == 0) CHECK(s.example == outputs);  // the example shown is the first sequence measured
    const std::vector<float> a = model.attention(inputs);
    for (std::size_t lh = 0; lh < L * H; ++lh) {
      const float* w = a.data() + lh * T * T;
      for (std::size_t i = 1; i < T; ++i) previous[lh] += w[i * T + i - 1];
      for (std::size_t i = R; i < T; ++i) duplicate[lh] += w[i * T + i - R], induction[lh] += w[i * T + i - R + 1];
    }
    // The halves' losses from the text's own scoring: the words joined by spaces tokenize back to the same words
    std::string text;
    for (std::size_t t = 0; t < T; ++t) text += (t ? " " : "") + vocabulary.word(static_cast<std::size_t>(outputs[t]));
    const LanguageModel::Score scored = model.score(text);
    REQUIRE(scored.log_prob.size() == T - 1);
    for (std::size_t t = 1; t < R; ++t) first -= scored.log_prob[t - 1];
    for (std::size_t t = R + 1; t < T; ++t) second -= scored.log_prob[t - 1];
  }
  for (std::size_t lh = 0; lh < L * H; ++lh) {
    CHECK(s.previous[lh] == Approx(previous[lh] / (N * (T - 1))).epsilon(1e-9));
    CHECK(s.duplicate[lh] == Approx(duplicate[lh] / (N * R)).epsilon(1e-9));
    CHECK(s.induction[lh] == Approx(induction[lh] / (N * R)).epsilon(1e-9));
  }
  CHECK(s.first_half_loss == Approx(first / (N * (R - 1))).epsilon(1e-5));
  CHECK(s.second_half_loss == Approx(second / (N * (R - 1))).epsilon(1e-5));
  // The same seed gives the same scores; head_statistics carries the default probe's induction score
  const RepeatedWordsScores again = repeated_words_probe(model, R, N, 11);
  CHECK(again.induction == s.induction);
  const RepeatedWordsScores standard = repeated_words_probe(model);
  const std::vector<HeadStatistics> heads = head_statistics(model, held_out);
  for (std::size_t lh = 0; lh < L * H; ++lh) CHECK(heads[lh].scores[6] == standard.induction[lh]);
  CHECK(std::string(kHeadScoreNames[6]) == "induction");
}

TEST_CASE("repeated words: R and the number of sequences out of range are refused", "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer trainer = language_trainer(two_layer_options(Objective::causal), shipped_table(), train, held_out);
  LanguageModel model = model_of(trainer, trainer.parameters());
  CHECK_THROWS_AS(repeated_words_probe(model, 1), std::out_of_range);
  CHECK_THROWS_WITH(repeated_words_probe(model, kMaxRepeatedWords + 1),
                    Catch::Contains("repeat must be an integer in [2, 128]"));
  CHECK_THROWS_WITH(repeated_words_probe(model, 12, 0), Catch::Contains("sequences must be an integer in [1, 1024]"));
  CHECK_THROWS_AS(repeated_words_probe(model, 12, kMaxRepeatedSequences + 1), std::out_of_range);
  CHECK_NOTHROW(repeated_words_probe(model, kMaxRepeatedWords, 1));  // 2R = 256 tokens, the longest text
  CHECK_THROWS_AS(model.next_log_probs({1, 2}, {1}), std::invalid_argument);
  CHECK_THROWS_AS(model.next_log_probs({1, 2}, {1, static_cast<std::int32_t>(model.config().outputs())}),
                  std::out_of_range);
}

TEST_CASE("head labels: induction when it reaches the threshold, else the largest score that does, else mixed",
          "[train]") {
  // previous, next, self, first, same word, prefix, induction
  CHECK(head_label({0.1, 0.0, 0.1, 0.85, 0.1, 0.2, 0.52}) == "induction");  // rests on the first token, copies
  CHECK(head_label({0.1, 0.0, 0.1, 0.85, 0.1, 0.2, 0.39}) == "first");
  CHECK(head_label({0.5, 0.0, 0.3, 0.04, 0.0, 0.07, 0.0}) == "previous");
  CHECK(head_label({0.39, 0.0, 0.3, 0.04, 0.0, 0.07, 0.0}) == "mixed");
  CHECK(head_label({0.1, 0.0, 0.1, 0.1, 0.1, 0.1, 0.4}) == "induction");  // the threshold itself counts
}
