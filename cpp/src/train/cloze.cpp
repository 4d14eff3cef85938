#include "attn/train/cloze.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn::train {

namespace {

template <typename Score>
std::size_t rank_of(const Score* scores, std::size_t n, std::int32_t answer, std::int32_t unk) {
  if (n == 0) throw std::invalid_argument("word_rank: no scores");
  if (answer < 0 || static_cast<std::size_t>(answer) >= n)
    throw std::out_of_range("word_rank: answer " + std::to_string(answer) + " outside [0, " + std::to_string(n) + ")");
  if (unk < 0 || static_cast<std::size_t>(unk) >= n)
    throw std::out_of_range("word_rank: unk " + std::to_string(unk) + " outside [0, " + std::to_string(n) + ")");
  if (answer == unk) throw std::invalid_argument("word_rank: the answer is <unk> (out of vocabulary: a miss)");
  const Score target = scores[answer];
  std::size_t rank = 0;
  for (std::size_t w = 0; w < n; ++w) {
    if (std::isnan(scores[w])) throw std::invalid_argument("word_rank: score " + std::to_string(w) + " is NaN");
    if (static_cast<std::int32_t>(w) == unk || static_cast<std::int32_t>(w) == answer) continue;
    rank += scores[w] > target || (scores[w] == target && static_cast<std::int32_t>(w) < answer);
  }
  return rank;
}

}  // namespace

std::size_t word_rank(const float* scores, std::size_t n, std::int32_t answer, std::int32_t unk) {
  return rank_of(scores, n, answer, unk);
}

std::size_t word_rank(const std::vector<double>& scores, std::int32_t answer, std::int32_t unk) {
  return rank_of(scores.data(), scores.size(), answer, unk);
}

std::vector<double> two_sided_bigram_scores(const KneserNeyBigram& bigram, std::int32_t left, std::int32_t right,
                                            std::int32_t unk) {
  const std::size_t V = bigram.vocab_size();
  std::vector<double> scores(V);
  for (std::size_t w = 0; w < V; ++w) {
    const auto word = static_cast<std::int32_t>(w);
    if (word == unk) {
      scores[w] = -std::numeric_limits<double>::infinity();
      continue;
    }
    scores[w] = bigram.log_prob(left, word) + (right == kNoRight ? 0.0 : bigram.log_prob(word, right));
  }
  return scores;
}

}  // namespace attn::train
