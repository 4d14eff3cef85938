#pragma once
// Heads built by hand instead of learned: each sets its own queries and keys so that its attention
// pattern is known in advance, which lets a learner compare a head with its purpose. Values are the
// head's usual slice of X W_V.
//
// Dimensions: seq_len tokens; d_model word-vector width; d_k the head's value width.
#include <cstddef>
#include <string>

#include <xtensor/xtensor.hpp>

#include "attn/core/attention.hpp"
#include "attn/core/multi_head.hpp"
#include "attn/core/names.hpp"

namespace attn {

enum class HeadKind {
  projected,    // the usual X W_Q, X W_K slices (identity or random projections)
  semantic,     // q_i = k_i = word vector direction: words attend to similar *other* words
  offset,       // attends to position i + δ (previous token: δ = −1, next token: δ = +1)
  first_token,  // every query attends to position 0
  uniform,      // all weights equal (q = 0)
};

// JS names of the head kinds (core.limits.headKinds; trace.heads[h].kind), in enum order.
inline constexpr NamedValue<HeadKind> kHeadKindNames[] = {{"projected", HeadKind::projected},
                                                          {"semantic", HeadKind::semantic},
                                                          {"offset", HeadKind::offset},
                                                          {"first", HeadKind::first_token},
                                                          {"uniform", HeadKind::uniform}};

// Head-kind names that stand for an offset head with a fixed δ (core.limits.headKindAliases).
inline constexpr NamedValue<int> kHeadKindAliases[] = {{"previous", -1}, {"next", +1}};

// The explorer's designed heads, one name a head (kHeadKindNames or kHeadKindAliases): four a learner can name
// at first sight — similar words, the previous word, the next word, the first word (core.limits.designedHeads;
// explain's heads: 'designed').
inline constexpr const char* kDesignedHeads[] = {"semantic", "previous", "next", "first"};

// Largest |δ| of an offset head (designed_head throws beyond it).
constexpr int kMaxHeadOffset = 4096;

struct HeadSpec {
  HeadKind kind = HeadKind::projected;
  int offset = 0;  // δ for HeadKind::offset
};

// The head spec named `name` (kHeadKindNames, or an alias of kHeadKindAliases, which sets the offset
// and ignores `offset`); `offset` is kept for HeadKind::offset only. Throws std::out_of_range naming
// `argument` and every allowed name otherwise.
HeadSpec head_spec_from_name(const std::string& name, int offset, const std::string& argument);

// The semantic head's scores are kDesignedSharpness × cos(x_i, x_j): the most similar word wins the
// softmax clearly (e^10 ≈ 22,000 : 1 against an orthogonal word) while runners-up stay visible.
constexpr float kDesignedSharpness = 10.0f;
// Positional heads' scores are scaled so the intended key beats its nearest neighbours by this much
// (e^5 ≈ 150 : 1), whatever d_k and base: neighbouring encodings are very similar (cos ω_j ≈ 1 for
// all but the fastest frequencies), so a fixed factor would leave the pattern blurred.
constexpr double kPositionalMargin = 5.0;

// Queries and keys [seq_len, d_qk] of a designed head (kind ≠ projected):
//  - semantic:    q_i = k_i = c · x_i / ‖x_i‖ with d_qk = d_model, c² = kDesignedSharpness · √d_model,
//                 so the scaled score is 10 · cos(x_i, x_j); the options returned mask the diagonal.
//  - offset δ:    k_j = c · p_j, q_i = c · rotate_encoding(P, δ)_i = c · p_{i+δ}, where P is the
//                 sinusoidal encoding of width d_qk = d_k rounded up to even; the score c²·p_{i+δ}·p_j/√d_qk
//                 is largest at j = i + δ (p_a·p_b = Σ_j cos((a−b)ω_j) and cos < 1 for a ≠ b) and c is
//                 chosen so it beats j = i + δ ± 1 by kPositionalMargin.
//  - first_token: as offset, with q_i = c · p_0 for every i.
//  - uniform:     q_i = 0 and k_j = p_j: every score is 0, every weight 1/seq_len.
// word_vectors X [seq_len, d_model]: for the semantic head, vectors whose cosines mean something —
// explain() passes the all-but-the-top vectors (EmbeddingTable::post_processed), not the raw X, whose
// cosines favour frequent words; other kinds read only seq_len. Throws std::invalid_argument for HeadKind::projected,
// std::out_of_range for an offset |δ| > 4096 or d_k = 0.
HeadInputs designed_head(const HeadSpec& spec, const xt::xtensor<float, 2>& word_vectors,
                         const xt::xtensor<float, 2>& values, double base = 10000.0);

// Whether a head of this kind builds its queries or keys from the positions themselves (offset, first
// token, uniform), so it tells positions apart with no positional encoding in its input: a shortcut that a
// trained model has to learn from P. Projected and semantic heads read only the input rows.
bool positional_by_construction(HeadKind kind);

// The attention options a head of this kind needs on top of the shared ones (the semantic head
// masks each word's own position so it looks at the most similar *other* word; a word with no other
// key it may see, the first under a causal mask, attends to itself: AttentionOptions::mask_diagonal).
AttentionOptions head_options(const HeadSpec& spec, const AttentionOptions& shared);

}  // namespace attn
