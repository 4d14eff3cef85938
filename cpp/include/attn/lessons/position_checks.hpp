#pragma once
// What position information does to one traced sentence (Vaswani et al. 2017 §3.5; d2l.ai §11.6):
// the scores split into content and position terms, the same word at two positions, a shuffled
// sentence un-shuffled, and the sizes of the word vectors and the encodings that are added.
//
// Dimensions: seq_len tokens, d_model features, n_heads heads of d_k = d_model / n_heads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/core/multi_head.hpp"

namespace attn {

// With the input X + P, Q Kᵀ = (X + P)W_Q ((X + P)W_K)ᵀ splits into four products per head:
// content–content XW_Q(XW_K)ᵀ, content–position XW_Q(PW_K)ᵀ, position–content PW_Q(XW_K)ᵀ and
// position–position PW_Q(PW_K)ᵀ, each [seq_len, seq_len] and multiplied by the head's score factor
// (1/√d_k ÷ τ), so that they sum to the head's scores before masking and biases.
struct ScoreTerms {
  xt::xtensor<float, 2> content_content, content_position, position_content, position_position;
};

// x, p [seq_len, d_model]; projections each [d_model, d_model]; one ScoreTerms per head.
// Throws as project_heads, and std::invalid_argument if x and p differ in shape.
std::vector<ScoreTerms> score_terms(const xt::xtensor<float, 2>& x, const xt::xtensor<float, 2>& p,
                                    const Projections& projections, std::size_t n_heads, float score_factor);

// max |difference| between two rows of a head's queries, keys and values.
struct RowDifference {
  float queries = 0.0f, keys = 0.0f, values = 0.0f;
};

// A word that occurs twice (first two occurrences of a key) and how far apart its two positions'
// queries, keys and values are: max |difference| over every head's [d_qk] or [d_k] row, and per head.
// Heads whose queries or keys are built from positions (designed_heads.hpp: reads_positions) differ by
// construction, so a check of the word vectors alone reads the other heads.
struct RepeatedWord {
  std::string key;
  std::size_t first, second;
  float queries, keys, values;
  std::vector<RowDifference> heads;  // [n_heads]
};

// keys [seq_len] lookup keys (a masked token must have a key no word has); heads as attended.
std::vector<RepeatedWord> repeated_words(const std::vector<std::string>& keys, const MultiHeadResult& attention);

// A permutation of 0 … n−1 from SplitMix64 (Fisher–Yates), never the identity for n ≥ 2.
// order[k] = the original position of the token placed at position k.
std::vector<std::size_t> shuffled_order(std::size_t n, std::uint64_t seed);

// The shuffled sentence's attention un-shuffled and compared with the original: without position
// information self-attention is permutation-equivariant, W'[k, l] = W[order[k], order[l]] and
// O'[k] = O[order[k]], so both differences are 0.
struct ShuffleCheck {
  std::vector<std::size_t> order;      // [seq_len]
  xt::xtensor<float, 3> weights;       // the shuffled sentence's weights, in its own order [n_heads, seq_len, seq_len]
  float max_weight_difference = 0.0f;  // max |W'[k, l] − W[order[k], order[l]]| over heads
  std::vector<float> head_weight_differences;  // the same per head [n_heads]
  float max_output_difference = 0.0f;          // max |O'[k] − O[order[k]]| (the multi-head output)
};

// Throws std::invalid_argument if the shapes disagree or order is not a permutation of seq_len.
ShuffleCheck compare_shuffled(const MultiHeadResult& original, const MultiHeadResult& shuffled,
                              std::vector<std::size_t> order);

// ‖row i‖₂ for every row of m [rows, cols] → [rows].
xt::xtensor<float, 1> row_norms(const xt::xtensor<float, 2>& m);

}  // namespace attn
