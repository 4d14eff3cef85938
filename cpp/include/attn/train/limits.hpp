#pragma once
// Every limit of the trainer's options (trainer.hpp, for the Learn tasks and the language models alike),
// defined here once: the constructors check them, and cpp/bindings/train_bindings.cpp exports each of
// them to JS (core.trainerLimits), where web/src/core/ checks the same bounds before calling in.
#include <cstddef>

namespace attn::train {

inline constexpr std::size_t kMaxLayers = 4;
// n_heads of any trainer; a language model's must also divide its d_model (the word vectors' width).
inline constexpr std::size_t kMaxHeads = 16;
// The Learn tasks' learned d_model and vocab_size (a language model's come from its word vectors and text).
inline constexpr std::size_t kMaxTaskDModel = 512;
inline constexpr std::size_t kMaxTaskVocab = 4096;
inline constexpr std::size_t kMaxTrainSeqLen = 256;           // seq_len of a training window, for both
inline constexpr std::size_t kMaxFeedForward = 2048;          // d_ff of a language model
inline constexpr std::size_t kMaxBatchSize = 1024;            // sequences per step, and per lossAndGradients batch
inline constexpr std::size_t kMaxShards = 16;                 // fixed slices of a batch (at most batch_size)
inline constexpr std::size_t kMaxStepsPerCall = 100000;       // step(n): a call returns within minutes, not hours
inline constexpr std::size_t kMaxScheduleSteps = 1000000000;  // the schedule's warm-up and total steps
inline constexpr std::size_t kMaxEvalTokens = 1000000000;     // evaluate(max_tokens)
// Sequences in the held-out set of a synthetic task, and in the repeated-tokens probe of the head scores.
inline constexpr std::size_t kEvalSequences = 256;
inline constexpr std::size_t kProbeSequences = 64;

}  // namespace attn::train
