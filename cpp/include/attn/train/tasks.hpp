#pragma once
// The synthetic tasks the attention-only trainer learns (model.hpp), generated from a seed: a fresh
// batch each step. Every task is next-token prediction on a sequence of seq_len tokens; the loss and
// the accuracy count only the positions the task scores.
//
// Letters: B = batch size, T = seq_len, V = vocab_size; tokens are integers in [0, V).
//
//   previous-token  tokens uniform in [0, V); target[t] = tokens[t − 1], scored for t ≥ 1.
//                   One attention layer solves it: a head that attends to i − 1 and copies.
//   reverse         n = ⌊T / 2⌋ values a_0 … a_{n−1} uniform in [0, V − 1), then the separator V − 1,
//                   then the values in reverse order: the full sequence a, SEP, reversed a has 2n + 1
//                   tokens and the input is its first T. target[t] = full[t + 1]; scored from the
//                   separator on (t = n … 2n − 1), where every next token is determined by the prefix.
//   sort            as reverse, with the values distinct (so n ≤ V − 1) and sorted ascending after the
//                   separator.
//   induction       random tokens in which one segment of r tokens recurs: r uniform in
//                   [2, max(2, ⌊T / 3⌋)], the first occurrence at p₁ uniform in [0, T − 2r], the second
//                   at p₂ uniform in [p₁ + r, T − r]. The segment's tokens are distinct and appear
//                   nowhere else, so the earlier occurrence is unambiguous; varying r, p₁ and p₂ leaves
//                   no period to memorize. target[t] = tokens[t + 1], scored at t = p₂ … p₂ + r − 2: the
//                   positions whose next token the earlier occurrence predicts (Olsson et al. 2022,
//                   "In-context learning and induction heads", §2). Needs T ≥ 4 and V ≥ r_max + 2
//                   (the segment, and at least two other tokens for the filler).
//
// Unscored positions have target −1.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/core/names.hpp"
#include "attn/core/random.hpp"

namespace attn::train {

enum class Task { previous_token, reverse, sort, induction };

// The tasks' JS names (core.createTrainer's `task`), both ways through names.hpp: value_of(kTaskNames,
// name, "task") reads one (std::out_of_range naming the allowed names otherwise), name_of writes one.
inline constexpr NamedValue<Task> kTaskNames[] = {{"previous-token", Task::previous_token},
                                                  {"reverse", Task::reverse},
                                                  {"sort", Task::sort},
                                                  {"induction", Task::induction}};

// The smallest seq_len and vocab_size a task accepts for a given seq_len (see the layouts above).
std::size_t min_seq_len(Task task);
std::size_t min_vocab_size(Task task, std::size_t seq_len);

// Throws std::out_of_range naming the argument if seq_len or vocab_size is below the task's minimum.
void check_task_sizes(Task task, std::size_t seq_len, std::size_t vocab_size);

// B sequences of T tokens, row-major: tokens[b * T + t].
struct Batch {
  std::size_t batch_size = 0;
  std::size_t seq_len = 0;
  std::vector<std::int32_t> tokens;   // (B, T) in [0, V)
  std::vector<std::int32_t> targets;  // (B, T) the token to predict at each position, −1 where not scored
  std::vector<std::uint8_t> scored;   // (B, T) 1 where the loss and the accuracy count the position

  std::size_t scored_count() const;
};

// A fresh batch of `task`, drawn from rng. Throws as check_task_sizes, or std::out_of_range if
// batch_size is 0.
Batch sample_batch(Task task, std::size_t batch_size, std::size_t seq_len, std::size_t vocab_size, SplitMix64& rng);

// The probe for head scores (Olsson et al. 2022, §2 and appendix): a sequence of ⌊T / 2⌋ random tokens
// (distinct where V allows) followed by the same tokens again; for tasks with a separator the tokens
// avoid it. (B, T) tokens; T odd leaves one more random token at the end.
Batch repeated_tokens_batch(Task task, std::size_t batch_size, std::size_t seq_len, std::size_t vocab_size,
                            SplitMix64& rng);

// A uniform integer in [0, n), n ≥ 1 (the top 32 bits of rng scaled: Lemire 2019's multiply-shift).
std::uint32_t uniform_below(SplitMix64& rng, std::uint32_t n);

}  // namespace attn::train
