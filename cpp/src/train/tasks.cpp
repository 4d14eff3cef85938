#include "attn/train/tasks.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace attn::train {

namespace {

std::size_t induction_max_repeat(std::size_t seq_len) { return std::max<std::size_t>(2, seq_len / 3); }

// k distinct tokens from [0, n) (k ≤ n), by a partial Fisher–Yates shuffle of `pool` (resized to n).
void distinct_tokens(std::size_t k, std::size_t n, SplitMix64& rng, std::vector<std::int32_t>& pool) {
  pool.resize(n);
  std::iota(pool.begin(), pool.end(), 0);
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j = i + uniform_below(rng, static_cast<std::uint32_t>(n - i));
    std::swap(pool[i], pool[j]);
  }
}

// Writes one sequence of `task` at row b of `batch`.
void sample_row(Task task, std::size_t vocab_size, SplitMix64& rng, Batch& batch, std::size_t b,
                std::vector<std::int32_t>& pool) {
  const std::size_t T = batch.seq_len;
  std::int32_t* tokens = batch.tokens.data() + b * T;
  std::int32_t* targets = batch.targets.data() + b * T;
  std::uint8_t* scored = batch.scored.data() + b * T;
  std::fill(targets, targets + T, -1);
  std::fill(scored, scored + T, 0);
  const auto V = static_cast<std::uint32_t>(vocab_size);
  switch (task) {
    case Task::previous_token:
      for (std::size_t t = 0; t < T; ++t) tokens[t] = static_cast<std::int32_t>(uniform_below(rng, V));
      for (std::size_t t = 1; t < T; ++t) {
        targets[t] = tokens[t - 1];
        scored[t] = 1;
      }
      return;
    case Task::reverse:
    case Task::sort: {
      const std::size_t n = T / 2;
      const auto separator = static_cast<std::int32_t>(V - 1);
      std::vector<std::int32_t> full(2 * n + 1);
      if (task == Task::sort) {
        distinct_tokens(n, V - 1, rng, pool);
        std::copy(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(n), full.begin());
      } else {
        for (std::size_t i = 0; i < n; ++i) full[i] = static_cast<std::int32_t>(uniform_below(rng, V - 1));
      }
      full[n] = separator;
      std::copy(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n),
                full.begin() + static_cast<std::ptrdiff_t>(n) + 1);
      if (task == Task::sort) {
        std::sort(full.begin() + static_cast<std::ptrdiff_t>(n) + 1, full.end());
      } else {
        std::reverse(full.begin() + static_cast<std::ptrdiff_t>(n) + 1, full.end());
      }
      std::copy(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(T), tokens);
      for (std::size_t t = n; t < 2 * n; ++t) {
        targets[t] = full[t + 1];
        scored[t] = 1;
      }
      return;
    }
    case Task::induction: {
      const std::size_t r_max = induction_max_repeat(T);
      const std::size_t r = 2 + uniform_below(rng, static_cast<std::uint32_t>(r_max - 1));
      const std::size_t p1 = uniform_below(rng, static_cast<std::uint32_t>(T - 2 * r + 1));
      const std::size_t p2 = p1 + r + uniform_below(rng, static_cast<std::uint32_t>(T - r - (p1 + r) + 1));
      // pool[0, r): the segment; pool[r, V): the filler's tokens
      distinct_tokens(r, V, rng, pool);
      for (std::size_t t = 0; t < T; ++t) {
        tokens[t] = pool[r + uniform_below(rng, static_cast<std::uint32_t>(V - r))];
      }
      for (std::size_t j = 0; j < r; ++j) tokens[p1 + j] = tokens[p2 + j] = pool[j];
      for (std::size_t t = p2; t + 1 < p2 + r; ++t) {
        targets[t] = tokens[t + 1];
        scored[t] = 1;
      }
      return;
    }
  }
}

