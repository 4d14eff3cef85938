#pragma once
// Size limits that keep every request within memory: a request that would need more is refused with
// std::out_of_range before anything is allocated (a wasm module has at most 2 GB).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace attn {

// The most float32 cells any one result tensor may hold: 2^24 = 16,777,216 cells (64 MB).
constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 24;

// Longest sequence (seq_len, positions) any function takes: sinusoidal_encoding, the lab's rotation
// check and binary positions, and the JS wrapper's checks of queries, keys and validLength.
constexpr std::size_t kMaxSeqLen = 65536;

// Widest d_model (word vectors, encodings, projections) any function takes; n_heads ≤ d_model, so it
// bounds n_heads too.
constexpr std::size_t kMaxDModel = 4096;

// Seeds are unsigned 32-bit integers everywhere (the bindings read them as uint32): 0 … 2³² − 1.
constexpr std::uint32_t kMaxSeed = 0xFFFFFFFFu;

// Throws std::out_of_range naming `what` if `cells` (computed in 64 bits, so it cannot wrap on a
// 32-bit size_t) exceeds kMaxCells.
inline void check_cells(std::uint64_t cells, const std::string& what) {
  if (cells > kMaxCells) {
    throw std::out_of_range(what + " would hold " + std::to_string(cells) + " numbers, above the limit of " +
                            std::to_string(kMaxCells) + " (64 MB): use fewer tokens or heads");
  }
}

}  // namespace attn
