#pragma once
// The Learn chapter's configuration of the trainer (trainer.hpp): an attention-only transformer (parameters.hpp:
// every input row learned, no layer norm, no feed-forward layer, no biases, an untied output) trained on one
// of the synthetic tasks of tasks.hpp, a fresh batch each step.
//
// Letters as in model.hpp: B batch size, T seq_len, V vocab_size, d d_model, H n_heads, L n_layers.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/train/batch_source.hpp"
#include "attn/train/trainer.hpp"

namespace attn::train {

struct TaskTrainerOptions {
  Task task = Task::induction;
  ModelConfig model;  // n_layers, n_heads, d_model, seq_len, vocab_size and positional; the rest is fixed
  std::size_t batch_size = 0;
  AdamWOptions optimizer;
  std::uint64_t seed = 0;
};

// The defaults for `task` (chosen so that heads form within seconds on one thread; docs/js-api.md):
//   previous-token  L 1, H 1, d 32, T 16, V 16
//   reverse, sort   L 2, H 2, d 32, T 16, V 17 (16 values and the separator)
//   induction       L 2, H 2, d 32, T 16, V 16
// and for all: B 16, sinusoidal P, α 1e-2, β = (0.9, 0.99), ε 1e-8, λ 0.01, clipping at norm 1, seed 0.
// (Measured natively: induction's accuracy passes 0.9 after 475–700 steps over seeds 0–4, its prefix-
// matching score 0.75–0.85 then; α 3e-3 took 1,300 steps, and T 24 twice as many steps.)
TaskTrainerOptions default_task_options(Task task);

// The sequences of a synthetic task (tasks.hpp): training batches, a held-out set of kEvalSequences sequences
// in batches, and the repeated-tokens probe (repeated_tokens_batch).
class TaskSource : public BatchSource {
 public:
  // Throws as check_task_sizes for a seq_len or vocab_size below the task's minimum.
  TaskSource(Task task, std::size_t seq_len, std::size_t vocab_size);

  Batch draw(std::size_t batch_size, std::size_t step, SplitMix64& rng) const override;
  std::vector<Batch> held_out(std::size_t batch_size, std::uint64_t seed, std::size_t max_tokens) const override;
  Batch repeated_tokens(std::size_t batch_size, SplitMix64& rng) const override;

  Task task() const { return task_; }

 private:
  Task task_;
  std::size_t seq_len_, vocab_size_;
};

// The trainer for these options. Throws std::out_of_range naming the option if a size is 0 or above its limit
// (limits.hpp), numHeads does not divide dModel, the task needs a longer sequence or a larger vocabulary
// (tasks.hpp), or the optimizer's options are out of range (adamw.hpp).
Trainer task_trainer(const TaskTrainerOptions& options);

}  // namespace attn::train
