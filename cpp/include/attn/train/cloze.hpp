#pragma once
// Scoring for a cloze benchmark (Taylor 1953, "'Cloze procedure': a new tool for measuring readability",
// Journalism Quarterly 30(4)): a word is blanked out of a held-out sentence and each method ranks the
// output vocabulary for the blank. The answer's rank is counted among the words only: <unk> stands for
// every word outside the vocabulary, so it is never a guess, and an answer outside the vocabulary is a miss
// (the caller counts those apart: word_rank refuses them).
//
// Letters: V_out = the output vocabulary with <unk> (corpus.hpp), ids 0 … V_out − 1, unk = its <unk> id.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/train/ngram.hpp"

namespace attn::train {

// The 0-based rank of `answer` among the words by score (V_out), <unk> left out: the number of words w ≠ unk
// scored above it, plus those scored equal with a smaller id (ties go to the more frequent word, since output
// ids are by frequency). Rank 0 is a top-1 hit, rank < 10 a top-10 hit. Throws std::invalid_argument if
// answer == unk, a score is NaN or n is 0; std::out_of_range if answer or unk is outside [0, n).
std::size_t word_rank(const float* scores, std::size_t n, std::int32_t answer, std::int32_t unk);
std::size_t word_rank(const std::vector<double>& scores, std::int32_t answer, std::int32_t unk);

// A two-sided bigram guess for the blank between the word `left` and the word `right` (output ids; left may be
// KneserNeyBigram::kSentenceStart, right may be kNoRight when the blank ends the sentence):
//   score(w) = ln p(w | left) + ln p(right | w)          (the right term left out when there is no right word)
// i.e. ln of p(w | left) · p(right | w) ∝ p(w | left, right) under a bigram chain (the blank's two neighbours are
// all a first-order Markov model can condition it on). Returns (V_out) scores; unk's entry is −∞, so it never
// ranks above a word. Throws as KneserNeyBigram::log_prob (std::out_of_range naming `previous` or `word`).
inline constexpr std::int32_t kNoRight = -2;
std::vector<double> two_sided_bigram_scores(const KneserNeyBigram& bigram, std::int32_t left, std::int32_t right,
                                            std::int32_t unk);

// Hits of one method over the items: top-1 and top-10 counts (an out-of-vocabulary answer counts as a miss).
struct ClozeTally {
  std::size_t items = 0, top1 = 0, top10 = 0;
  void add_rank(std::size_t rank) { ++items, top1 += rank < 1, top10 += rank < 10; }
  void add_miss() { ++items; }
  double top1_rate() const { return items ? static_cast<double>(top1) / static_cast<double>(items) : 0; }
  double top10_rate() const { return items ? static_cast<double>(top10) / static_cast<double>(items) : 0; }
};

}  // namespace attn::train
