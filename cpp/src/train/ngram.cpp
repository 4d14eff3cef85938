#include "attn/train/ngram.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::train {

namespace {

using Sentences = std::vector<std::vector<std::int32_t>>;

void check_vocab_size(std::size_t vocab_size) {
  if (vocab_size == 0) throw std::invalid_argument("vocabSize must be at least 1");
  if (vocab_size > kMaxNgramVocab) {
    throw std::out_of_range("vocabSize must be at most " + std::to_string(kMaxNgramVocab) + ", got " +
                            std::to_string(vocab_size));
  }
}

std::string outside_vocab(const std::string& name, std::int64_t value, const std::string& range,
                          std::size_t vocab_size) {
  return name + " = " + std::to_string(value) + " is outside " + range + "vocabSize = " + std::to_string(vocab_size) +
         ")";
}

void check_word(std::int32_t word, std::size_t vocab_size) {
  if (word < 0 || static_cast<std::size_t>(word) >= vocab_size) {
    throw std::out_of_range(outside_vocab("word", word, "[0, ", vocab_size));
  }
}

// The number of ids in `sentences`; throws std::out_of_range naming sentences[i][j] if one is outside
// [0, V), std::invalid_argument if there is none.
std::size_t count_checked_tokens(const Sentences& sentences, std::size_t vocab_size) {
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    const std::vector<std::int32_t>& sentence = sentences[i];
    for (std::size_t j = 0; j < sentence.size(); ++j) {
      if (sentence[j] < 0 || static_cast<std::size_t>(sentence[j]) >= vocab_size) {
        throw std::out_of_range(outside_vocab("sentences[" + std::to_string(i) + "][" + std::to_string(j) + "]",
                                              sentence[j], "[0, ", vocab_size));
      }
    }
    tokens += sentence.size();
  }
  if (tokens == 0) throw std::invalid_argument("sentences must hold at least one token, got none");
  return tokens;
}

