#pragma once
// Where a trainer's sequences come from (trainer.hpp): a synthetic task (task_trainer.hpp, the Learn
// chapter's attention-only models) or a corpus of English text (language_trainer.hpp, the language models).
// The trainer owns the random streams and passes them in, so every seed comes from one scheme (trainer.hpp).
//
// Letters: B = batch size, T = the model's seq_len; a Batch is (B, T) tokens, targets and scored flags
// (tasks.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/model.hpp"
#include "attn/train/tasks.hpp"

namespace attn::train {

class BatchSource {
 public:
  virtual ~BatchSource() = default;

  // A training batch of batch_size sequences (B, T), drawn from rng; step: the optimizer steps taken before it (a
  // source may change as training goes on: the language models' repeated-span curriculum).
  virtual Batch draw(std::size_t batch_size, std::size_t step, SplitMix64& rng) const = 0;

  // The held-out set as batches of at most batch_size sequences each (a batch's sequences share one
  // length ≤ T), drawn from a stream seeded with `seed`, so the same at every call: everything, or (when
  // max_tokens > 0) batches until at least max_tokens positions are scored.
  virtual std::vector<Batch> held_out(std::size_t batch_size, std::uint64_t seed, std::size_t max_tokens) const = 0;

  // The probe of the head scores (Olsson et al. 2022, §2): batch_size sequences (B, T) of ⌊T / 2⌋ random
  // tokens followed by the same tokens again, drawn from rng.
  virtual Batch repeated_tokens(std::size_t batch_size, SplitMix64& rng) const = 0;

  // The model's inputs that are not parameters (model.hpp): empty for a synthetic task.
  virtual const FrozenInputs<float>& frozen() const { return no_frozen_inputs_; }

  // The outputs a baseline that ignores its input predicts, most likely first (up to 5; empty: no baseline).
  virtual const std::vector<std::int32_t>& frequent_outputs() const { return no_outputs_; }

 private:
  FrozenInputs<float> no_frozen_inputs_;
  std::vector<std::int32_t> no_outputs_;
};

}  // namespace attn::train
