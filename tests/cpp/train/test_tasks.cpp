#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "attn/train/tasks.hpp"

using namespace attn::train;

TEST_CASE("train tasks: previous-token targets the token before, from position 1", "[train]") {
  attn::SplitMix64 rng(1);
  const Batch b = sample_batch(Task::previous_token, 4, 10, 7, rng);
  for (std::size_t s = 0; s < 4; ++s) {
    CHECK(b.scored[s * 10] == 0);
    CHECK(b.targets[s * 10] == -1);
    for (std::size_t t = 1; t < 10; ++t) {
      CHECK(b.scored[s * 10 + t] == 1);
      CHECK(b.targets[s * 10 + t] == b.tokens[s * 10 + t - 1]);
    }
  }
  CHECK(b.scored_count() == 36);
}

TEST_CASE("train tasks: reverse and sort put the values, the separator, then their reverse or sorted order",
          "[train]") {
  for (const Task task : {Task::reverse, Task::sort}) {
    for (const std::size_t T : {9, 10}) {
      attn::SplitMix64 rng(2);
      const std::size_t V = 12, n = T / 2;
      const Batch b = sample_batch(task, 5, T, V, rng);
      for (std::size_t s = 0; s < 5; ++s) {
        const std::int32_t* tok = b.tokens.data() + s * T;
        std::vector<std::int32_t> values(tok, tok + n);
        CHECK(tok[n] == static_cast<std::int32_t>(V - 1));
        CHECK(std::all_of(values.begin(), values.end(),
                          [&](std::int32_t x) { return x >= 0 && x < static_cast<std::int32_t>(V - 1); }));
        std::vector<std::int32_t> expected = values;
        if (task == Task::sort) {
          CHECK(std::set<std::int32_t>(values.begin(), values.end()).size() == n);  // distinct
          std::sort(expected.begin(), expected.end());
        } else {
          std::reverse(expected.begin(), expected.end());
        }
        for (std::size_t t = 0; t < T; ++t) {
          const bool scored = t >= n && t < 2 * n;
          CHECK(b.scored[s * T + t] == (scored ? 1 : 0));
          if (scored) CHECK(b.targets[s * T + t] == expected[t - n]);
          if (t > n) CHECK(tok[t] == expected[t - n - 1]);  // the input continues with the answer so far
        }
      }
    }
  }
}

TEST_CASE("train tasks: induction repeats a segment and scores where the earlier occurrence predicts", "[train]") {
  attn::SplitMix64 rng(3);
  const std::size_t T = 18, V = 10;
  const Batch b = sample_batch(Task::induction, 200, T, V, rng);
  std::set<std::size_t> lengths, starts;
  for (std::size_t s = 0; s < 200; ++s) {
    const std::int32_t* tok = b.tokens.data() + s * T;
    std::size_t scored = 0, first = T;
    for (std::size_t t = 0; t < T; ++t) {
      if (!b.scored[s * T + t]) continue;
      ++scored;
      first = std::min(first, t);
      // the current token occurred exactly once before, and the token after that occurrence is the target
      std::vector<std::size_t> earlier;
      for (std::size_t j = 0; j < t; ++j)
        if (tok[j] == tok[t]) earlier.push_back(j);
      REQUIRE(earlier.size() == 1);
      CHECK(b.targets[s * T + t] == tok[earlier[0] + 1]);
      CHECK(b.targets[s * T + t] == tok[t + 1]);
    }
    CHECK(scored >= 1);
    CHECK(scored + 1 <= T / 3);
    lengths.insert(scored + 1);
    starts.insert(first);
  }
  CHECK(lengths.size() == T / 3 - 1);  // every repeat length 2 … ⌊T/3⌋ occurs
  CHECK(starts.size() > 5);            // and the repeat's position varies
}

TEST_CASE("train tasks: the same seed gives the same batch, and sizes below a task's minimum are refused", "[train]") {
  attn::SplitMix64 a(5), b(5);
  CHECK(sample_batch(Task::induction, 3, 12, 9, a).tokens == sample_batch(Task::induction, 3, 12, 9, b).tokens);
  attn::SplitMix64 rng(1);
  CHECK_THROWS_WITH(sample_batch(Task::sort, 1, 12, 6, rng), Catch::Contains("vocabSize must be at least 7"));
  CHECK_THROWS_WITH(sample_batch(Task::induction, 1, 3, 9, rng), Catch::Contains("seqLen must be at least 4"));
  CHECK_THROWS_WITH(attn::value_of(kTaskNames, "copy", "task"),
                    Catch::Contains("'previous-token', 'reverse', 'sort', 'induction'"));
  CHECK(attn::value_of(kTaskNames, "sort", "task") == Task::sort);
}

TEST_CASE("train tasks: the repeated-tokens probe repeats its first half", "[train]") {
  attn::SplitMix64 rng(4);
  const Batch b = repeated_tokens_batch(Task::reverse, 3, 12, 9, rng);
  for (std::size_t s = 0; s < 3; ++s) {
    const std::int32_t* tok = b.tokens.data() + s * 12;
    for (std::size_t t = 0; t < 6; ++t) {
      CHECK(tok[t + 6] == tok[t]);
      CHECK(tok[t] < 8);  // never the separator
    }
    CHECK(std::set<std::int32_t>(tok, tok + 6).size() == 6);
  }
}
