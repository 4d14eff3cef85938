#pragma once
// Trains the attention-only transformer of model.hpp on one of the tasks of tasks.hpp with AdamW
// (adamw.hpp): a fresh batch each step, everything drawn from one seed, so the same options give the
// same numbers run after run (for the same kernel build).
//
// Letters as in model.hpp: B batch size, T seq_len, V vocab_size, d d_model, H n_heads, L n_layers.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/core/random.hpp"
#include "attn/train/adamw.hpp"
#include "attn/train/model.hpp"
#include "attn/train/tasks.hpp"

namespace attn::train {

// Limits of the trainer's options, checked by the constructor (and exported to JS once, from here).
inline constexpr std::size_t kMaxLayers = 4;
inline constexpr std::size_t kMaxHeads = 16;
inline constexpr std::size_t kMaxTrainDModel = 512;
inline constexpr std::size_t kMaxTrainSeqLen = 256;
inline constexpr std::size_t kMaxTrainVocab = 4096;
inline constexpr std::size_t kMaxBatchSize = 1024;
inline constexpr std::size_t kMaxStepsPerCall = 100000;  // step(n): a call returns within minutes, not hours
// Sequences in the held-out set that evaluate() scores, and in the repeated-tokens probe of the head scores.
inline constexpr std::size_t kEvalSequences = 256;
inline constexpr std::size_t kProbeSequences = 64;

struct TrainerOptions {
  Task task = Task::induction;
  ModelConfig model;
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
TrainerOptions default_trainer_options(Task task);

struct HeadScores {
  // (L, H) mean attention weight from position i to i − 1 (i ≥ 1) on the repeated-tokens probe.
  std::vector<double> previous_token;
  // (L, H) mean attention weight from a token in the repeat to the token after its earlier occurrence
  // (Olsson et al. 2022, §2: prefix matching), on the repeated-tokens probe.
  std::vector<double> prefix_matching;
};

struct Evaluation {
  double loss = 0;      // mean cross-entropy (nats) over the held-out set's scored positions
  double accuracy = 0;  // fraction of those positions whose most likely token is the target
  HeadScores heads;
};

class Trainer {
 public:
  // Throws std::out_of_range naming the option if a size is 0 or above its limit, numHeads does not
  // divide dModel, the task needs a longer sequence or a larger vocabulary (tasks.hpp), or the
  // optimizer's options are out of range (adamw.hpp).
  explicit Trainer(const TrainerOptions& options);

  // n optimizer steps, each on a fresh batch; returns the mean training loss of those n batches.
  // Throws std::out_of_range if n is 0 or above kMaxStepsPerCall. Throws std::domain_error, leaving the parameters as they were before that step, if a loss or a
  // gradient is not finite (a learning rate too large).
  double step(std::size_t n);
  std::size_t steps() const { return optimizer_.steps(); }

  // Loss and accuracy on a fixed held-out set of kEvalSequences sequences (the same at every call),
  // and the head scores on kProbeSequences repeated-token sequences.
  Evaluation evaluate();

  // batch_size sequences of the task, from a stream of their own (drawing them does not change training).
  Batch sample(std::size_t batch_size);

  // The attention weights (L, H, T, T) of one sequence of T ≤ seq_len tokens.
  std::vector<float> attention(const std::vector<std::int32_t>& tokens);
  // The logits (T, V) of one sequence (row t predicts the token after position t).
  std::vector<float> predict(const std::vector<std::int32_t>& tokens);

  // Parameters in ParameterLayout order (a copy), and their replacement: throws std::invalid_argument
  // if the size differs or a value is not finite. The optimizer's moments are kept.
  const std::vector<float>& parameters() const { return parameters_; }
  void set_parameters(const std::vector<float>& parameters);

  // The loss of `batch` and its gradients (ParameterLayout order), with no update. Throws
  // std::out_of_range if the batch's shape, tokens or scored targets are out of range.
  std::pair<double, std::vector<float>> loss_and_gradients(const Batch& batch);

  // Replaces head `head` of layer `layer`'s output by 0 in every forward pass (on = false restores it).
  void ablate(std::size_t layer, std::size_t head, bool on);
  bool ablated(std::size_t layer, std::size_t head) const;

  const TrainerOptions& options() const { return options_; }
  const ModelConfig& config() const { return options_.model; }

 private:
  void check_sequence(const std::vector<std::int32_t>& tokens, const char* where) const;

  TrainerOptions options_;
  std::vector<float> parameters_;
  std::vector<float> gradients_;
  AdamW optimizer_;
  SplitMix64 train_rng_;
  SplitMix64 sample_rng_;
  std::uint64_t held_out_seed_;
  std::uint64_t probe_seed_;
  std::vector<std::uint8_t> ablated_;  // (L, H)
  Workspace<float> ws_;
};

}  // namespace attn::train
