// Types of core.limits (see index.d.ts, which re-exports them).
import type { AlibiSlopes, LookupSimilarity, Normalizer, PositionalEncoding, ScoreFunction } from './index.js';

/**
 * core.limits: every limit and name list the JS API checks against, read from the C++ core where each is
 * defined once (a constexpr, or the enum's name table — a constexpr array of { name, value } pairs next to
 * the enum) and exported by cpp/bindings/bindings.cpp (coreLimits). A value outside a range, or a name not
 * in a list, throws a RangeError naming the argument (and, for names, listing the allowed ones). Frozen.
 * Counts are plain numbers; "source" names the C++ constant.
 */
export interface CoreLimits {
  /** explain()/multiHeadAttention() positionalEncoding (PositionalKind, attn/core/positional_variants.hpp). */
  readonly positionalEncodings: readonly PositionalEncoding[];
  /** Designed head kinds as the core names them and trace.heads[h].kind reports them (attn/lessons/designed_heads.hpp). */
  readonly headKinds: readonly ('projected' | 'semantic' | 'offset' | 'first' | 'uniform')[];
  /** Head-kind aliases and the offset δ each stands for: { previous: -1, next: 1 } (kHeadKindAliases). */
  readonly headKindAliases: Readonly<Record<'previous' | 'next', number>>;
  /**
   * The explorer's designed heads, a head-kind name (or alias) each: ['semantic', 'previous', 'next', 'first']
   * (kDesignedHeads); explain(text, { heads: 'designed' }) runs them.
   */
  readonly designedHeads: readonly ('semantic' | 'previous' | 'next' | 'first')[];
  /** explain() projection (attn/lessons/explain.hpp, kProjectionNames). */
  readonly projections: readonly ('identity' | 'random')[];
  /** scoreFunction (attn/core/score_functions.hpp, kScoreFunctionNames); the default, 'scaledDot', first. */
  readonly scoreFunctions: readonly ScoreFunction[];
  /** normalizer / method (attn/core/normalizers.hpp, kNormalizerNames). */
  readonly normalizers: readonly Normalizer[];
  /** alibiSlopes (attn/core/positional_variants.hpp, kAlibiSlopesNames). */
  readonly alibiSlopes: readonly AlibiSlopes[];
  /** softLookup() similarity (attn/lessons/soft_lookup.hpp, kLookupSimilarityNames). */
  readonly lookupSimilarities: readonly LookupSimilarity[];
  /** 256 tokens: explain()'s maxTokens is 1 … this; longer text is cut (kMaxTokens). */
  readonly maxTokens: number;
  /** 65536: longest seq_len / number of positions / validLength any function takes (kMaxSeqLen, attn/core/limits.hpp). */
  readonly maxSeqLen: number;
  /** 4096: widest d_model (and dK); d_model ranges over 1 … this (kMaxDModel). */
  readonly maxDModel: number;
  /** 4096: most heads, numHeads 1 … this (= maxDModel; numHeads must also divide dModel). */
  readonly maxHeads: number;
  /** 2³² − 1: seeds are unsigned 32-bit integers, 0 … this (kMaxSeed). */
  readonly maxSeed: number;
  /** 2²⁴ = 16,777,216 float32 cells (64 MB): the most any one result tensor may hold (kMaxCells). */
  readonly maxCells: number;
  /** 1024: additiveHidden / scoreCost's hidden units, 1 … this (kMaxAdditiveHidden). */
  readonly maxAdditiveHidden: number;
  /** 4096: an offset head's |δ| (kMaxHeadOffset). */
  readonly maxHeadOffset: number;
  /** 100: embeddingScale in (0, this], positionalScale in [0, this] (kMaxInputScale). */
  readonly maxInputScale: number;
  /**
   * 0.05 … 5: the temperature τ range the explorer offers (slider, attribute). Not enforced by the core:
   * attention(), normalize() and explain() take any finite τ > 0 (kMin/kMaxExplorerTemperature).
   */
  readonly minExplorerTemperature: number;
  readonly maxExplorerTemperature: number;
  /** 2048: positionalEncodingLab() positions, 1 … this (kMaxLabPositions, attn/lessons/positional_lab.hpp). */
  readonly maxLabPositions: number;
  /** 1024: positionalEncodingLab() dModel, even, 2 … this (kMaxLabDModel). */
  readonly maxLabDModel: number;
  /** 4096: positionalEncodingLab() errorPositions, 1 … this (kMaxLabErrorPositions). */
  readonly maxLabErrorPositions: number;
  /** 2²⁰: simplexObjective() point coordinates N·m (kMaxSimplexCoordinates). */
  readonly maxSimplexCoordinates: number;
  /** 32: softLookup() rows (kMaxLookupRows). */
  readonly maxLookupRows: number;
  /** 64: code points per softLookup() key, value or query (kMaxLookupText). */
  readonly maxLookupText: number;
  /** 0.0001 … 10000: softLookup() temperature (kMin/kMaxLookupTemperature). */
  readonly minLookupTemperature: number;
  readonly maxLookupTemperature: number;
  /** 10⁸: layerCosts() n and curveN values, 1 … this (kMaxCostTokens). */
  readonly maxCostTokens: number;
  /** 10⁵: layerCosts() dModel, 1 … this (kMaxCostWidth). */
  readonly maxCostWidth: number;
  /** 10⁴: layerCosts() kernelSize, 2 … this (kMaxCostKernel). */
  readonly maxCostKernel: number;
  /** 4096: layerCosts() curveN length (kMaxCostPoints). */
  readonly maxCostPoints: number;
}