Batch empty_batch(std::size_t batch_size, std::size_t seq_len) {
  if (batch_size == 0) throw std::out_of_range("batch size must be at least 1");
  Batch batch;
  batch.batch_size = batch_size;
  batch.seq_len = seq_len;
  batch.tokens.assign(batch_size * seq_len, 0);
  batch.targets.assign(batch_size * seq_len, -1);
  batch.scored.assign(batch_size * seq_len, 0);
  return batch;
}

}  // namespace

std::size_t min_seq_len(Task task) {
  switch (task) {
    case Task::previous_token:
      return 2;
    case Task::reverse:
    case Task::sort:
      return 3;
    case Task::induction:
      return 4;
  }
  return 4;
}

std::size_t min_vocab_size(Task task, std::size_t seq_len) {
  switch (task) {
    case Task::previous_token:
      return 2;
    case Task::reverse:
      return 2;
    case Task::sort:
      return seq_len / 2 + 1;
    case Task::induction:
      return induction_max_repeat(seq_len) + 2;
  }
  return 2;
}

void check_task_sizes(Task task, std::size_t seq_len, std::size_t vocab_size) {
  if (seq_len < min_seq_len(task)) {
    throw std::out_of_range(std::string("seqLen must be at least ") + std::to_string(min_seq_len(task)) +
                            " for task '" + name_of(kTaskNames, task) + "', got " + std::to_string(seq_len));
  }
  if (vocab_size < min_vocab_size(task, seq_len)) {
    throw std::out_of_range(std::string("vocabSize must be at least ") + std::to_string(min_vocab_size(task, seq_len)) +
                            " for task '" + name_of(kTaskNames, task) + "' with seqLen " + std::to_string(seq_len) +
                            ", got " + std::to_string(vocab_size));
  }
}

std::size_t Batch::scored_count() const {
  return static_cast<std::size_t>(std::count(scored.begin(), scored.end(), std::uint8_t{1}));
}

Batch sample_batch(Task task, std::size_t batch_size, std::size_t seq_len, std::size_t vocab_size, SplitMix64& rng) {
  check_task_sizes(task, seq_len, vocab_size);
  Batch batch = empty_batch(batch_size, seq_len);
  std::vector<std::int32_t> pool;
  for (std::size_t b = 0; b < batch_size; ++b) sample_row(task, vocab_size, rng, batch, b, pool);
  return batch;
}

Batch repeated_tokens_batch(Task task, std::size_t batch_size, std::size_t seq_len, std::size_t vocab_size,
                            SplitMix64& rng) {
  check_task_sizes(task, seq_len, vocab_size);
  Batch batch = empty_batch(batch_size, seq_len);
  const bool separator = task == Task::reverse || task == Task::sort;
  const std::size_t values = separator ? vocab_size - 1 : vocab_size;
  const std::size_t half = seq_len / 2;
  std::vector<std::int32_t> pool;
  for (std::size_t b = 0; b < batch_size; ++b) {
    std::int32_t* tokens = batch.tokens.data() + b * seq_len;
    if (values >= half) {
      distinct_tokens(half, values, rng, pool);
      std::copy(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(half), tokens);
    } else {
      for (std::size_t t = 0; t < half; ++t)
        tokens[t] = static_cast<std::int32_t>(uniform_below(rng, static_cast<std::uint32_t>(values)));
    }
    std::copy(tokens, tokens + half, tokens + half);
    if (seq_len % 2 == 1)
      tokens[seq_len - 1] = static_cast<std::int32_t>(uniform_below(rng, static_cast<std::uint32_t>(values)));
    std::int32_t* targets = batch.targets.data() + b * seq_len;
    std::uint8_t* scored = batch.scored.data() + b * seq_len;
    for (std::size_t t = half; t + 1 < 2 * half; ++t) {
      targets[t] = tokens[t + 1];
      scored[t] = 1;
    }
  }
  return batch;
}

std::uint32_t uniform_below(SplitMix64& rng, std::uint32_t n) {
  return static_cast<std::uint32_t>(((rng.next() >> 32) * std::uint64_t{n}) >> 32);
}

}  // namespace attn::train
