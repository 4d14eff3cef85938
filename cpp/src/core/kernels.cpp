#include "attn/core/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attn {

#ifdef __wasm_simd128__
// The constants of exp4, read from memory once per row. Why not literals: V8 rebuilds a v128
// literal inside the loop on every use, and these 12 cost more than the arithmetic (softmax measured
// 2.1 → 1.5 ns per score in Chromium 156). Not const, and visible outside this file, so the compiler
// cannot turn the loads back into literals.
float exp_constants_data[] = {-87.0f,
                              1.44269504088896341f,
                              12582912.0f /* 1.5 · 2^23 */,
                              -0.693359375f,
                              2.12194440e-4f /* −ln 2 in two parts */,
                              1.9875691500e-4f,
                              1.3981999507e-3f,
                              8.3334519073e-3f,
                              4.1665795894e-2f,
                              1.6666665459e-1f,
                              5.0000001201e-1f,
                              1.0f};
#endif

namespace {

// The micro-kernel's register tile: kRows rows of C by kCols = 8 columns (two 4-lane vectors).
#if defined(__wasm_simd128__) && !defined(__wasm_relaxed_simd__)
// WebAssembly SIMD128: 4 rows. V8 on x86-64 keeps xmm15 as its scratch register, leaving 15, and clang
// emits a step's row broadcasts before its arithmetic, so a 6-row tile needs 12 accumulators + 2 B
// vectors + 6 broadcasts + 1 product and V8 spilled 4 accumulators to the stack in every step (its
// --print-wasm-code); 4 rows need 8 + 2 + 4 + 1 = 15. Measured in Node 20 (Zen 4, medians of 9):
// 252×512 · 512×1536 26 → 49 GFLOP/s, 36×64 · 64×512 31 → 53 (2 × 16 and 3 × 12 tiles: no better).
constexpr std::size_t kRows = 4;
#else
constexpr std::size_t kRows = 6;  // 12 accumulators + 3 operands fit the 16 SIMD registers of x86-64
                                  // and ARM64 without spilling (and fused multiply-adds need no product)
#endif
constexpr std::size_t kCols = kPanelColumns;

#ifdef __wasm_simd128__

// acc + a·b. With relaxed SIMD (-mrelaxed-simd: the attn_core.relaxed.wasm build) one fused multiply-add
// where the CPU has one (x86 FMA3, ARM64), twice the arithmetic per instruction; else a multiply and an add.
v128_t madd(v128_t a, v128_t b, v128_t acc) {
#if defined(__wasm_relaxed_simd__) && __has_builtin(__builtin_wasm_relaxed_madd_f32x4)
  return __builtin_wasm_relaxed_madd_f32x4(a, b, acc);  // f32x4.relaxed_madd: a·b + c (LLVM ≥ 16)
#elif defined(__wasm_relaxed_simd__)
  // LLVM 14–15 name it fma and emit the proposal's early opcode, renumbered after the link to the
  // standard relaxed_madd (scripts/renumber-relaxed-simd.mjs): operands are in relaxed_madd's order.
  return __builtin_wasm_fma_f32x4(a, b, acc);
#else
  return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b));
#endif
}

// C[0..R, 0..8) (+)= A[0..R, :] · B[:, 0..8), R ≤ kRows rows held in registers.
template <std::size_t R>
void micro_kernel(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                  std::size_t k, bool accumulate) {
  v128_t acc[R][2];
  for (std::size_t r = 0; r < R; ++r) {
    acc[r][0] = accumulate ? wasm_v128_load(c + r * ldc) : wasm_f32x4_splat(0.0f);
    acc[r][1] = accumulate ? wasm_v128_load(c + r * ldc + 4) : wasm_f32x4_splat(0.0f);
  }
  for (std::size_t p = 0; p < k; ++p) {
    const v128_t b0 = wasm_v128_load(b + p * ldb), b1 = wasm_v128_load(b + p * ldb + 4);
    for (std::size_t r = 0; r < R; ++r) {
      const v128_t ar = wasm_v128_load32_splat(a + r * lda + p);
      acc[r][0] = madd(ar, b0, acc[r][0]);
      acc[r][1] = madd(ar, b1, acc[r][1]);
    }
  }
  for (std::size_t r = 0; r < R; ++r) {
    wasm_v128_store(c + r * ldc, acc[r][0]);
    wasm_v128_store(c + r * ldc + 4, acc[r][1]);
  }
}

struct ExpConstants {
  v128_t lowest, log2e, round, neg_ln2_hi, neg_ln2_lo, p0, p1, p2, p3, p4, p5, one;
};

