// Types of the core's lesson analyses (core/analyses.js: cross-attention, the positional-encoding lab, the soft lookup,
// what a layer costs), beside index.d.ts.
import type { Tensor, Matrix, MultiHeadResult, Trace } from './index.js';

export interface CrossAttentionTrace {
  /** The source through one encoder block (bidirectional). */
  source: Trace;
  /** The target's causal self-attention (step 1). */
  target: Trace;
  /** [s, dModel]: the source's encoder-block output, the keys' and values' input. */
  memory: Matrix;
  /** [t, dModel]: LayerNorm(target input + its self-attention output), the queries' input; null when a sentence is empty. */
  queriesInput: Matrix | null;
  /** Step 2: weights [numHeads, t, s]; null when either sentence has no tokens. */
  cross: MultiHeadResult | null;
  options: Trace['options'];
}

export interface RotationCheck {
  /** δ·ω_j (radians), cos, sin [dModel/2]. */
  angles: Tensor;
  cosines: Tensor;
  sines: Tensor;
  /** p_i, R(δ)·p_i, p_{i+δ} [dModel]. */
  from: Tensor;
  rotated: Tensor;
  target: Tensor;
  maxError: number;
}

export interface PositionalEncodingLab {
  /** P [positions, dModel]. */
  encoding: Matrix;
  /** 2π·base^(2j/dModel) per column, in positions. */
  wavelengths: number[];
  /** Bit b of position i, least significant first [positions, nBits]. */
  bits: Matrix;
  /** P Pᵀ and its cosine version [positions, positions]. */
  similarity: Matrix;
  cosineSimilarity: Matrix;
  rotation: { float64Angles: RotationCheck; float32Angles: RotationCheck };
  /** maxError at every start position [errorPositions]. */
  rotationErrorByPosition: { float64Angles: Tensor; float32Angles: Tensor };
}

/** How softLookup() measures the query's similarity to a key (both cosine, in [−1, 1]). */
export type LookupSimilarity = 'letters' | 'wordVectors';

/**
 * softLookup()'s result for m rows (d2l.ai §11.1): exact lookup Σ_j δ(q, k_j) v_j beside attention
 * Σ_j α_j v_j, α = normalizer(similarities / temperature).
 */
export interface SoftLookupResult {
  /** Cosine of the query's and each key's features [m]. */
  similarities: Float32Array;
  /** similarities / τ [m]. */
  scores: Float32Array;
  /** α ≥ 0, sums to 1 [m]. */
  weights: Float32Array;
  /** Kronecker delta δ(q, k_j): 1 where the trimmed, lower-cased key equals the query, else 0 [m]. */
  exact: Float32Array;
  /** The distinct values (trimmed), in order of first appearance [distinct]. */
  distinctValues: string[];
  /** Row j holds distinctValues[valueIndex[j]] [m]. */
  valueIndex: number[];
  /** The returned value as a distribution: the total weight of each distinct value; sums to 1 [distinct]. */
  mixture: Float32Array;
  /** The exact lookup's: Σ δ_j v_j / Σ δ_j, all 0 when no key equals the query [distinct]. */
  exactMixture: Float32Array;
  /** 'letters': the bigrams each key shares with the query (^ and $ mark the ends, ␣ a space) [m][…]. */
  sharedBigrams: string[][];
  /** 'wordVectors': a token of key j has no pretrained vector (it got a hashed one) [m]. */
  keyOov: boolean[];
  queryOov: boolean;
}

/** One layer kind's row of d2l.ai §11.6.2 / Vaswani et al. 2017 Table 1 (leading terms, no constants). */
export interface LayerCost {
  operations: number;
  sequentialOperations: number;
  maxPathLength: number;
}

export interface LayerCosts {
  /** k·n·d², 1, ⌈(n−1)/(k−1)⌉. */
  convolution: LayerCost;
  /** n·d², n, n − 1. */
  recurrent: LayerCost;
  /** n²·d, 1, 1 (0 path length for n = 1). */
  selfAttention: LayerCost;
  /** Self-attention is cheaper while n < d (recurrence) and n < k·d (convolution). */
  crossings: { selfAttentionRecurrent: number; selfAttentionConvolution: number };
  /** Operations at each requested n [curveN.length]. */
  curves: { n: Float64Array; convolution: Float64Array; recurrent: Float64Array; selfAttention: Float64Array };
}
