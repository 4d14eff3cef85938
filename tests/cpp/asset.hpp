#pragma once
// The shipped embedding asset, read from the source tree (ATTN_ASSET_PATH, set by CMake).
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "attn/text/embeddings.hpp"

inline std::vector<std::uint8_t> asset_bytes() {
  std::ifstream in(ATTN_ASSET_PATH, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " ATTN_ASSET_PATH);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline const attn::EmbeddingTable& shipped_table() {
  static const attn::EmbeddingTable table = [] {
    const auto bytes = asset_bytes();
    return attn::EmbeddingTable::from_bytes(bytes.data(), bytes.size());
  }();
  return table;
}
