#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../asset.hpp"
#include "fixture_text.hpp"
#include "small_language_options.hpp"
#include "attn/train/language_model_file.hpp"

// The language models' configuration of the trainer (language_trainer.hpp): determinism, the batches of each
// objective, the repeated-span curriculum, the output vocabulary and the output matrix's start, the held-out set.
using namespace attn::train;

TEST_CASE("language trainer: the same seed gives the same losses bit for bit, on one thread or two", "[train]") {
  const auto [train, held_out] = fixture_text();
  for (const Objective objective : {Objective::causal, Objective::masked}) {
    Trainer one = language_trainer(small_options(objective), shipped_table(), train, held_out);
    Trainer two = language_trainer(small_options(objective), shipped_table(), train, held_out,
                                   [](std::size_t n, const std::function<void(std::size_t)>& body) {
                                     std::vector<std::thread> pool;
                                     for (std::size_t i = 0; i < n; ++i) pool.emplace_back(body, i);
                                     for (std::thread& t : pool) t.join();
                                   });
    const Evaluation before = one.evaluate();
    for (int i = 0; i < 8; ++i) CHECK(one.step(1) == two.step(1));
    CHECK(one.parameters() == two.parameters());
    const Evaluation after = one.evaluate();
    std::printf("%s: held-out loss %.3f → %.3f over %zu tokens\n", name_of(kObjectiveNames, objective), before.loss,
                after.loss, after.tokens);
    CHECK(after.loss < before.loss);
  }
}

TEST_CASE("language trainer: batches follow the objective (causal targets shifted by one, masked 80/10/10)",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  Trainer causal = language_trainer(small_options(Objective::causal), shipped_table(), train, held_out);
  const Batch b = causal.peek_batch();
  const TokenStream& s = corpus_of(causal).train_stream();
  // every window starts at a line start, and its target at t is the output id of token t + 1
  for (std::size_t row = 0; row < b.batch_size; ++row) {
    const std::int32_t* tokens = b.tokens.data() + row * b.seq_len;
    std::size_t start = s.inputs.size();
    for (const std::size_t line : s.line_starts) {
      if (std::equal(tokens, tokens + b.seq_len, s.inputs.begin() + static_cast<std::ptrdiff_t>(line))) start = line;
    }
    REQUIRE(start < s.inputs.size());
    for (std::size_t t = 0; t < b.seq_len; ++t) CHECK(b.targets[row * b.seq_len + t] == s.outputs[start + t + 1]);
  }
  LanguageTrainerOptions o = small_options(Objective::masked);
  o.batch_size = 256, o.shards = 1;
  Trainer masked = language_trainer(o, shipped_table(), train, held_out);
  const Batch m = masked.peek_batch();
  const std::int32_t mask = mask_input(shipped_table());
  std::size_t chosen = 0, replaced = 0;
  for (std::size_t r = 0; r < m.tokens.size(); ++r) {
    chosen += m.scored[r];
    replaced += m.scored[r] && m.tokens[r] == mask;
    if (!m.scored[r]) CHECK(m.tokens[r] != mask);
  }
  const double rate = static_cast<double>(chosen) / static_cast<double>(m.tokens.size());
  const double masked_share = static_cast<double>(replaced) / static_cast<double>(chosen);
  std::printf("masked batch: %.3f of positions chosen, %.3f of those [MASK]\n", rate, masked_share);
  // 15 % of positions, plus one in a sequence where none was chosen (probability 0.85^T): 0.15 + 0.85^8 / 8 ≈ 0.184
  CHECK(rate == Approx(0.15 + std::pow(0.85, 8) / 8).margin(0.02));
  CHECK(masked_share == Approx(0.8).margin(0.05));
  // maskRate 0.4 (Wettig et al. 2023): 0.4 + 0.6^8 / 8 ≈ 0.402 of the positions
  o.mask_rate = 0.4;
  const Batch m40 = language_trainer(o, shipped_table(), train, held_out).peek_batch();
  const double rate40 = static_cast<double>(m40.scored_count()) / static_cast<double>(m40.tokens.size());
  std::printf("maskRate 0.4: %.3f of positions chosen\n", rate40);
  CHECK(rate40 == Approx(0.4 + std::pow(0.6, 8) / 8).margin(0.02));
  o.mask_rate = 0;
  CHECK_THROWS_WITH(language_trainer(o, shipped_table(), train, held_out),
                    Catch::Contains("maskRate must be in (0, 1]"));
}