ExpConstants exp_constants() {
  const float* c = exp_constants_data;
  return {wasm_v128_load32_splat(c),     wasm_v128_load32_splat(c + 1),  wasm_v128_load32_splat(c + 2),
          wasm_v128_load32_splat(c + 3), wasm_v128_load32_splat(c + 4),  wasm_v128_load32_splat(c + 5),
          wasm_v128_load32_splat(c + 6), wasm_v128_load32_splat(c + 7),  wasm_v128_load32_splat(c + 8),
          wasm_v128_load32_splat(c + 9), wasm_v128_load32_splat(c + 10), wasm_v128_load32_splat(c + 11)};
}

// e^x for 4 lanes (Cephes expf: x = n·ln2 + r, |r| ≤ ln2/2, degree-5 polynomial, × 2^n through the
// exponent bits). Relative error ≈ 2e-7 for x in [−87, 88]; inputs are ≤ 0 here (max subtracted), not NaN.
// Below −87 the result is 0, as float32's e^x leaves the normal range there (denormals are slow on x86).
// Rounding uses the 1.5·2²³ trick (the sum's low mantissa bits hold n), one add where nearest and
// trunc_sat cost several instructions each on x86.
v128_t exp4(v128_t x, const ExpConstants& c) {
  const v128_t in_range = wasm_f32x4_ge(x, c.lowest);
  x = wasm_f32x4_pmax(c.lowest, x);
  const v128_t t = madd(x, c.log2e, c.round);
  const v128_t n = wasm_f32x4_sub(t, c.round);
  // r = x − n·ln2, in two parts: n·ln2_hi is exact (ln2_hi has 9 significant bits), so the first madd
  // rounds once whether it is fused or not
  const v128_t r = madd(n, c.neg_ln2_lo, madd(n, c.neg_ln2_hi, x));
  v128_t p = madd(c.p0, r, c.p1);
  p = madd(p, r, c.p2);
  p = madd(p, r, c.p3);
  p = madd(p, r, c.p4);
  p = madd(p, r, c.p5);
  p = madd(wasm_f32x4_mul(p, r), r, wasm_f32x4_add(r, c.one));
  // t's bits are those of 1.5·2²³ plus n: n + 127 is the biased exponent of 2^n
  const v128_t scale = wasm_i32x4_shl(wasm_i32x4_add(t, wasm_i32x4_splat(127 - 0x4B400000)), 23);
  return wasm_v128_and(wasm_f32x4_mul(p, scale), in_range);
}

#else

template <std::size_t R>
void micro_kernel(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                  std::size_t k, bool accumulate) {
  float acc[R][kCols];
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t j = 0; j < kCols; ++j) acc[r][j] = accumulate ? c[r * ldc + j] : 0.0f;
  for (std::size_t p = 0; p < k; ++p) {
    const float* brow = b + p * ldb;
    for (std::size_t r = 0; r < R; ++r) {
      const float ar = a[r * lda + p];
      for (std::size_t j = 0; j < kCols; ++j) acc[r][j] += ar * brow[j];
    }
  }
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t j = 0; j < kCols; ++j) c[r * ldc + j] = acc[r][j];
}

#endif

// Rows of the register tile that starts with `left` rows to go: kRows, except where that would leave a
// 1- or 2-row tile, which loads B for too little arithmetic: 6-row tiles split 7 or 8 rows 4 + 3 or
// 4 + 4 (8 tokens: not 6 + 2), 4-row tiles split 5 or 6 rows 3 + 2 or 3 + 3.
std::size_t tile_rows(std::size_t left) {
  if (left > kRows && left <= kRows + 2) return (left + 1) / 2;
  return std::min(kRows, left);
}