// Sums `log_prob(previous, word)` over every token, previous = −1 at a sentence's start.
template <typename LogProb>
Perplexity score(const Sentences& sentences, std::size_t vocab_size, LogProb log_prob) {
  Perplexity result;
  result.tokens = count_checked_tokens(sentences, vocab_size);
  double sum = 0;
  for (const std::vector<std::int32_t>& sentence : sentences) {
    std::int32_t previous = KneserNeyBigram::kSentenceStart;
    for (const std::int32_t word : sentence) {
      sum += log_prob(previous, word);
      previous = word;
    }
  }
  result.mean_log_prob = sum / static_cast<double>(result.tokens);
  result.perplexity = std::exp(-result.mean_log_prob);
  return result;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Unigram

UnigramModel::UnigramModel(const Sentences& sentences, std::size_t vocab_size) {
  check_vocab_size(vocab_size);
  tokens_ = count_checked_tokens(sentences, vocab_size);
  std::vector<std::uint64_t> counts(vocab_size, 0);  // (V) count(w)
  for (const std::vector<std::int32_t>& sentence : sentences) {
    for (const std::int32_t word : sentence) ++counts[static_cast<std::size_t>(word)];
  }
  // ln p(w) = ln(count(w) + 1) − ln(N + V)
  const double log_total = std::log(static_cast<double>(tokens_) + static_cast<double>(vocab_size));
  log_probs_.resize(vocab_size);
  for (std::size_t w = 0; w < vocab_size; ++w)
    log_probs_[w] = std::log(static_cast<double>(counts[w]) + 1.0) - log_total;
}

double UnigramModel::log_prob(std::int32_t word) const {
  check_word(word, log_probs_.size());
  return log_probs_[static_cast<std::size_t>(word)];
}

// ---------------------------------------------------------------------------------------------------
// Kneser–Ney bigram

KneserNeyBigram::KneserNeyBigram(const Sentences& sentences, std::size_t vocab_size) {
  check_vocab_size(vocab_size);
  const std::size_t tokens = count_checked_tokens(sentences, vocab_size);
  const std::uint64_t V = vocab_size;

  // 1. c(v w), keyed by v · V + w with v = V for <s>: one bigram per token.
  bigram_counts_.reserve(tokens);
  for (const std::vector<std::int32_t>& sentence : sentences) {
    std::uint64_t previous = V;  // <s>
    for (const std::int32_t word : sentence) {
      const auto w = static_cast<std::uint64_t>(word);
      ++bigram_counts_[previous * V + w];
      previous = w;
    }
  }

  // 2. Per-context totals c(v), N1+(v •); continuation counts N1+(• w); counts of counts n_1, n_2.
  context_count_.assign(vocab_size + 1, 0);
  context_types_.assign(vocab_size + 1, 0);
  std::vector<std::uint64_t> left_contexts(vocab_size, 0);  // (V) N1+(• w)
  std::uint64_t n1 = 0, n2 = 0;
  for (const auto& [key, count] : bigram_counts_) {
    const std::uint64_t v = key / V, w = key % V;
    context_count_[v] += count;
    ++context_types_[v];
    ++left_contexts[w];
    if (count == 1) ++n1;
    if (count == 2) ++n2;
  }
  const std::uint64_t bigram_types = bigram_counts_.size();  // N1+(• •)

  // 3. D = n_1 / (n_1 + 2 n_2). Without singletons D would be 0 and the unseen words of a seen context
  // would get probability 0: refuse rather than return −∞ log-probabilities.
  if (n1 == 0) {
    throw std::invalid_argument(
        "sentences must hold at least one bigram (<s> w included) seen exactly once: with none, "
        "the Kneser-Ney discount n1 / (n1 + 2 n2) is 0");
  }
  discount_ = static_cast<double>(n1) / (static_cast<double>(n1) + 2.0 * static_cast<double>(n2));

  // 4. p_cont(w) = (N1+(• w) + 1) / (N1+(• •) + V)
  const double continuation_total = static_cast<double>(bigram_types) + static_cast<double>(vocab_size);
  continuation_.resize(vocab_size);
  for (std::size_t w = 0; w < vocab_size; ++w) {
    continuation_[w] = (static_cast<double>(left_contexts[w]) + 1.0) / continuation_total;
  }
}

std::size_t KneserNeyBigram::context_index(std::int32_t previous) const {
  const std::size_t V = continuation_.size();
  if (previous == kSentenceStart) return V;
  if (previous < 0 || static_cast<std::size_t>(previous) >= V) {
    throw std::out_of_range(outside_vocab("previous", previous, "[-1 (sentence start), ", V));
  }
  return static_cast<std::size_t>(previous);
}

double KneserNeyBigram::log_prob(std::int32_t previous, std::int32_t word) const {
  const std::size_t V = continuation_.size();
  check_word(word, V);
  const std::size_t v = context_index(previous);
  const auto w = static_cast<std::size_t>(word);
  const double p_cont = continuation_[w];
  const std::uint64_t c_v = context_count_[v];
  if (c_v == 0) return std::log(p_cont);  // unseen context

  const auto found = bigram_counts_.find(static_cast<std::uint64_t>(v) * V + w);
  const double c_vw = found == bigram_counts_.end() ? 0.0 : static_cast<double>(found->second);
  // (max(c(v w) − D, 0) + D · N1+(v •) · p_cont(w)) / c(v)
  const double numerator =
      std::max(c_vw - discount_, 0.0) + discount_ * static_cast<double>(context_types_[v]) * p_cont;
  return std::log(numerator / static_cast<double>(c_v));
}

// ---------------------------------------------------------------------------------------------------
// Perplexity

Perplexity unigram_perplexity(const UnigramModel& model, const Sentences& sentences) {
  return score(sentences, model.vocab_size(), [&](std::int32_t, std::int32_t word) { return model.log_prob(word); });
}

Perplexity bigram_perplexity(const KneserNeyBigram& model, const Sentences& sentences) {
  return score(sentences, model.vocab_size(),
               [&](std::int32_t previous, std::int32_t word) { return model.log_prob(previous, word); });
}

}  // namespace attn::train
