#pragma once
// Cross-attention: the decoder block's two attention steps (Vaswani et al. 2017 §3.1 "Decoder" and
// §3.2.3; d2l.ai §11.7, the Transformer decoder; Bahdanau et al. 2014 for the encoder–decoder idea):
//
//   1. masked self-attention on the target: target token i attends to target tokens 0 … i (causal);
//   2. cross-attention (encoder–decoder attention): the target's queries attend to the source's keys
//      and values, so each target word gathers the source words it needs.
//
// Here one encoder block (explain's self-attention, residual, LayerNorm and feed-forward network)
// turns the source into the "memory"; the decoder's step 1 is followed by its residual and
// LayerNorm, whose output asks the step-2 queries:
//
//   memory  = EncoderBlock(X_s + P_s)                                   [s, d_model]
//   Y       = LayerNorm(X_t + P_t + MaskedMultiHead(X_t + P_t))         [t, d_model]
//   cross   = MultiHead(queries from Y, keys and values from memory)    weights [n_heads, t, s]
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/lessons/explain.hpp"

namespace attn {

struct CrossAttentionTrace {
  Trace source;                          // explain(source): the encoder's self-attention and block
  Trace target;                          // explain(target) with the causal mask: step 1
  xt::xtensor<float, 2> memory;          // [s, d_model]  source.block.output: what the target reads
  xt::xtensor<float, 2> queries_input;   // [t, d_model]  Y = LayerNorm(target.input + target.attention.output)
  MultiHeadResult cross;                 // step 2: scores, weights [n_heads, t, s]; output [t, d_model];
                                         // empty (no heads) when either sentence has no tokens
  std::vector<AdditiveScorer> additive;  // step 2's scorers when options.additive_hidden > 0
};

// Traces `source` and `target` with the same options, then attends the target to the source.
//   The source: as explain, bidirectional (options.attention.causal is ignored), with its encoder block;
//   options.masked_positions and the padding mask (valid_length) apply to the source, and the
//   cross-attention masks the same padding keys.
//   The target: always causal, no padding, no [MASK]; its head kinds are options.heads.
//   Step 2: n_heads projected heads (designed head kinds do not apply across sentences) with
//   options.attention's temperature, scale and normalizer, no position bias (RoPE, ALiBi and T5 relate
//   positions within one sentence); its own projections: identity, or random_projections(d_model, seed + 1),
//   and with options.additive_hidden > 0 additive scorers seeded ((seed + 1) << 16) + h.
// Out-of-vocabulary words (a translation's target words often are) get the table's hashed vectors and
// are flagged in the traces' tokens. Throws what explain throws.
CrossAttentionTrace explain_cross(const std::string& source, const std::string& target, const EmbeddingTable& table,
                                  const ExplainOptions& options);

}  // namespace attn
