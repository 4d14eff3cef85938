#pragma once
// One head of scaled dot-product attention (Vaswani et al. 2017 eq. 1) on the fast kernels: keys and
// values packed, scores → softmax → weights · V in blocks of query rows, only over the keys a row can
// see. Used by MultiHeadLayer (every head of a layer) and by the JS attention() call's fast path.
// attention() (attention.hpp) is the reference it agrees with (tests, 1e-5).
//
// Dimensions: n queries, m keys and values, d_k query/key width, d_v value width.
#include <cstddef>
#include <vector>

namespace attn {

// Buffers reused across calls (no allocation once the largest shapes have been seen).
struct HeadWorkspace {
  std::vector<float> keys;    // K_hᵀ [d_k, m], as pack_panels() panels
  std::vector<float> values;  // V_h [m, d_v], as pack_panels() panels
  std::vector<float> scores;  // [n, m] scores, then weights
};

// What a head's masks leave each query: keys j < limit(i) = min(valid, causal ? i + 1 : m).
struct PrefixMask {
  bool causal = false;
  std::size_t valid;  // keys j ≥ valid are padding (valid ≤ m)
};

// output [n, d_v] (row stride ldo) = softmax(scale · Q Kᵀ, masked) · V for queries [n, d_k] (ldq),
// keys [m, d_k] (ldk), values [m, d_v] (ldv); masked weights are exactly 0, a row with no key is 0.
// weights, if not null, receives the weights [n, m] (row-major, stride m). scale > 0 (1/(√d_k·τ)).
// Returns false, with output unspecified, if a row's scores hold NaN (inputs that overflow float32).
bool attend_head(const float* queries, std::size_t ldq, const float* keys, std::size_t ldk, const float* values,
                 std::size_t ldv, std::size_t n, std::size_t m, std::size_t d_k, std::size_t d_v, float scale,
                 PrefixMask mask, float* output, std::size_t ldo, HeadWorkspace& workspace, float* weights = nullptr);

}  // namespace attn
