#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

#include "attn/train/task_trainer.hpp"

using namespace attn::train;

TEST_CASE("trainer: the same seed gives the same losses and parameters, another seed does not", "[train]") {
  const TaskTrainerOptions o = default_task_options(Task::induction);
  Trainer a = task_trainer(o), b = task_trainer(o);
  for (int i = 0; i < 5; ++i) CHECK(a.step(3) == b.step(3));
  CHECK(a.parameters() == b.parameters());
  TaskTrainerOptions other = o;
  other.seed = 1;
  Trainer c = task_trainer(other);
  CHECK(c.parameters() != task_trainer(o).parameters());
}

TEST_CASE("trainer: the held-out loss falls on every task", "[train]") {
  for (const auto& [name, task] : kTaskNames) {
    Trainer t = task_trainer(default_task_options(task));
    const Evaluation before = t.evaluate();
    t.step(150);
    const Evaluation after = t.evaluate();
    std::printf("%s: held-out loss %.3f → %.3f after 150 steps, accuracy %.3f → %.3f\n", name, before.loss, after.loss,
                before.top1, after.top1);
    CHECK(after.loss < 0.8 * before.loss);
    CHECK(after.top1 > before.top1);
  }
}

TEST_CASE("trainer: previous-token learns a previous-token head", "[train]") {
  Trainer t = task_trainer(default_task_options(Task::previous_token));
  t.step(300);
  const Evaluation e = t.evaluate();
  const HeadScores heads = t.head_scores();
  std::printf("previous-token after 300 steps: accuracy %.3f, previous-token score %.3f\n", e.top1,
              heads.previous_token[0]);
  CHECK(e.top1 > 0.95);
  CHECK(heads.previous_token[0] > 0.5);
  // Ablating the only head leaves the model blind to the previous token: near chance (1/16)
  t.ablate(0, 0, true);
  CHECK(t.evaluate().top1 < 0.2);
  t.ablate(0, 0, false);
  CHECK(t.evaluate().top1 == e.top1);
}

TEST_CASE("trainer: attention, predict, evaluate and errors", "[train]") {
  Trainer t = task_trainer(default_task_options(Task::induction));
  const ModelConfig& c = t.config();
  const std::vector<std::int32_t> tokens = {1, 2, 3, 1, 2};
  const auto w = t.attention(tokens);
  CHECK(w.size() == c.n_layers * c.n_heads * 25);
  CHECK(t.predict(tokens).size() == 5 * c.vocab_size);
  const Evaluation e = t.evaluate();
  CHECK(t.head_scores().prefix_matching.size() == c.n_layers * c.n_heads);
  CHECK(t.head_scores().prefix_matching == t.head_scores().prefix_matching);  // the probe is fixed
  CHECK(t.evaluate().loss == e.loss);                                         // the held-out set is fixed
  CHECK_THROWS_WITH(t.attention({}), Catch::Contains("1 to seqLen = 16"));
  CHECK_THROWS_WITH(t.predict({0, 99}), Catch::Contains("outside [0, vocabSize = 16)"));
  CHECK_THROWS_WITH(t.ablate(2, 0, true), Catch::Contains("ablate: layer must be in [0, 2), got 2"));
  CHECK_THROWS_WITH(t.set_parameters({1.0f}), Catch::Contains("expected"));
  TaskTrainerOptions bad = default_task_options(Task::induction);
  bad.model.n_layers = 5;
  CHECK_THROWS_WITH(task_trainer(bad), Catch::Contains("numLayers must be an integer in [1, 4]"));
  bad = default_task_options(Task::sort);
  bad.model.vocab_size = 5;
  CHECK_THROWS_WITH(task_trainer(bad), Catch::Contains("vocabSize must be at least 9"));
}

TEST_CASE("trainer: a step that would diverge throws and leaves the parameters as they were", "[train]") {
  Trainer t = task_trainer(default_task_options(Task::previous_token));
  std::vector<float> huge = t.parameters();
  for (float& x : huge) x *= 1e18f;
  t.set_parameters(huge);
  CHECK_THROWS_WITH(t.step(1), Catch::Contains("not finite"));
  CHECK(t.parameters() == huge);
  CHECK(t.steps() == 0);
}