TEST_CASE("language trainer: repeatShare windows hold a span of the text twice, then go on after it", "[train]") {
  const auto [train, held_out] = fixture_text();
  {
    // Masked, every window repeating, T = 8: the only span is r = 4 at a = 0, copied at q = 4 (the halves). Where
    // neither copy of a position was chosen, both read the same token; where both were, both have the same target
    LanguageTrainerOptions m = small_options(Objective::masked);
    m.batch_size = 64, m.shards = 1, m.repeat_share = 1;
    const Batch b = language_trainer(m, shipped_table(), train, held_out).peek_batch();
    const std::size_t T = b.seq_len, half = T / 2;
    std::size_t compared = 0;
    for (std::size_t row = 0; row < b.batch_size; ++row) {
      const std::size_t at = row * T;
      for (std::size_t t = 0; t < half; ++t) {
        if (!b.scored[at + t] && !b.scored[at + t + half]) {
          CHECK(b.tokens[at + t] == b.tokens[at + t + half]);
          ++compared;
        }
        if (b.scored[at + t] && b.scored[at + t + half]) {
          CHECK(b.targets[at + t] == b.targets[at + t + half]);
          ++compared;
        }
      }
    }
    CHECK(compared > 100);
  }
  LanguageTrainerOptions o = small_options(Objective::causal);
  o.batch_size = 64, o.shards = 1, o.repeat_share = 0.5, o.seq_len = 16;
  Trainer trainer = language_trainer(o, shipped_table(), train, held_out);
  const Batch b = trainer.peek_batch();
  const TokenStream& s = corpus_of(trainer).train_stream();
  const std::size_t T = b.seq_len;
  std::size_t repeated = 0;
  std::vector<std::size_t> distances;
  for (std::size_t row = 0; row < b.batch_size; ++row) {
    const std::int32_t* tokens = b.tokens.data() + row * T;
    // Some line start, span [a, a + r) with 4 ≤ r ≤ T / 2 and copy position q ≥ a + r make the window: position t reads
    // the text at start + t before q, start + a + (t − q) in the copy, start + t − r after it; the target at t is
    // what the window reads at t + 1. r = 0 (q = T): a plain window.
    const auto read = [&](std::size_t start, std::size_t r, std::size_t a, std::size_t q, std::size_t t) {
      return start + (t < q ? t : t < q + r ? a + (t - q) : t - r);
    };
    bool found = false;
    for (const std::size_t start : s.line_starts) {
      if (found || start + T + 1 > s.inputs.size()) break;
      for (std::size_t r = 0; r <= T / 2 && !found; r = r ? r + 1 : 4) {
        for (std::size_t a = 0; a + 2 * r <= T && !found; ++a) {
          for (std::size_t q = r ? a + r : T; q + r <= T && !found; ++q) {
            bool match = true;
            for (std::size_t t = 0; t < T && match; ++t) match = tokens[t] == s.inputs[read(start, r, a, q, t)];
            if (!match) continue;
            found = true;
            if (r) ++repeated, distances.push_back(q - a);
            for (std::size_t t = 0; t < T; ++t) CHECK(b.targets[row * T + t] == s.outputs[read(start, r, a, q, t + 1)]);
          }
          if (!r) break;
        }
      }
    }
    CHECK(found);
  }
  std::sort(distances.begin(), distances.end());
  std::printf("repeatShare 0.5: %zu of %zu windows repeat a span, at distances %zu … %zu\n", repeated, b.batch_size,
              distances.empty() ? 0 : distances.front(), distances.empty() ? 0 : distances.back());
  CHECK(repeated >= 20);  // Binomial(64, 0.5): mean 32, P(< 20) < 0.002
  CHECK(repeated <= 44);
  // The copy's distance varies (so no head can find the span by position alone)
  REQUIRE(!distances.empty());
  CHECK(distances.back() - distances.front() >= 4);
  {
    // The schedule: every window repeats for the first 2 steps (T = 8: the halves), none after
    LanguageTrainerOptions scheduled = small_options(Objective::causal);
    scheduled.batch_size = 64, scheduled.shards = 1, scheduled.repeat_share = 1, scheduled.repeat_steps = 2;
    Trainer t = language_trainer(scheduled, shipped_table(), train, held_out);
    const auto halves = [](const Batch& batch) {
      std::size_t count = 0;
      for (std::size_t row = 0; row < batch.batch_size; ++row) {
        const std::int32_t* x = batch.tokens.data() + row * batch.seq_len;
        count += std::equal(x, x + batch.seq_len / 2, x + batch.seq_len / 2);
      }
      return count;
    };
    CHECK(halves(t.peek_batch()) == 64);
    t.step(1);
    CHECK(halves(t.peek_batch()) == 64);
    t.step(1);
    const std::size_t after = halves(t.peek_batch());
    std::printf("repeatSteps 2: 64 of 64 windows repeat at steps 0 and 1, %zu at step 2\n", after);
    CHECK(after <= 2);  // text rarely repeats a 4-token span by itself
  }
  LanguageTrainerOptions bad = small_options(Objective::causal);
  bad.repeat_share = 1.5;
  CHECK_THROWS_WITH(language_trainer(bad, shipped_table(), train, held_out),
                    Catch::Contains("repeatShare must be in [0, 1]"));
  bad.repeat_share = 0.5, bad.repeat_share_after = -1;
  CHECK_THROWS_WITH(language_trainer(bad, shipped_table(), train, held_out),
                    Catch::Contains("repeatShareAfter must be in [0, 1]"));
}

