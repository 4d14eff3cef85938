#pragma once
// Alternatives to the sinusoidal encoding, each a different answer to "where is this token?":
// a learned absolute table, rotary embeddings (RoPE), and score biases (ALiBi, T5 relative buckets).
//
// Dimensions: seq_len tokens, d_model features, n_heads heads of d_k columns.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/core/multi_head.hpp"
#include "attn/core/names.hpp"

namespace attn {

enum class PositionalKind {
  none,        // no position information: attention is permutation-equivariant
  sinusoidal,  // P added to the input (Vaswani et al. 2017 §3.5)
  learned,     // a table added to the input; here seeded random, i.e. untrained
  rope,        // queries and keys rotated by their position (Su et al. 2021)
  alibi,       // −m_h·|i − j| added to the scores (Press et al. 2022)
  t5,          // a learned scalar per relative-position bucket added to the scores (Raffel et al. 2020)
};

// JS names of the positional encodings (core.limits.positionalEncodings), in enum order.
inline constexpr NamedValue<PositionalKind> kPositionalKindNames[] = {
    {"none", PositionalKind::none}, {"sinusoidal", PositionalKind::sinusoidal}, {"learned", PositionalKind::learned},
    {"rope", PositionalKind::rope}, {"alibi", PositionalKind::alibi},           {"t5", PositionalKind::t5}};

// How ALiBi's per-head slopes are chosen (Press et al. 2022). The two agree when n_heads is a power of 2.
enum class AlibiSlopes {
  paper,      // m_h = 2^(−8h/n) for h = 1 … n, every n: the paper's §3 rule ("the geometric sequence that starts
              // at 2^(−8/n) and uses that same value as its ratio")
  reference,  // the authors' released get_slopes(): for n not a power of 2, the 2^⌊log2 n⌋ power-of-2 slopes,
              // then every other slope of the 2·2^⌊log2 n⌋ sequence (as BLOOM, MPT and fairseq's ALiBi use)
};

// JS names of the ALiBi slope rules (core.limits.alibiSlopes), the default first.
inline constexpr NamedValue<AlibiSlopes> kAlibiSlopesNames[] = {{"paper", AlibiSlopes::paper},
                                                                {"reference", AlibiSlopes::reference}};

// Learned absolute table [seq_len, d_model], untrained: row i uniform in [−0.5, 0.5), from
// SplitMix64 seeded by (seed, i) so a row depends only on its position. Throws as sinusoidal_encoding.
xt::xtensor<float, 2> learned_encoding(std::size_t seq_len, std::size_t d_model, std::uint64_t seed);

// RoPE: row i of x [seq_len, d] with each pair (x[2j], x[2j+1]) rotated by the angle i·θ_j,
// θ_j = base^(−2j/d); an odd last column stays as it is. Then q_i·k_j depends on i − j only.
xt::xtensor<float, 2> apply_rope(const xt::xtensor<float, 2>& x, double base = 10000.0);

// ALiBi slopes [n_heads], head h = 1 … n_heads at index h − 1. paper: m_h = 2^(−8h/n). reference, with
// c = 2^⌊log2 n⌋: m_h = 2^(−8h/c) for h ≤ c, then m_{c+k+1} = 2^(−4(2k+1)/c) for k = 0 … n − c − 1
// (e.g. n = 5: 1/4, 1/16, 1/64, 1/256, 1/2). Throws std::out_of_range for n_heads = 0.
xt::xtensor<float, 1> alibi_slopes(std::size_t n_heads, AlibiSlopes rule = AlibiSlopes::paper);

// ALiBi bias [seq_len, seq_len]: bias[i, j] = −slope·|i − j|.
xt::xtensor<float, 2> alibi_bias(std::size_t seq_len, float slope);

// T5's bidirectional bucket of a relative position (key − query): half the buckets for keys after
// the query; within each half, exact offsets below num_buckets/4, then logarithmic up to
// max_distance, beyond which everything shares the last bucket. Throws std::out_of_range unless
// num_buckets ≥ 4 is even and max_distance > num_buckets/4.
int t5_bucket(long relative_position, int num_buckets = 32, int max_distance = 128);

// T5 bias [seq_len, seq_len]: bias[i, j] = values[t5_bucket(j − i)]; values [num_buckets].
xt::xtensor<float, 2> t5_bias(std::size_t seq_len, const xt::xtensor<float, 1>& values);

// Per-head bucket values, untrained: uniform in [−1, 1) from SplitMix64 seeded by (seed, head). [32]
xt::xtensor<float, 1> t5_bucket_values(std::size_t head, std::uint64_t seed);

// The per-head part of `kind`: RoPE rotates the queries and keys of the heads marked `rotate`; ALiBi
// (slopes by `alibi`) and T5 return one score bias [seq_len, seq_len] per head (empty for the other kinds).
std::vector<xt::xtensor<float, 2>> apply_relative_position(PositionalKind kind, std::vector<HeadInputs>& heads,
                                                           const std::vector<bool>& rotate, std::uint64_t seed,
                                                           double base = 10000.0,
                                                           AlibiSlopes alibi = AlibiSlopes::paper);

// Multi-head self-attention (multi_head.hpp) with the position information of `kind`: the sinusoidal
// (base) or learned (seed) table added to input [seq_len, d_model], RoPE (base) on every head's
// queries and keys, or ALiBi (alibi slopes) / T5 (seed) biases on every head's scores. Throws as
// multi_head_attention and the functions above.
MultiHeadResult multi_head_attention(const xt::xtensor<float, 2>& input, std::size_t n_heads,
                                     const Projections& projections, const AttentionOptions& options,
                                     PositionalKind kind, std::uint64_t seed = 0, double base = 10000.0,
                                     AlibiSlopes alibi = AlibiSlopes::paper);

}  // namespace attn
