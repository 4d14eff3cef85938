#include "attn/train/task_trainer.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace attn::train {

namespace {

void check_size(std::size_t value, std::size_t max, const char* name) {
  if (value < 1 || value > max) {
    throw std::out_of_range(std::string(name) + " must be an integer in [1, " + std::to_string(max) + "], got " +
                            std::to_string(value));
  }
}

}  // namespace

TaskTrainerOptions default_task_options(Task task) {
  TaskTrainerOptions o;
  o.task = task;
  o.model.positional = Positional::sinusoidal;
  o.batch_size = 16;
  o.optimizer.learning_rate = 1e-2f;
  o.optimizer.weight_decay = 0.01f;
  ModelConfig& m = o.model;
  m.d_model = 32, m.seq_len = 16;
  switch (task) {
    case Task::previous_token:
      m.n_layers = 1, m.n_heads = 1, m.vocab_size = 16;
      break;
    case Task::reverse:
    case Task::sort:
      m.n_layers = 2, m.n_heads = 2, m.vocab_size = 17;
      break;
    case Task::induction:
      m.n_layers = 2, m.n_heads = 2, m.vocab_size = 16;
      break;
  }
  return o;
}

TaskSource::TaskSource(Task task, std::size_t seq_len, std::size_t vocab_size)
    : task_(task), seq_len_(seq_len), vocab_size_(vocab_size) {
  check_task_sizes(task, seq_len, vocab_size);
}

Batch TaskSource::draw(std::size_t batch_size, std::size_t /*step*/, SplitMix64& rng) const {
  return sample_batch(task_, batch_size, seq_len_, vocab_size_, rng);
}

std::vector<Batch> TaskSource::held_out(std::size_t batch_size, std::uint64_t seed, std::size_t max_tokens) const {
  SplitMix64 rng(seed);
  std::vector<Batch> batches;
  std::size_t scored = 0;
  for (std::size_t done = 0; done < kEvalSequences && (!max_tokens || scored < max_tokens);) {
    const std::size_t count = std::min(batch_size, kEvalSequences - done);
    batches.push_back(sample_batch(task_, count, seq_len_, vocab_size_, rng));
    scored += batches.back().scored_count();
    done += count;
  }
  return batches;
}

Batch TaskSource::repeated_tokens(std::size_t batch_size, SplitMix64& rng) const {
  return repeated_tokens_batch(task_, batch_size, seq_len_, vocab_size_, rng);
}

Trainer task_trainer(const TaskTrainerOptions& o) {
  check_size(o.model.d_model, kMaxTaskDModel, "dModel");
  check_size(o.model.vocab_size, kMaxTaskVocab, "vocabSize");
  TrainerOptions options;
  options.model = o.model;
  // The attention-only model (parameters.hpp): the fixed part of the configuration
  options.model.frozen_rows = 0;
  options.model.output_size = 0;
  options.model.d_ff = 0;
  options.model.layer_norm = false;
  options.model.biases = false;
  options.model.causal = true;
  options.model.tied_output = false;
  options.batch_size = o.batch_size;
  options.shards = 1;
  options.optimizer = o.optimizer;
  options.seed = o.seed;
  check_trainer_options(options);
  return Trainer(options, std::make_unique<TaskSource>(o.task, o.model.seq_len, o.model.vocab_size));
}

}  // namespace attn::train
