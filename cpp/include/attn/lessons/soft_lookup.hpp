#pragma once
// Attention as a soft key–value lookup (d2l.ai §11.1 "Queries, Keys, and Values"; Bahdanau, Cho &
// Bengio 2015 §3.1; Graves, Wayne & Danihelka 2014, "Neural Turing Machines", §3.3.1 content
// addressing). A table maps keys to values, D = {(k_1, v_1), …, (k_m, v_m)}. An exact lookup (a
// database, a dictionary) returns the value whose key equals the query q:
//
//   lookup(q) = Σ_j δ(q, k_j) v_j          δ = the Kronecker delta: 1 if q = k_j, else 0
//
// Attention replaces δ by weights that every key receives according to its similarity to the query:
//
//   attention(q) = Σ_j α_j v_j,   α = normalize(sim(q, k_·) / τ)   (softmax by default)
//
// so a query that matches no key still returns a weighted mix of values, and a small temperature τ
// brings the exact lookup back (α → δ when exactly one key is the most similar).
//
// Dimensions: m rows (1 … kMaxLookupRows), distinct = the number of distinct values (≤ m).
//
// Strings are UTF-8. Before anything is compared, each is put in its lookup form: white space trimmed
// at both ends, then ASCII and Latin-1 capitals lower-cased and curly quotes made ASCII (the
// tokenizer's rule, tokenizer.hpp lookup_code_points). Lengths are counted in code points.
#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/core/normalizers.hpp"
#include "attn/text/embeddings.hpp"

namespace attn {

constexpr std::size_t kMaxLookupRows = 32;      // rows of the table
constexpr std::size_t kMaxLookupText = 64;      // code points per key, value or query (before trimming)
constexpr double kMinLookupTemperature = 1e-4;  // τ range: similarities lie in [−1, 1], so the scores
constexpr double kMaxLookupTemperature = 1e4;   // sim / τ stay within ±10⁴ and τ = 10⁴ is already uniform

// How the similarity of the query to each key is measured. Both are cosine similarities in [−1, 1]
// (0 when either feature vector is zero).
enum class LookupSimilarity {
  // Character bigrams: the count vector of the adjacent code-point pairs of "^" + s + "$" (s in lookup
  // form; ^ and $ are boundary marks distinct from every character, so "^l" means "starts with l"):
  // "luke" → {^l, lu, uk, ke, e$}. Spelling similarity: "luke" and "puke" share {uk, ke, e$},
  // cosine 3/5. (Character n-gram profiles: Cavnar & Trenkle 1994; the boundary marks as in fastText,
  // Bojanowski et al. 2017 §3.2.)
  letters,
  // Word vectors: the mean of the word vectors of the string's tokens (the shipped GloVe-derived
  // table, embeddings.hpp; a word out of the vocabulary gets its deterministic hashed vector and is
  // flagged in SoftLookupResult::key_oov / query_oov), post-processed by all-but-the-top
  // (EmbeddingTable::post_processed, Mu & Viswanath 2018) so that frequent words are not similar to
  // everything. Meaning similarity rather than spelling.
  word_vectors,
};

// JS names of the similarities (core.limits.lookupSimilarities), the default first.
inline constexpr NamedValue<LookupSimilarity> kLookupSimilarityNames[] = {
    {"letters", LookupSimilarity::letters}, {"wordVectors", LookupSimilarity::word_vectors}};

struct SoftLookupOptions {
  LookupSimilarity similarity = LookupSimilarity::letters;
  double temperature = 1.0;                     // τ, unitless; kMinLookupTemperature … kMaxLookupTemperature
  Normalizer normalizer = Normalizer::softmax;  // how scores become weights (normalizers.hpp)
};

struct SoftLookupResult {
  xt::xtensor<float, 1> similarities;  // sim(q, k_j), cosine in [−1, 1]                     [m]
  xt::xtensor<float, 1> scores;        // sim(q, k_j) / τ (computed in double, then rounded)  [m]
  xt::xtensor<float, 1> weights;       // α = normalize(scores): ≥ 0, sums to 1               [m]
  xt::xtensor<float, 1> exact;         // δ(q, k_j): 1 where the key's lookup form equals the query's [m]
  // The distinct values, trimmed, in order of first appearance. Values compare as typed (case counts:
  // a value is what the lookup returns, not something matched against the query).      [distinct]
  std::vector<std::string> values;
  std::vector<std::size_t> value_index;  // row j's value is values[value_index[j]]          [m]
  // The returned value Σ_j α_j v_j, each value v_j written as the one-hot vector of its entry in
  // `values` (values are words, not numbers: the only mix of words is a distribution over them). So
  // mixture[v] = Σ_{j : v_j = v} α_j, the total weight of the rows holding value v; it sums to 1.
  xt::xtensor<float, 1> mixture;  // [distinct]
  // The exact lookup's result on the same scale: Σ_j δ_j v_j / Σ_j δ_j (duplicated keys share the
  // match equally, as hardmax ties do); all zeros when no key equals the query (a dictionary's KeyError).
  xt::xtensor<float, 1> exact_mixture;  // [distinct]
  // letters: the bigrams each key shares with the query, in the key's order, ^ and $ written as such
  // and a space as ␣; word_vectors: empty lists.                                            [m][…]
  std::vector<std::vector<std::string>> shared_bigrams;
  std::vector<bool> key_oov;  // word_vectors: some token of key j has no pretrained vector [m]
  bool query_oov = false;     // word_vectors: some token of the query has none
};

// The character-bigram count vector of `text` (see LookupSimilarity::letters): its bigrams as
// (first, second) code-point pairs of the trimmed lookup form padded with the boundary marks
// kBigramStart / kBigramEnd, with their counts, sorted by pair. An empty text has the one bigram
// (kBigramStart, kBigramEnd). Throws std::out_of_range above kMaxLookupText code points.
constexpr char32_t kBigramStart = 0x110000;  // "^": outside Unicode, so never a character of the text
constexpr char32_t kBigramEnd = 0x110001;    // "$"
struct BigramCount {
  char32_t first, second;
  int count;
};
std::vector<BigramCount> char_bigrams(const std::string& text);

// Cosine similarity of two bigram count vectors (each sorted as char_bigrams returns them), in double.
double bigram_cosine(const std::vector<BigramCount>& a, const std::vector<BigramCount>& b);

// The soft lookup of `query` in the table keys → values (see the top of this file). `table` is
// needed only for LookupSimilarity::word_vectors (it may be null otherwise). An empty query is
// allowed: it matches no key exactly and its similarity to every key is 0 (letters: its only bigram
// "^$" belongs to no non-empty key; word vectors: it has no tokens), so softmax spreads the weight
// uniformly.
// Throws std::invalid_argument if keys and values differ in length, the table is empty, a key or a
// value is empty after trimming, or word_vectors is asked for without a table; std::out_of_range for
// more than kMaxLookupRows rows, a key, value or query longer than kMaxLookupText code points, or a
// temperature that is not a finite number from kMinLookupTemperature to kMaxLookupTemperature.
// Every message names the argument and the allowed range.
SoftLookupResult soft_lookup(const std::string& query, const std::vector<std::string>& keys,
                             const std::vector<std::string>& values, const SoftLookupOptions& options,
                             const EmbeddingTable* table = nullptr);

}  // namespace attn
