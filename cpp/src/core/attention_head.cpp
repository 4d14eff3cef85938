#include "attn/core/attention_head.hpp"

#include <algorithm>

#include "attn/core/kernels.hpp"

namespace attn {

namespace {
// Query rows per block of scores → softmax → weights·V: a multiple of the register tile's rows (6, or 4
// in the SIMD128 build); smaller blocks skip more of a causal mask (A/B: 24, 36, 64, 128).
constexpr std::size_t kQueryBlock = 36;
}  // namespace

bool attend_head(const float* q, std::size_t ldq, const float* k, std::size_t ldk, const float* v, std::size_t ldv,
                 std::size_t n, std::size_t m, std::size_t dk, std::size_t dv, float scale, PrefixMask mask, float* out,
                 std::size_t ldo, HeadWorkspace& ws, float* weights) {
  ws.keys.resize(packed_size(dk, m));
  ws.values.resize(packed_size(m, dv));
  ws.scores.resize(n * m);
  pack_panels_into(k, ldk, dk, m, ws.keys.data(), true);  // K_hᵀ [dk, m]
  pack_panels_into(v, ldv, m, dv, ws.values.data());      // V_h [m, dv]
  const std::size_t valid = std::min(mask.valid, m);
  // Blocks of query rows: causal and padding masks keep a prefix of keys (j < min(i + 1, valid)),
  // so each block computes scores and weights·V only over the keys its rows can see.
  for (std::size_t i0 = 0; i0 < n; i0 += kQueryBlock) {
    const std::size_t i1 = std::min(n, i0 + kQueryBlock);
    const std::size_t keys = std::min(valid, mask.causal ? i1 : m);
    float* block = ws.scores.data() + i0 * m;
    gemm_packed(q + i0 * ldq, ldq, ws.keys.data(), block, m, i1 - i0, dk, keys);  // Q_h K_hᵀ
    for (std::size_t i = i0; i < i1; ++i) {
      const std::size_t limit = std::min(valid, mask.causal ? i + 1 : m);
      if (!softmax_prefix(ws.scores.data() + i * m, limit, m, scale)) return false;
    }
    gemm_packed(block, m, ws.values.data(), out + i0 * ldo, ldo, i1 - i0, keys, dv, m);  // head_h = A_h V_h
  }
  if (weights) std::copy(ws.scores.begin(), ws.scores.end(), weights);
  return true;
}

}  // namespace attn