TEST_CASE("output vocabulary: 'glove' follows the text's words by frequency with the table's other words, in its order",
          "[train]") {
  const auto [train, held_out] = fixture_text();
  const attn::EmbeddingTable& table = shipped_table();
  const OutputVocabulary text = most_frequent_words(train, table, 60);
  const OutputVocabulary all = most_frequent_words(train, table, table.vocab_size(), OutputVocabularySource::glove);
  REQUIRE(all.size() == table.vocab_size() + 1);  // every word of the table, and <unk>
  // The text's words first, in the same order as 'text' gives them
  CHECK(std::equal(text.words().begin(), text.words().end(), all.words().begin()));
  // Every table word once; after the text's words, the rest in table order
  std::vector<std::string> sorted = all.words();
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  const std::size_t text_words = most_frequent_words(train, table, kMaxOutputWords).size() - 1;  // all the text has
  REQUIRE(text_words > 60);
  REQUIRE(text_words < 5000);
  std::size_t last_row = 0;
  bool ordered = true;
  for (std::size_t i = text_words; i < all.words().size(); ++i) {
    std::size_t row = 0;
    while (table.word(row) != all.words()[i]) ++row;
    ordered = ordered && (i == text_words || row > last_row);
    last_row = row;
    if (i > text_words + 200) break;  // the first 200 are enough to see the order (the search is linear)
  }
  CHECK(ordered);
  // A smaller V keeps the first V of that list; more than the table holds is refused
  const OutputVocabulary some = most_frequent_words(train, table, 1000, OutputVocabularySource::glove);
  CHECK(std::equal(some.words().begin(), some.words().end(), all.words().begin()));
  CHECK_THROWS_WITH(most_frequent_words(train, table, table.vocab_size() + 1, OutputVocabularySource::glove),
                    Catch::Contains("at most the word vectors' 25477 words"));
  // The trainer takes it, where 'text' cannot fill 1000 words from this text
  LanguageTrainerOptions o = small_options(Objective::causal);
  o.output_words = 1000;
  CHECK_THROWS_WITH(language_trainer(o, table, train, held_out), Catch::Contains("distinct words with word vectors"));
  o.output_vocabulary = OutputVocabularySource::glove;
  Trainer trainer = language_trainer(o, table, train, held_out);
  CHECK(trainer.config().outputs() == 1001);
  CHECK(std::isfinite(trainer.step(1)));
  CHECK(options_from_recipe(recipe_json(o)).output_vocabulary == OutputVocabularySource::glove);
}

