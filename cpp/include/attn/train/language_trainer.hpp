#pragma once
// Trains a small transformer language model (model.hpp, the post-LN configuration of parameters.hpp) on
// English text (corpus.hpp): frozen GloVe input vectors + sinusoidal P, n_layers blocks, logits over the
// output vocabulary. Two objectives:
//   causal  next word (a decoder, GPT-style: Radford et al. 2018): causal mask; target[t] = word t + 1.
//   masked  fill in the blank (an encoder, BERT-style: Devlin et al. 2019, §3.1): no mask; 15 % of the
//           positions are chosen, of which 80 % become [MASK], 10 % a random output word and 10 % stay;
//           the chosen positions are scored against their original word.
// A batch is B windows of T tokens, each starting at the first token of a line of the training text
// drawn at random (so position 0 is a line's first word, as in a learner's sentence). The batch is cut
// into `shards` fixed slices whose gradients are summed in order; a ParallelFor may run the slices on
// several threads without changing a bit of the result (same seed, same build: same losses).
//
// X is not scaled by √d_model (Vaswani et al. 2017, §3.4): the GloVe rows already have norms (≈ 4–7)
// comparable to the sinusoidal P's √(d/2) ≈ 7.1, and they are frozen, so the scaling that lifts small
// learned embeddings above P is not needed.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attn/core/names.hpp"
#include "attn/core/random.hpp"
#include "attn/text/embeddings.hpp"
#include "attn/train/adamw.hpp"
#include "attn/train/corpus.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

// The objectives above; their JS names (core.createLanguageTrainer's `objective`) go through names.hpp.
enum class Objective { causal, masked };
inline constexpr NamedValue<Objective> kObjectiveNames[] = {{"causal", Objective::causal}, {"masked", Objective::masked}};

// Limits of the language trainer's options.
inline constexpr std::size_t kMaxLanguageLayers = 4;
inline constexpr std::size_t kMaxLanguageFeedForward = 2048;
inline constexpr std::size_t kMaxLanguageSeqLen = 256;
inline constexpr std::size_t kMaxShards = 16;
inline constexpr double kMaskRate = 0.15;  // Devlin et al. 2019, §3.1

struct LanguageTrainerOptions {
  Objective objective = Objective::causal;
  std::size_t n_layers = 2;
  std::size_t n_heads = 4;
  std::size_t d_ff = 400;
  std::size_t seq_len = 32;
  std::size_t batch_size = 32;
  std::size_t shards = 2;          // slices of a batch (fixed by the recipe, not by the thread count)
  std::size_t output_words = 8191; // V: the output layer has V + 1 logits (<unk>)
  bool tied_output = true;
  bool layer_norm = true;          // false, with d_ff = 0: the attention-only ablation
  AdamWOptions optimizer{3e-3f, 0.9f, 0.98f, 1e-8f, 0.1f, 1.0f};
  LearningRateSchedule schedule{200, 0, 0.1f};
  std::uint64_t seed = 0;
};

// The model configuration the options give with the word vectors of `table` (input ids: corpus.hpp).
// Throws as the LanguageTrainer constructor for options out of range.
ModelConfig language_model_config(const LanguageTrainerOptions& options, const EmbeddingTable& table);

// Runs body(i) for i in [0, n), in any order and on any threads; the default runs them in order.
using ParallelFor = std::function<void(std::size_t n, const std::function<void(std::size_t)>& body)>;

struct LanguageEvaluation {
  double loss = 0;        // mean cross-entropy (nats) over the scored held-out tokens
  double perplexity = 0;  // exp(loss)
  double top1 = 0;        // fraction of scored tokens whose most likely output is the target
  double top5 = 0;        // … among the 5 most likely
  std::size_t tokens = 0; // scored tokens
  // The baseline that always predicts the training text's most frequent words: the fraction of scored
  // targets that are the most frequent output, and that are among the 5 most frequent.
  double frequent_top1 = 0, frequent_top5 = 0;
};

class LanguageTrainer {
 public:
  // The corpus is tokenized here; the output vocabulary is train_text's most frequent words. Throws
  // std::out_of_range naming the option outside its range (n_layers 1–4, n_heads dividing d_model =
  // table.dim(), d_ff ≤ 2048, seq_len 2–256, batch_size 1–1024, shards 1–16 and ≤ batch_size, output_words,
  // the optimizer's), std::invalid_argument if either text has fewer than seq_len + 1 tokens.
  LanguageTrainer(const LanguageTrainerOptions& options, const EmbeddingTable& table, const std::string& train_text,
                  const std::string& held_out_text, ParallelFor parallel = {});

  // n optimizer steps; returns the mean training loss of those n batches. Throws std::domain_error,
  // leaving the parameters as they were before that step, if a loss or gradient is not finite.
  double step(std::size_t n = 1);
  std::size_t steps() const { return optimizer_.steps(); }

  // Held-out loss on every held-out token (causal: each token after the first, with the context of its
  // window; masked: a fixed 15 % of positions, all replaced by [MASK]), at most max_tokens of them (0: all).
  LanguageEvaluation evaluate(std::size_t max_tokens = 0);

  const ModelConfig& config() const { return config_; }
  const LanguageTrainerOptions& options() const { return options_; }
  const OutputVocabulary& vocabulary() const { return vocabulary_; }
  const TokenStream& train_stream() const { return train_; }
  const TokenStream& held_out_stream() const { return held_out_; }
  const FrozenInputs<float>& frozen() const { return frozen_; }
  const std::vector<float>& parameters() const { return parameters_; }
  void set_parameters(const std::vector<float>& parameters);  // std::invalid_argument: wrong size or not finite
  float learning_rate() const;  // the rate of the next step

  // The batch the next step would train on (drawn from a copy of the stream's state).
  Batch peek_batch() const;

  // The loss of `batch` (tokens: input ids; targets: output ids where scored) and its gradients
  // (parameter_specs order), with no update. Throws std::out_of_range if the batch's shape, tokens or
  // scored targets are out of range.
  std::pair<double, std::vector<float>> loss_and_gradients(const Batch& batch);

 private:
  Batch draw_batch(SplitMix64& rng) const;

  LanguageTrainerOptions options_;
  ModelConfig config_;
  OutputVocabulary vocabulary_;
  TokenStream train_, held_out_;
  FrozenInputs<float> frozen_;
  std::vector<float> parameters_;
  std::vector<std::vector<float>> shard_gradients_;
  std::vector<Workspace<float>> shard_workspaces_;
  AdamW optimizer_;
  SplitMix64 rng_;
  std::vector<std::int32_t> most_frequent_;  // the 5 most frequent outputs of the training text
  ParallelFor parallel_;
  std::int32_t mask_id_ = 0;
};

}  // namespace attn::train