// One cache block: C[:, 0..m) (+)= A[:, 0..k) · B[0..k, 0..m).
void gemm_block(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                std::size_t n, std::size_t k, std::size_t m, bool accumulate) {
  const std::size_t m_main = m - m % kCols;
  for (std::size_t i = 0, rows = 0; i < n; i += rows) {
    rows = tile_rows(n - i);
    for (std::size_t j = 0; j < m_main; j += kCols) {
      const float* ai = a + i * lda;
      float* cij = c + i * ldc + j;
      switch (rows) {  // the last rows of C use a shorter kernel, still vectorized (5 and 6: 6-row tiles only)
        case 6:
          micro_kernel<6>(ai, lda, b + j, ldb, cij, ldc, k, accumulate);
          break;
        case 5:
          micro_kernel<5>(ai, lda, b + j, ldb, cij, ldc, k, accumulate);
          break;
        case 4:
          micro_kernel<4>(ai, lda, b + j, ldb, cij, ldc, k, accumulate);
          break;
        case 3:
          micro_kernel<3>(ai, lda, b + j, ldb, cij, ldc, k, accumulate);
          break;
        case 2:
          micro_kernel<2>(ai, lda, b + j, ldb, cij, ldc, k, accumulate);
          break;
        default:
          micro_kernel<1>(ai, lda, b + j, ldb, cij, ldc, k, accumulate);
          break;
      }
    }
    if (m_main < m)
      gemm_rowwise(a + i * lda, lda, b + m_main, ldb, c + i * ldc + m_main, ldc, rows, k, m - m_main, accumulate);
  }
}

}  // namespace

void gemm(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc, std::size_t n,
          std::size_t k, std::size_t m, bool accumulate) {
  // Blocks of B (kBlockK × kBlockM floats, 128 KB) stay in cache while every row of A passes over them.
  constexpr std::size_t kBlockK = 128, kBlockM = 256;
  if (n == 0 || m == 0) return;  // nothing to write (and an empty matrix may have no storage at all)
  if (k == 0) {
    if (!accumulate)
      for (std::size_t i = 0; i < n; ++i) std::fill(c + i * ldc, c + i * ldc + m, 0.0f);
    return;
  }
  for (std::size_t kk = 0; kk < k; kk += kBlockK) {
    const std::size_t kc = std::min(kBlockK, k - kk);
    for (std::size_t jj = 0; jj < m; jj += kBlockM) {
      gemm_block(a + kk, lda, b + kk * ldb + jj, ldb, c + jj, ldc, n, kc, std::min(kBlockM, m - jj),
                 accumulate || kk > 0);
    }
  }
}

void gemm_packed(const float* a, std::size_t lda, const float* packed, float* c, std::size_t ldc, std::size_t n,
                 std::size_t k, std::size_t m, std::size_t panel_k, bool accumulate_c) {
  if (n == 0 || m == 0) return;
  if (panel_k == 0) panel_k = k;
  // A block of kBlockRows × kBlockK (192 KB) stays in L2 while every 8-column panel (kBlockK × 8,
  // 16 KB, in L1) passes over it. kBlockK 256 → 512 (d_model 512 in one pass, not two: C is not
  // reloaded and stored again) measured 2–4 % faster at 256 and 512 tokens × 512 in Node 20 (SIMD128)
  // and 3–4 % in Chromium 156 (relaxed SIMD); kBlockRows 48 and 96 measured alike.
  constexpr std::size_t kBlockK = 512, kBlockRows = 96;
  const std::size_t panels = (m + kCols - 1) / kCols;
  float tail[kRows * kCols];  // the last, partial panel is computed here and copied out
  for (std::size_t kk = 0; kk < std::max<std::size_t>(k, 1); kk += kBlockK) {
    const std::size_t kc = std::min(kBlockK, k - std::min(k, kk));
    const bool accumulate = accumulate_c || kk > 0;
    for (std::size_t ii = 0; ii < n; ii += kBlockRows)
      for (std::size_t q = 0; q < panels; ++q) {
        const float* panel = packed + (q * panel_k + kk) * kCols;
        const std::size_t cols = std::min(kCols, m - q * kCols);
        const std::size_t end = std::min(n, ii + kBlockRows);
        for (std::size_t i = ii, rows = 0; i < end; i += rows) {
          rows = tile_rows(end - i);
          float* out = cols == kCols ? c + i * ldc + q * kCols : tail;
          const std::size_t ldo = cols == kCols ? ldc : kCols;
          if (cols != kCols && accumulate) {
            for (std::size_t r = 0; r < rows; ++r) std::copy_n(c + (i + r) * ldc + q * kCols, cols, tail + r * kCols);
          }
          // A switch in each caller, not a shared dispatch function: clang then inlines the kernels here,
          // where B's row stride is the constant 8 (a shared, non-inlined dispatch measured 13–22 % slower
          // for the relaxed build in Node 20).
          const float* ai = a + i * lda + kk;
          switch (rows) {
            case 6:
              micro_kernel<6>(ai, lda, panel, kCols, out, ldo, kc, accumulate);
              break;
            case 5:
              micro_kernel<5>(ai, lda, panel, kCols, out, ldo, kc, accumulate);
              break;
            case 4:
              micro_kernel<4>(ai, lda, panel, kCols, out, ldo, kc, accumulate);
              break;
            case 3:
              micro_kernel<3>(ai, lda, panel, kCols, out, ldo, kc, accumulate);
              break;
            case 2:
              micro_kernel<2>(ai, lda, panel, kCols, out, ldo, kc, accumulate);
              break;
            default:
              micro_kernel<1>(ai, lda, panel, kCols, out, ldo, kc, accumulate);
              break;
          }
          if (cols != kCols) {
            for (std::size_t r = 0; r < rows; ++r) std::copy_n(tail + r * kCols, cols, c + (i + r) * ldc + q * kCols);
          }
        }
      }
  }
}

