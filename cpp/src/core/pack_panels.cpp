// The panel layout of gemm_packed's B (kernels.hpp pack_panels): column panels of kPanelColumns, each
// k × kPanelColumns contiguous, so that the micro-kernel (kernels.cpp) reads B sequentially.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "attn/core/kernels.hpp"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attn {

namespace {

constexpr std::size_t kCols = kPanelColumns;

}  // namespace

std::size_t packed_size(std::size_t k, std::size_t m) { return (m + kCols - 1) / kCols * kCols * k; }

namespace {

// One full panel (8 columns): out[p·8 + j] = B[p, q + j], or Bᵀ's [q + j, p] when transposed.
void pack_full_panel(const float* b, std::size_t ldb, std::size_t k, float* out, bool transposed) {
#ifdef __wasm_simd128__
  if (!transposed) {
    for (std::size_t p = 0; p < k; ++p, out += kCols) {
      wasm_v128_store(out, wasm_v128_load(b + p * ldb));
      wasm_v128_store(out + 4, wasm_v128_load(b + p * ldb + 4));
    }
    return;
  }
  // Transposed: 4 × 4 blocks of Bᵀ turned in registers (the keys of Q Kᵀ, packed for every head and call).
  std::size_t p = 0;
  for (; p + 4 <= k; p += 4, out += 4 * kCols) {
    for (std::size_t half = 0; half < 2; ++half) {
      const float* rows = b + 4 * half * ldb + p;
      const v128_t r0 = wasm_v128_load(rows), r1 = wasm_v128_load(rows + ldb);
      const v128_t r2 = wasm_v128_load(rows + 2 * ldb), r3 = wasm_v128_load(rows + 3 * ldb);
      const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
      const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
      wasm_v128_store(out + 4 * half, wasm_i64x2_shuffle(t0, t1, 0, 2));
      wasm_v128_store(out + kCols + 4 * half, wasm_i64x2_shuffle(t0, t1, 1, 3));
      wasm_v128_store(out + 2 * kCols + 4 * half, wasm_i64x2_shuffle(t2, t3, 0, 2));
      wasm_v128_store(out + 3 * kCols + 4 * half, wasm_i64x2_shuffle(t2, t3, 1, 3));
    }
  }
  for (; p < k; ++p, out += kCols)
    for (std::size_t j = 0; j < kCols; ++j) out[j] = b[j * ldb + p];
#else
  for (std::size_t p = 0; p < k; ++p, out += kCols)
    for (std::size_t j = 0; j < kCols; ++j) out[j] = transposed ? b[j * ldb + p] : b[p * ldb + j];
#endif
}

}  // namespace

void pack_panels_into(const float* b, std::size_t ldb, std::size_t k, std::size_t m, float* out, bool transposed) {
  for (std::size_t q = 0; q < m; q += kCols, out += k * kCols) {
    const float* panel = transposed ? b + q * ldb : b + q;
    const std::size_t cols = std::min(kCols, m - q);
    if (cols == kCols) {
      pack_full_panel(panel, ldb, k, out, transposed);
      continue;
    }
    for (std::size_t p = 0; p < k; ++p) {  // the last panel, zero-padded
      float* row = out + p * kCols;
      for (std::size_t j = 0; j < cols; ++j) row[j] = transposed ? panel[j * ldb + p] : panel[p * ldb + j];
      std::fill(row + cols, row + kCols, 0.0f);
    }
  }
}

void pack_panel_rows(const float* rows, std::size_t ld, std::size_t first, std::size_t count, std::size_t k,
                     std::size_t m, float* packed, bool transposed) {
  for (std::size_t r = 0; r < count; ++r) {
    const float* row = rows + r * ld;
    if (transposed) {  // row r is column c of B: panel c / 8, lane c % 8 of each of its k rows
      const std::size_t c = first + r;
      float* lane = packed + c / kCols * k * kCols + c % kCols;
      for (std::size_t p = 0; p < k; ++p) lane[p * kCols] = row[p];
    } else {  // row p of B: 8 columns at a time into each panel's row p
      const std::size_t p = first + r;
      for (std::size_t q = 0; q < m; ++q) packed[q / kCols * k * kCols + p * kCols + q % kCols] = row[q];
    }
  }
}

void unpack_panel_column(const float* packed, std::size_t k, std::size_t j, float* out) {
  const float* lane = packed + j / kCols * k * kCols + j % kCols;
  for (std::size_t p = 0; p < k; ++p) out[p] = lane[p * kCols];
}

std::vector<float> pack_panels(const float* b, std::size_t ldb, std::size_t k, std::size_t m) {
  std::vector<float> packed(packed_size(k, m));
  pack_panels_into(b, ldb, k, m, packed.data());
  return packed;
}

}  // namespace attn
