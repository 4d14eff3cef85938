#pragma once
// Sampling a word from a language model's output layer, as text generation does it (and as Transformer Explainer
// teaches it: Cho et al. 2024): the logits divided by a temperature T before the softmax (Ackley, Hinton &
// Sejnowski 1985; T → 0 approaches the argmax, T = 1 is the model's own distribution), restricted to the k most
// likely words (top-k sampling, Fan, Lewis & Dauphin 2018 §5.4) and renormalised, then one draw from it.
//
// <unk> stands for every word outside the output vocabulary: it is not a word one can write, so the sampling
// distribution is over the words only (the model's probability of <unk> is reported apart, LanguageRun::unk).
//
// Letters: V_out = the output vocabulary with <unk> (corpus.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn::train {

// The output temperature's limits (the attention temperature is another setting: core/limits.hpp). Below 0.05 the
// distribution is the argmax to float precision for the shipped models' logits; above 5 it is almost uniform.
inline constexpr double kMinOutputTemperature = 0.05;
inline constexpr double kMaxOutputTemperature = 5.0;
// top-k's limit; 0 means no restriction (every word of the output vocabulary).
inline constexpr std::size_t kMaxSampleTopK = 100;

// The sampling distribution q, most likely first (ties: the lower id first): the words kept and their probabilities.
struct SamplingDistribution {
  std::vector<std::int32_t> ids;  // (n) output ids, <unk> never among them
  std::vector<float> q;           // (n) sums to 1 over every kept word (in double before rounding to float)
};

// q_i = exp(z_i / T) / Σ_{j kept} exp(z_j / T) for the words i kept: the top_k largest logits z among the words
// (every word when top_k = 0 or top_k ≥ the words' count), <unk> (id `unk`) excluded. logits: (n) one position's.
// Computed in double with the largest logit subtracted first (no overflow at T = 0.05). first: how many of them to
// return (the most likely; all by default), so that a figure showing 10 of 8,191 does not sort them all. Throws
// std::out_of_range if temperature is not in [kMinOutputTemperature, kMaxOutputTemperature] (or is NaN), top_k >
// kMaxSampleTopK, or no word is left (n = 1).
SamplingDistribution sampling_distribution(const float* logits, std::size_t n, std::int32_t unk, double temperature,
                                           std::size_t top_k, std::size_t first = SIZE_MAX);

// What sample() takes: the output temperature, top-k (0: every word) and the draw's seed.
struct SamplingOptions {
  double temperature = 1;
  std::size_t top_k = 0;
  std::uint64_t seed = 0;
};

struct SampledWord {
  std::int32_t id;  // output id
  float q;          // its probability under the sampling distribution
};

// One draw from q with its own generator: u = the top 53 bits of SplitMix64(seed)'s first output × 2⁻⁵³, uniform
// in [0, 1) (random.hpp; the same in every build and browser); the first word whose cumulative q exceeds u (inverse
// transform sampling), the last one if rounding leaves u past the sum. Throws std::invalid_argument if q is empty.
SampledWord draw(const SamplingDistribution& q, std::uint64_t seed);

// The ids of the k largest entries of row (n), largest first, ties to the lower id, `skip` left out (<unk>; −1: none):
// the k most likely words that run() lists.
std::vector<std::int32_t> top_ids(const float* row, std::size_t n, std::size_t k, std::int32_t skip);

}  // namespace attn::train