namespace {

// max of row[0 … limit), NaN if any cell is NaN.
float row_max(const float* row, std::size_t limit) {
  std::size_t j = 0;
  float max = -std::numeric_limits<float>::infinity();
  bool nan = false;
#ifdef __wasm_simd128__
  // pmax is one instruction (maxps); NaN is tracked apart, since pmax may drop it
  v128_t vmax = wasm_f32x4_splat(max), vnan = wasm_i32x4_splat(0);
  for (; j + 4 <= limit; j += 4) {
    const v128_t x = wasm_v128_load(row + j);
    vmax = wasm_f32x4_pmax(vmax, x);
    vnan = wasm_v128_or(vnan, wasm_f32x4_ne(x, x));
  }
  nan = wasm_v128_any_true(vnan);
  max = std::max(std::max(wasm_f32x4_extract_lane(vmax, 0), wasm_f32x4_extract_lane(vmax, 1)),
                 std::max(wasm_f32x4_extract_lane(vmax, 2), wasm_f32x4_extract_lane(vmax, 3)));
#endif
  for (; j < limit; ++j) {
    nan |= std::isnan(row[j]);
    max = std::max(max, row[j]);
  }
  return nan ? std::numeric_limits<float>::quiet_NaN() : max;
}

// row[j] = e^((row[j] − max) · scale) for j < limit; returns their sum. The exponent is ≤ 0: scaling
// after the subtraction cannot overflow.
float exp_shifted(float* row, std::size_t limit, float max, float scale) {
  float sum = 0.0f;
  std::size_t j = 0;
#ifdef __wasm_simd128__
  const ExpConstants constants = exp_constants();
  const v128_t vmax = wasm_f32x4_splat(max), vscale = wasm_f32x4_splat(scale);
  v128_t vsum = wasm_f32x4_splat(0.0f);
  for (; j + 4 <= limit; j += 4) {
    const v128_t e = exp4(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(row + j), vmax), vscale), constants);
    wasm_v128_store(row + j, e);
    vsum = wasm_f32x4_add(vsum, e);
  }
  if (j < limit) {  // the last 1–3 cells, through the same exp4 (padding lanes are discarded)
    float tail[4] = {max, max, max, max};
    std::copy(row + j, row + limit, tail);
    wasm_v128_store(tail, exp4(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(tail), vmax), vscale), constants));
    for (std::size_t r = 0; j < limit; ++j, ++r) {
      row[j] = tail[r];
      sum += tail[r];
    }
  }
  sum += wasm_f32x4_extract_lane(vsum, 0) + wasm_f32x4_extract_lane(vsum, 1) + wasm_f32x4_extract_lane(vsum, 2) +
         wasm_f32x4_extract_lane(vsum, 3);
#endif
  for (; j < limit; ++j) {
    row[j] = std::exp((row[j] - max) * scale);
    sum += row[j];
  }
  return sum;
}

}  // namespace

bool softmax_prefix(float* row, std::size_t limit, std::size_t length, float scale) {
  std::fill(row + limit, row + length, 0.0f);
  if (limit == 0) return true;
  const float max = row_max(row, limit);
  if (std::isnan(max)) return false;
  if (max == -std::numeric_limits<float>::infinity()) {  // every score −∞: nothing to attend to, as for masked rows
    std::fill(row, row + limit, 0.0f);
    return true;
  }
  if (max == std::numeric_limits<float>::infinity()) {  // scores that overflowed to +∞: softmax's limit, equal shares
    const auto winners = static_cast<float>(std::count(row, row + limit, max));
    for (std::size_t j = 0; j < limit; ++j) row[j] = row[j] == max ? 1.0f / winners : 0.0f;
    return true;
  }
  const float inv = 1.0f / exp_shifted(row, limit, max, scale);  // the sum is ≥ 1: the maximum contributes e^0
  std::transform(row, row + limit, row, [inv](float e) { return e * inv; });
  return true;
}

}  // namespace attn
