#pragma once
// The inner loops of attention, written for speed: a register-blocked matrix product and a row
// softmax. With WebAssembly SIMD (-msimd128) they use wasm_simd128.h intrinsics, and with relaxed SIMD
// as well (-mrelaxed-simd) fused multiply-adds; elsewhere a portable path that compilers
// auto-vectorize. All agree with a float64 reference to 1e-5 (tests).
//
// Matrices are row-major float32 behind raw pointers with explicit row strides (ld*), so a head's
// column slice of a wider matrix is used in place, without copying.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace attn {

// C = A · B, or C += A · B when accumulate, one row and one column at a time in the order row, k, column.
// A [rows, k] (row stride lda), B [k, cols] (ldb), C [rows, cols] (ldc). The plain loop: gemm's edges that its
// micro-kernel does not cover (float), and the float64 products of the trainer's gradient checks (double).
template <typename Real>
void gemm_rowwise(const Real* a, std::size_t lda, const Real* b, std::size_t ldb, Real* c, std::size_t ldc,
                  std::size_t rows, std::size_t k, std::size_t cols, bool accumulate) {
  for (std::size_t r = 0; r < rows; ++r) {
    Real* crow = c + r * ldc;
    if (!accumulate) std::fill(crow, crow + cols, Real(0));
    for (std::size_t p = 0; p < k; ++p) {
      const Real ar = a[r * lda + p];
      const Real* brow = b + p * ldb;
      for (std::size_t j = 0; j < cols; ++j) crow[j] += ar * brow[j];
    }
  }
}

// C = A · B, or C += A · B when accumulate.  A [n, k] (row stride lda), B [k, m] (ldb), C [n, m] (ldc).
void gemm(const float* a, std::size_t lda, const float* b, std::size_t ldb, float* c, std::size_t ldc, std::size_t n,
          std::size_t k, std::size_t m, bool accumulate = false);

// The width of pack_panels' column panels: the micro-kernel's register tile is 8 columns (two 4-lane vectors).
inline constexpr std::size_t kPanelColumns = 8;

// B [k, m] (row stride ldb) rearranged for gemm_packed (pack_panels.cpp): column panels of 8, each k × 8 contiguous,
// the last panel zero-padded. For matrices used many times (fixed weights): pack once, multiply often.
std::vector<float> pack_panels(const float* b, std::size_t ldb, std::size_t k, std::size_t m);

// The same panels written to out (packed_size(k, m) floats), for workspaces reused across calls.
// transposed: B is given as Bᵀ [m, k] (row stride ldb), e.g. keys for Q Kᵀ, packed without a transposed copy.
std::size_t packed_size(std::size_t k, std::size_t m);
void pack_panels_into(const float* b, std::size_t ldb, std::size_t k, std::size_t m, float* out,
                      bool transposed = false);

// Rows [first, first + count) of B [k, m] written into B's panels `packed` (packed_size(k, m) floats, laid out as
// pack_panels_into lays them; the rest untouched), from `rows` (count rows of m floats, row stride ld): a matrix
// too large to hold twice (a model's weights as a file streams them in) is packed a block of rows at a time.
// transposed: the rows are Bᵀ's (count rows of k floats), i.e. columns first … first + count − 1 of B.
void pack_panel_rows(const float* rows, std::size_t ld, std::size_t first, std::size_t count, std::size_t k,
                     std::size_t m, float* packed, bool transposed = false);

// Column j of B [k, m] (k floats into out) read back from its panels (packed_size(k, m) floats): a row of Bᵀ, e.g. a
// token's row of an embedding matrix kept only as the packed output matrix it is tied to.
void unpack_panel_column(const float* packed, std::size_t k, std::size_t j, float* out);

// C = A · B, or C += A · B when accumulate, with B given by pack_panels(B) for B [panel_k, m]: A [n, k]
// (lda), C [n, m] (ldc), using the first k ≤ panel_k rows of B (panel_k = 0 means k). Reads B sequentially.
void gemm_packed(const float* a, std::size_t lda, const float* packed, float* c, std::size_t ldc, std::size_t n,
                 std::size_t k, std::size_t m, std::size_t panel_k = 0, bool accumulate = false);

// masked_softmax (attention.hpp) for one row whose visible keys are a prefix, vectorized for the fast
// paths: softmax of scale · row[0 … limit) in place (scale > 0, e.g. 1/√d_k), computed stably (max
// subtracted first); row[limit … length) is set to 0 (masked keys: causal and valid-length masks keep a
// prefix of each row). limit = 0, or a row all −∞, leaves an all-zero row, as masked_softmax's fully
// masked rows. Cells at +∞ share the weight equally. Returns false if the row holds NaN (the caller
// reports it). Tested against masked_softmax (tests/cpp/core/test_kernels.cpp).
bool softmax_prefix(float* row, std::size_t limit, std::size_t length, float scale = 1.0f);

}  // namespace attn
