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

// Throws std::out_of_range naming `what` if `cells` (computed in 64 bits, so it cannot wrap on a
// 32-bit size_t) exceeds kMaxCells.
inline void check_cells(std::uint64_t cells, const std::string& what) {
  if (cells > kMaxCells) {
    throw std::out_of_range(what + " would hold " + std::to_string(cells) + " numbers, above the limit of " +
                            std::to_string(kMaxCells) + " (64 MB): use fewer tokens or heads");
  }
}

}  // namespace attn