TEST_CASE("language trainer: outputInit glove starts each word's output column at its GloVe row", "[train]") {
  const auto [train, held_out] = fixture_text();
  LanguageTrainerOptions o = small_options(Objective::causal);
  o.tied_output = false;
  const Trainer random = language_trainer(o, shipped_table(), train, held_out);
  o.output_init = OutputInit::glove;
  Trainer glove = language_trainer(o, shipped_table(), train, held_out);
  const ModelConfig& c = glove.config();
  const std::size_t d = c.d_model, V = c.outputs();
  const auto u = bind_parameters(c, glove.parameters().data()).unembedding;
  const auto u_random = bind_parameters(c, random.parameters().data()).unembedding;
  const OutputVocabulary& vocabulary = corpus_of(glove).vocabulary();
  for (std::size_t o_id = 0; o_id + 1 < V; ++o_id) {
    const auto row = shipped_table().vector(static_cast<std::size_t>(vocabulary.input_rows()[o_id]));
    for (std::size_t j = 0; j < d; ++j) REQUIRE(u[j * V + o_id] == row(j));
  }
  for (std::size_t j = 0; j < d; ++j) CHECK(u[j * V + V - 1] == u_random[j * V + V - 1]);  // <unk>: its draw
  // Everything else starts as the random initialisation's
  const std::vector<ParameterSpec> specs = parameter_specs(c);
  for (const ParameterSpec& s : specs) {
    if (s.name == "unembedding") continue;
    CHECK(std::equal(glove.parameters().begin() + static_cast<std::ptrdiff_t>(s.offset),
                     glove.parameters().begin() + static_cast<std::ptrdiff_t>(s.offset + s.size),
                     random.parameters().begin() + static_cast<std::ptrdiff_t>(s.offset)));
  }
  // Its recipe round-trips, and a file from before the option reads as 'random'
  CHECK(options_from_recipe(recipe_json(o)).output_init == OutputInit::glove);
  CHECK(options_from_recipe(recipe_json(small_options(Objective::causal))).output_init == OutputInit::random);
  glove.step(2);
  o.tied_output = true;
  CHECK_THROWS_WITH(language_trainer(o, shipped_table(), train, held_out), Catch::Contains("outputInit 'glove'"));
}

TEST_CASE("language trainer: the held-out measurement is the same in batches of any shard's size", "[train]") {
  const auto [train, held_out] = fixture_text();
  for (const Objective objective : {Objective::causal, Objective::masked}) {
    LanguageTrainerOptions o = small_options(objective);
    o.shards = 1;
    const Evaluation whole = language_trainer(o, shipped_table(), train, held_out).evaluate();
    o.shards = 4;  // held-out batches of one window instead of four
    const Evaluation sliced = language_trainer(o, shipped_table(), train, held_out).evaluate();
    CHECK(sliced.tokens == whole.tokens);
    CHECK(sliced.loss == Approx(whole.loss).epsilon(1e-12));
    CHECK(sliced.top1 == whole.top1);
    CHECK(sliced.top5 == whole.top5);
  }
}
