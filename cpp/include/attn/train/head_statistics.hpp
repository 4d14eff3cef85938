#pragma once
// What each head of a trained language model does on held-out text, measured, not assumed (the scores of
// Olsson et al. 2022, §2, and of Clark et al. 2019, "What Does BERT Look At?", §3): every head's attention
// over windows of the held-out text, averaged per query.
//
// For a query i and its row of weights a_i· (each row sums to 1):
//   previous   a[i, i − 1]                      (queries i ≥ 1)
//   next       a[i, i + 1]                      (queries i < T − 1; 0 under a causal mask)
//   self       a[i, i]
//   first      a[i, 0]                          (queries i ≥ 1)
//   same word  Σ a[i, j] over the other positions j with the same input id (causal: j < i; queries that
//              have one)
//   prefix     Σ a[i, j + 1] over the earlier j < i − 1 with the same input id as i: the token after the
//              earlier occurrence, where an induction head looks (queries that have one)
//   entropy    −Σ_j a[i, j] log₂ a[i, j] (bits)
// and, on repeated random words (repeated_words_probe below, not on the text):
//   induction  the head's induction score there
// A head is labelled "induction" when its induction score is at least kHeadLabelThreshold, else by its largest score
// when that is at least the threshold, else "mixed" (head_label).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/train/corpus.hpp"
#include "attn/train/gpt2.hpp"
#include "attn/train/language_model.hpp"

namespace attn::train {

inline constexpr double kHeadLabelThreshold = 0.4;
// The window the shipped models were measured with: their training windows' length.
inline constexpr std::size_t kHeadStatisticsWindow = 32;
inline constexpr std::array<const char*, 7> kHeadScoreNames = {"previous",  "next",   "self",     "first",
                                                               "same word", "prefix", "induction"};

// The probe of the induction heads (Olsson et al. 2022, §2; TransformerLens's head detector): sequences of R random
// words of the output vocabulary (uniform, <unk> never drawn), then the same R words again, 2R tokens in all. Text
// cannot be predicted there except by copying from the first half. R = 12 and 64 sequences by default.
inline constexpr std::size_t kRepeatedWords = 12;
inline constexpr std::size_t kMinRepeatedWords = 2;
inline constexpr std::size_t kMaxRepeatedWords = 128;  // 2R ≤ kMaxLanguageTokens
inline constexpr std::size_t kRepeatedSequences = 64;
inline constexpr std::size_t kMaxRepeatedSequences = 1024;

struct RepeatedWordsScores {
  std::size_t repeat = 0, sequences = 0;  // R and the number of sequences
  // (L·H) layer-major, each a mean weight over the sequences' queries:
  std::vector<double> previous;   // a[i, i − 1], queries i = 1 … 2R − 1
  std::vector<double> duplicate;  // a[i, i − R], queries in the second half (the same word's first occurrence)
  std::vector<double> induction;  // a[i, i − R + 1], queries in the second half (the word after that occurrence)
  // Causal models (NaN for a masked one): the mean −ln p (nats) of the words of each half given the ones before,
  // its first word left out (word 1 … R − 1 of the first half, word R + 1 … 2R − 1 of the second): the second half
  // is easier by first_half_loss − second_half_loss when the model copies.
  double first_half_loss = 0, second_half_loss = 0;
  // The first sequence measured, as output ids (2R: R words, then the same R again): an example to show a learner.
  std::vector<std::int32_t> example;
};

// The probe above on `model` with R = repeat words, `sequences` sequences drawn with SplitMix64(seed). Throws
// std::out_of_range if repeat is outside [kMinRepeatedWords, kMaxRepeatedWords] or sequences outside
// [1, kMaxRepeatedSequences].
RepeatedWordsScores repeated_words_probe(LanguageModel& model, std::size_t repeat = kRepeatedWords,
                                         std::size_t sequences = kRepeatedSequences, std::uint64_t seed = 0);
// The same on a GPT-2 checkpoint (gpt2.hpp): R random BPE tokens (uniform, <|endoftext|> never drawn; example: their
// ids), the scores and both halves' losses as above.
RepeatedWordsScores repeated_words_probe(Gpt2Model& model, std::size_t repeat = kRepeatedWords,
                                         std::size_t sequences = kRepeatedSequences, std::uint64_t seed = 0);

// A head's label from its scores (kHeadScoreNames' order): "induction" when the induction score reaches
// kHeadLabelThreshold — Olsson et al. 2022 (§2) name an induction head by what it does on repeated random tokens, and
// on natural text, with nothing to copy, such a head rests on the first token, which would outscore it —, else the
// largest score's name when it reaches the threshold, else "mixed".
std::string head_label(const std::array<double, 7>& scores);

struct HeadStatistics {
  std::size_t layer = 0, head = 0;
  std::array<double, 7> scores{};  // in kHeadScoreNames' order
  double entropy_bits = 0;
  std::string label;  // a score's name, or "mixed"
};

// Every head (layer-major) over the windows of `text`'s lines: each window starts at a line's first token
// and holds up to window tokens of that line and the ones after it (at most max_windows windows, in text
// order); its induction score from repeated_words_probe's defaults. Throws std::invalid_argument if the text has no
// line of at least 2 tokens.
std::vector<HeadStatistics> head_statistics(LanguageModel& model, const std::string& text,
                                            std::size_t window = kHeadStatisticsWindow, std::size_t max_windows = 2000);

}  // namespace attn::train
