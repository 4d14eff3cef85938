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
// A head is labelled by its largest score when that is at least kHeadLabelThreshold, else "mixed".
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "attn/train/corpus.hpp"
#include "attn/train/language_model.hpp"

namespace attn::train {

inline constexpr double kHeadLabelThreshold = 0.4;
// The window the shipped models were measured with: their training windows' length.
inline constexpr std::size_t kHeadStatisticsWindow = 32;
inline constexpr std::array<const char*, 6> kHeadScoreNames = {"previous", "next", "self", "first", "same word", "prefix"};

struct HeadStatistics {
  std::size_t layer = 0, head = 0;
  std::array<double, 6> scores{};  // in kHeadScoreNames' order
  double entropy_bits = 0;
  std::string label;               // a score's name, or "mixed"
};

// Every head (layer-major) over the windows of `text`'s lines: each window starts at a line's first token
// and holds up to window tokens of that line and the ones after it (at most max_windows windows, in text
// order). Throws std::invalid_argument if the text has no line of at least 2 tokens.
std::vector<HeadStatistics> head_statistics(LanguageModel& model, const std::string& text, std::size_t window = kHeadStatisticsWindow,
                                            std::size_t max_windows = 2000);

}  // namespace attn::train
