#pragma once
// The count-based baselines a small transformer language model is compared against: an add-one
// unigram model and an interpolated Kneser–Ney bigram model, with their per-token perplexity.
//
// Letters: V = vocab_size (every id the model may be asked about, `<unk>` included as an ordinary id);
// N = the number of training tokens. A text is a list of sentences, each a sequence of ids in [0, V).
// A bigram conditions word i on word i − 1 of the same sentence; the first word of a sentence is
// conditioned on the sentence-start context <s>, which is not an id of V and is never predicted. No
// end-of-sentence symbol is predicted either (the transformer is scored the same way), so a sentence
// of n ids contributes exactly n predictions: one after <s>, n − 1 after a word.
//
// Counts, for v ∈ V ∪ {<s>} and w ∈ V (all over the training sentences):
//   c(v w)      the times w follows v (w opens a sentence for v = <s>)
//   c(v)        Σ_w c(v w): the times v is followed by a word. A word seen only at the end of
//               sentences has c(v) = 0 and counts as an unseen context.
//   N1+(v •)    the number of distinct w with c(v w) > 0
//   N1+(• w)    the number of distinct v (<s> included) with c(v w) > 0
//   N1+(• •)    Σ_w N1+(• w): the number of distinct bigrams
//   n_k         the number of distinct bigrams with c(v w) = k (counts of counts)
//
// Errors: an id outside [0, V) throws std::out_of_range naming it (`word`, `previous`,
// `sentences[i][j]`), and so does V > kMaxNgramVocab (`vocabSize`); vocab_size 0, or training sentences
// holding no token, throw std::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace attn::train {

// The largest vocab_size accepted: every id must be representable as a std::int32_t.
inline constexpr std::size_t kMaxNgramVocab = std::size_t{1} << 31;

// p(w) = (count(w) + 1) / (N + V): add-one (Laplace) smoothing (Jurafsky & Martin, "Speech and
// Language Processing", 3rd ed. draft, ch. 3, "Laplace Smoothing"). Sums to 1 over V; p(w) > 0.
class UnigramModel {
 public:
  // Throws std::invalid_argument if vocab_size is 0 or the sentences hold no token, std::out_of_range
  // naming sentences[i][j] if an id is outside [0, V) or vocabSize if V > kMaxNgramVocab.
  UnigramModel(const std::vector<std::vector<std::int32_t>>& sentences, std::size_t vocab_size);

  // ln p(word) (nats, ≤ 0). Throws std::out_of_range naming `word` if it is outside [0, V).
  double log_prob(std::int32_t word) const;

  std::size_t vocab_size() const { return log_probs_.size(); }
  std::size_t training_tokens() const { return tokens_; }

 private:
  std::vector<double> log_probs_;  // (V) ln p(w)
  std::size_t tokens_ = 0;         // N
};

// Interpolated Kneser–Ney with one discount (Kneser & Ney 1995; Chen & Goodman 1998, "An Empirical
// Study of Smoothing Techniques for Language Modeling", TR-10-98, sections "Absolute discounting" and
// "Kneser–Ney smoothing"; SLP3 ch. 3, "Kneser–Ney Smoothing", the interpolated bigram form):
//
//   p(w | v)   = max(c(v w) − D, 0) / c(v)  +  D · N1+(v •) / c(v) · p_cont(w)     if c(v) > 0
//   p(w | v)   = p_cont(w)                                                      if c(v) = 0
//   p_cont(w)  = (N1+(• w) + 1) / (N1+(• •) + V)
//   D          = n_1 / (n_1 + 2 n_2), 0 < D ≤ 1     (Ney, Essen & Kneser 1994: the leave-one-out
//                                                    estimate's bound, as quoted by Chen & Goodman)
//
// p_cont is the continuation probability N1+(• w) / N1+(• •) made positive on all of V by adding one
// to every continuation count; equivalently it is the linear interpolation
//   p_cont(w) = (1 − λ) · N1+(• w) / N1+(• •) + λ · 1 / V,   λ = V / (N1+(• •) + V),
// so Σ_w p_cont(w) = 1 and p_cont(w) ≥ 1 / (N1+(• •) + V) > 0. Since every seen bigram has
// c(v w) ≥ 1 ≥ D, the discounted mass D · N1+(v •) is exactly what the first term removes, so
// Σ_w p(w | v) = 1 for every context, <s> included, and p(w | v) > 0 for every w of V.
class KneserNeyBigram {
 public:
  // Throws as UnigramModel's constructor, and std::invalid_argument if no bigram (<s> w included)
  // occurs exactly once (n_1 = 0, e.g. a corpus repeated twice): D would be 0 and unseen bigrams of
  // seen contexts would get probability 0.
  KneserNeyBigram(const std::vector<std::vector<std::int32_t>>& sentences, std::size_t vocab_size);

  // ln p(word | previous) (nats, ≤ 0); previous = −1 (kSentenceStart) is the context <s>. Throws
  // std::out_of_range naming `word` if it is outside [0, V), `previous` if it is outside [−1, V).
  double log_prob(std::int32_t previous, std::int32_t word) const;

  double discount() const { return discount_; }  // D
  std::size_t vocab_size() const { return continuation_.size(); }

  static constexpr std::int32_t kSentenceStart = -1;

 private:
  std::size_t context_index(std::int32_t previous) const;  // previous in [0, V) or V for <s>

  double discount_ = 0;
  // Bigram counts keyed by v · V + w (uint64), with v = V for <s>.
  std::unordered_map<std::uint64_t, std::uint64_t> bigram_counts_;
  std::vector<std::uint64_t> context_count_;  // (V + 1) c(v), index V for <s>
  std::vector<std::uint64_t> context_types_;  // (V + 1) N1+(v •)
  std::vector<double> continuation_;          // (V) p_cont(w)
};

// Perplexity over every token of every sentence: mean_log_prob = (1 / T) Σ ln p(token | history)
// (nats per token, ≤ 0), perplexity = exp(−mean_log_prob), tokens = T (empty sentences add nothing).
struct Perplexity {
  double mean_log_prob = 0;
  double perplexity = 0;
  std::size_t tokens = 0;
};

// Throw std::out_of_range naming sentences[i][j] if an id is outside [0, V), std::invalid_argument if
// the sentences hold no token.
Perplexity unigram_perplexity(const UnigramModel& model, const std::vector<std::vector<std::int32_t>>& sentences);
Perplexity bigram_perplexity(const KneserNeyBigram& model, const std::vector<std::vector<std::int32_t>>& sentences);

}  // namespace attn::train
