#pragma once
// The one trainer: the transformer of model.hpp trained with AdamW (adamw.hpp) on batches from a batch
// source (batch_source.hpp): a synthetic task for the Learn chapter's attention-only models
// (task_trainer.hpp), or a corpus for the language models (language_trainer.hpp). Those two files only
// configure this class; the step loop, the seeds and the validation are the same code for both.
//
// Seeds: one master seed; SplitMix64(seed) gives, in this order, the seeds of the initialization, the training
// batches, the held-out set, sample()'s stream and the head-score probe, each an independent stream, so that
// the same options give the same numbers run after run (for the same kernel build).
//
// A step's batch is cut into `shards` fixed slices whose gradients are summed in order; a ParallelFor may run
// the slices on several threads without changing a bit of the result.
//
// Letters as in model.hpp: B batch size, T seq_len, V_out the output size, L n_layers, H n_heads.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/adamw.hpp"
#include "attn/train/batch_source.hpp"
#include "attn/train/limits.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

struct TrainerOptions {
  ModelConfig model;
  std::size_t batch_size = 16;
  std::size_t shards = 1;  // slices of a batch (fixed by the recipe, not by the thread count)
  AdamWOptions optimizer;
  LearningRateSchedule schedule;  // total_steps = 0: the optimizer's α throughout
  std::uint64_t seed = 0;
};

// Throws as the Trainer constructor for options out of range (the configurations call it before they
// tokenize a corpus or build a source, so that a wrong option fails fast).
void check_trainer_options(const TrainerOptions& options);

// Runs body(i) for i in [0, n), in any order and on any threads; the default runs them in order.
using ParallelFor = std::function<void(std::size_t n, const std::function<void(std::size_t)>& body)>;

struct Evaluation {
  double loss = 0;         // mean cross-entropy (nats) over the held-out set's scored positions
  double perplexity = 0;   // exp(loss)
  double top1 = 0;         // fraction of those positions where no output scores above the target (the accuracy)
  double top5 = 0;         // … where fewer than 5 do
  std::size_t tokens = 0;  // scored positions
  // The source's baseline that ignores its input (batch_source.hpp frequent_outputs; 0 without one): the
  // fraction of scored targets that are its first output, and that are among its outputs.
  double frequent_top1 = 0, frequent_top5 = 0;
};

struct HeadScores {
  // (L, H) mean attention weight from position i to i − 1 (i ≥ 1) on the repeated-tokens probe.
  std::vector<double> previous_token;
  // (L, H) mean attention weight from a token in the repeat to the token after its earlier occurrence
  // (Olsson et al. 2022, §2: prefix matching), on the repeated-tokens probe.
  std::vector<double> prefix_matching;
};

class Trainer {
 public:
  // Throws std::out_of_range naming the option (as JS names it) if n_layers, n_heads, seq_len, batch_size or
  // shards is outside its range (limits.hpp; shards ≤ batch_size), the model's configuration is invalid
  // (parameters.hpp check_config), the largest forward pass would exceed the memory limit, or the optimizer's
  // options or schedule are out of range (adamw.hpp).
  Trainer(const TrainerOptions& options, std::unique_ptr<BatchSource> source, ParallelFor parallel = {});

  // n optimizer steps, each on a fresh batch; returns the mean training loss of those n batches. Throws
  // std::out_of_range if n is outside [1, kMaxStepsPerCall]; std::domain_error, leaving the parameters as they
  // were before that step, if a loss or a gradient is not finite (a learning rate too large).
  double step(std::size_t n = 1);
  std::size_t steps() const { return optimizer_.steps(); }
  float learning_rate() const;  // the rate of the next step

  // Loss, perplexity, top-1 and top-5 on the source's held-out set (the same at every call), on at least
  // max_tokens scored positions (0: all). Throws std::out_of_range if max_tokens is above kMaxEvalTokens.
  Evaluation evaluate(std::size_t max_tokens = 0);

  // The head scores on kProbeSequences repeated-token sequences (the same at every call).
  HeadScores head_scores();

  // batch_size sequences from a stream of their own (drawing them does not change training); throws
  // std::out_of_range if batch_size is outside [1, kMaxBatchSize].
  Batch sample(std::size_t batch_size);
  // The batch the next step would train on (drawn from a copy of the training stream).
  Batch peek_batch() const;

  // The attention weights (L, H, T, T) and the logits (T, V_out) of one sequence of T ≤ seq_len tokens
  // (logits row t: the output at position t). Throws std::out_of_range for no tokens, more than seq_len, or a
  // token outside [0, vocab_size).
  std::vector<float> attention(const std::vector<std::int32_t>& tokens);
  std::vector<float> predict(const std::vector<std::int32_t>& tokens);

  // Parameters in parameter_specs order, and their replacement: throws std::invalid_argument if the size
  // differs or a value is not finite. The optimizer's moments are kept.
  const std::vector<float>& parameters() const { return parameters_; }
  void set_parameters(const std::vector<float>& parameters);

  // The mean loss of `batch` over its scored positions and its gradients (parameter_specs order), with no
  // update. Throws std::out_of_range if the batch is not (1 … kMaxBatchSize, 1 … seq_len) for tokens, targets
  // and scored alike, or a scored target is outside [0, V_out).
  std::pair<double, std::vector<float>> loss_and_gradients(const Batch& batch);

  // Replaces head `head` of layer `layer`'s output by 0 in every forward pass (on = false restores it).
  // Throws std::out_of_range if the layer or head does not exist.
  void ablate(std::size_t layer, std::size_t head, bool on);
  bool ablated(std::size_t layer, std::size_t head) const;

  const TrainerOptions& options() const { return options_; }
  const ModelConfig& config() const { return options_.model; }
  const BatchSource& source() const { return *source_; }
  const FrozenInputs<float>& frozen() const { return source_->frozen(); }

 private:
  void check_sequence(const std::vector<std::int32_t>& tokens, const char* where) const;
  // Forward and backward over `batch` in the configured shards; the summed gradients end in gradients_[0].
  // Returns the summed cross-entropy of the scored positions.
  double gradients(const Batch& batch);

  TrainerOptions options_;
  std::unique_ptr<BatchSource> source_;
  std::vector<float> parameters_;
  std::vector<std::vector<float>> gradients_;  // (shards, parameter_count)
  std::vector<Workspace<float>> workspaces_;   // (shards)
  AdamW optimizer_;
  SplitMix64 train_rng_;
  SplitMix64 sample_rng_;
  std::uint64_t held_out_seed_;
  std::uint64_t probe_seed_;
  std::vector<std::uint8_t> ablated_;  // (L, H)
  ParallelFor parallel_;
};

}  // namespace attn::train
