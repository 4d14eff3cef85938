// The core's analyses beside the attention itself: the positional-encoding lab, the normalizers'
// objective on the simplex, the cost of score functions, attention as a soft lookup, and what a layer
// costs. Spread into the core object by index.js; same conventions (checks here, errors
// as TypeError / RangeError naming the argument).
// Every limit and name list comes from the core (core.limits, limits.js).
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/** The analyses of a core running on `wasm` with word vectors of width dModel; limits: core.limits. */
export function analysisFunctions(wasm, dModel, limits) {
  return {
    /**
     * The sinusoidal encoding examined (Vaswani et al. 2017 §3.5; d2l.ai §11.6.3), independent of the
     * word vectors. Options: positions (1 … 2048), dModel (even, 2 … 1024, default 100), base (> 1,
     * default 10000), and a pair of positions for the rotation: position (default 0) and delta (default 1),
     * both position and position + delta in 0 … positions − 1; errorPositions (1 … 4096, default 1024).
     * @returns {{ encoding: [positions, dModel] (P), wavelengths: number[dModel] (2π·base^(2j/dModel), in
     *   positions), bits: [positions, nBits] (bit b of i, least significant first, 0 or 1),
     *   similarity: [positions, positions] (P Pᵀ), cosineSimilarity: [positions, positions],
     *   rotation: { float64Angles, float32Angles: { angles, cosines, sines: [dModel/2] (δ·ω_j in radians,
     *     its cosine and sine: R(δω_j) = [[cos, sin], [−sin, cos]]), from (p_i),
     *     rotated (R(δ)p_i in float32), target (p_{i+δ}): [dModel], maxError } },
     *   rotationErrorByPosition: { float64Angles, float32Angles: [errorPositions] } }}
     *   float64Angles: angles i·ω formed in double as the core does; float32Angles: formed in float32, as a
     *   float32 framework computing position · div_term does, whose error grows with the position.
     * @throws RangeError for values outside those ranges.
     */
    positionalEncodingLab(options = {}) {
      const where = 'positionalEncodingLab';
      check.knownOptions(options, where, ['positions', 'dModel', 'base', 'position', 'delta', 'errorPositions']);
      const { positions, dModel: width = 100, base = 10000, position = 0, delta = 1, errorPositions = 1024 } = options;
      const n = check.integerIn(positions, where, 'positions', 1, limits.maxLabPositions);
      const d = check.integerIn(width, where, 'dModel', 2, limits.maxLabDModel);
      if (d % 2 !== 0)
        throw new RangeError(`${where}: dModel must be even (each frequency is a sine–cosine pair), got ${d}`);
      const i = check.integerIn(position, where, 'position', 0, n - 1);
      return unwrap(
        wasm.positionalEncodingLab({
          positions: n,
          dModel: d,
          position: i,
          base: check.finiteIn(base, where, 'base', { above: 1 }),
          delta: check.integerIn(delta, where, 'delta', -i, n - 1 - i),
          errorPositions: check.integerIn(errorPositions, where, 'errorPositions', 1, limits.maxLabErrorPositions),
        }),
      );
    },

    /**
     * The objective each normalizer maximizes over the probability simplex (Blondel, Martins & Niculae
     * 2020, §2): f(p) = ⟨p, scores⟩ / temperature − Ω(p), with Ω(p) = Σ p ln p (softmax), ½(‖p‖² − 1)
     * (sparsemax), (Σ p^1.5 − 1) / 0.75 (entmax15) or 0 (hardmax); normalize() returns its maximizer.
     * @param {{ data: Float32Array, shape: [number, number] }} points  [N, m] weight vectors on the
     *   simplex (each ≥ 0, summing to 1 within 1e-4); N·m ≤ 2²⁰
     * @param {number[]} scores  m finite scores
     * @param {{ method?: 'softmax' | 'sparsemax' | 'entmax15' | 'hardmax', temperature?: number }} [options]
     * @returns {{ data: Float32Array, shape: [N] }} f at each point (unitless; nats for softmax's Ω)
     * @throws RangeError for a point off the simplex, scores of another length or not finite, an unknown
     *   method or a temperature not finite and > 0.
     */
    simplexObjective(points, scores, options = {}) {
      const where = 'simplexObjective';
      check.knownOptions(options, where, ['method', 'temperature']);
      const { method = 'softmax', temperature = 1 } = options;
      check.matrix(points, where, 'points');
      if (points.data.length > limits.maxSimplexCoordinates)
        throw new RangeError(`${where}: at most ${limits.maxSimplexCoordinates} point coordinates`);
      if (!Array.isArray(scores) || scores.some((s) => typeof s !== 'number' || !Number.isFinite(s))) {
        throw new RangeError(`${where}: scores must be an array of finite numbers`);
      }
      return unwrap(
        wasm.simplexObjective({
          points,
          scores,
          method: check.oneOf(method, where, 'method', limits.normalizers),
          temperature: check.finiteIn(temperature, where, 'temperature', { above: 0 }),
        }),
      );
    },

    /**
     * Operations to compute an [n, m] score matrix for queries and keys of width dK (d2l.ai §11.3):
     * 'dot' n·m·dK multiply-adds; 'scaledDot' the same + n·m divisions by √d_k; 'additive'
     * (n + m)·dK·hidden multiply-adds for W_q q and W_k k, then per pair hidden additions, tanh and
     * multiply-adds with v (Bahdanau et al. 2014).
     * @param {{ scoreFunction: 'scaledDot' | 'dot' | 'additive', queries: number, keys: number, dK: number,
     *   hidden?: number }} args  counts ≥ 0 (queries, keys ≤ 65536; dK ≤ 4096; hidden 1 … 1024, default 16)
     * @returns {{ multiplyAdds: number, additions: number, divisions: number, tanh: number, total: number }}
     * @throws RangeError for an unknown score function or counts out of range.
     */
    scoreCost({ scoreFunction, queries, keys, dK, hidden = 16 } = {}) {
      const where = 'scoreCost';
      return unwrap(
        wasm.scoreCost({
          scoreFunction: check.oneOf(scoreFunction, where, 'scoreFunction', limits.scoreFunctions),
          queries: check.integerIn(queries, where, 'queries', 0, limits.maxSeqLen),
          keys: check.integerIn(keys, where, 'keys', 0, limits.maxSeqLen),
          dK: check.integerIn(dK, where, 'dK', 0, limits.maxDModel),
          hidden: check.integerIn(hidden, where, 'hidden', 1, limits.maxAdditiveHidden),
        }),
      );
    },

    /**
     * Attention as a soft key–value lookup (d2l.ai §11.1; Graves et al. 2014 §3.3.1, content addressing).
     * An exact lookup returns Σ_j δ(q, k_j) v_j (δ: the Kronecker delta); attention returns Σ_j α_j v_j with
     * α = normalizer(sim(q, k_j) / temperature). sim is a cosine in [−1, 1]:
     *   'letters'      of character-bigram counts of "^" + text + "$" ("luke" → ^l lu uk ke e$; luke·puke = 3/5);
     *   'wordVectors'  of the mean word vector of the text's tokens (words without a vector get a hashed one: keyOov, queryOov).
     * Texts are compared trimmed and lower-cased (ASCII and Latin-1), as the vocabulary is keyed. Values are
     * words, so the returned value is a distribution over the distinct values: each v_j is one-hot, and
     * mixture[i] = Σ_{j : v_j = distinctValues[i]} α_j.
     * @param {string} query  0 … maxLookupText (64) characters; empty: no exact match, all similarities 0
     * @param {{ keys: string[], values: string[], temperature?: number,
     *   similarity?: 'letters' | 'wordVectors', normalizer?: 'softmax' | 'sparsemax' | 'entmax15' | 'hardmax' }} table
     *   keys and values: 1 … maxLookupRows (32) non-empty strings each, of equal length, each ≤ 64 characters;
     *   temperature τ from 0.0001 to 10000 (default 1); similarity (default 'letters'); normalizer (default 'softmax').
     * @returns {{ similarities, scores, weights, exact: Float32Array (m = keys.length; scores = similarities / τ;
     *   weights ≥ 0 sum to 1; exact = δ(q, k_j), 0 or 1), distinctValues: string[] (trimmed, in order of first
     *   appearance), valueIndex: number[m] (row j's value is distinctValues[valueIndex[j]]), mixture: Float32Array
     *   (per distinct value, sums to 1), exactMixture: Float32Array (the exact lookup's: Σ δ_j v_j / Σ δ_j, all 0
     *   when no key equals the query), sharedBigrams: string[][] (letters: the bigrams each key shares with the query,
     *   ^ and $ marking the ends, ␣ a space), keyOov: boolean[m], queryOov: boolean }}
     * @throws TypeError if query is not a string or keys/values are not arrays of strings; RangeError (naming the
     *   argument and the allowed range) for an empty or over-long table, keys and values of different lengths, an
     *   empty key or value, a text over 64 characters, or temperature out of range.
     */
    softLookup(query, table = {}) {
      const where = 'softLookup';
      check.knownOptions(table, where, ['keys', 'values', 'temperature', 'similarity', 'normalizer']);
      const { keys, values, temperature = 1, similarity = 'letters', normalizer = 'softmax' } = table;
      for (const [name, list] of [
        ['keys', keys],
        ['values', values],
      ]) {
        if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
          throw new TypeError(`${where}: ${name} must be an array of strings`);
        }
      }
      if (keys.length !== values.length) {
        throw new RangeError(
          `${where}: keys and values must have the same length, got ${keys.length} keys and ${values.length} values`,
        );
      }
      if (keys.length === 0) throw new RangeError(`${where}: the table is empty; give at least 1 key and its value`);
      if (keys.length > limits.maxLookupRows) {
        throw new RangeError(
          `${where}: the table has ${keys.length} rows; at most ${limits.maxLookupRows} are allowed`,
        );
      }
      return unwrap(
        wasm.softLookup({
          query: check.text(query, where),
          keys: keys.map((key) => check.text(key, where)),
          values: values.map((value) => check.text(value, where)),
          temperature: check.finiteIn(temperature, where, 'temperature', {
            min: limits.minLookupTemperature,
            max: limits.maxLookupTemperature,
          }),
          similarity: check.oneOf(similarity, where, 'similarity', limits.lookupSimilarities),
          normalizer: check.oneOf(normalizer, where, 'normalizer', limits.normalizers),
        }),
      );
    },

    /** Most rows softLookup() takes (32). */
    maxLookupRows: limits.maxLookupRows,

    /**
     * What one layer costs on n tokens of width dModel (d2l.ai §11.6.2 "Comparing CNNs, RNNs, and
     * Self-Attention"; Vaswani et al. 2017 Table 1), as leading multiply–add counts without constants:
     *   convolution (kernel k):  operations k·n·d², sequential operations 1, maximum path length ⌈(n−1)/(k−1)⌉
     *     (layers until the receptive field 1 + L(k−1) covers all n tokens; d2l's O(n/k));
     *   recurrent:               n·d², n, n − 1;
     *   self-attention:          n²·d, 1, 1.
     * A single token has path lengths 0. Self-attention is cheaper than recurrence while n < d and than
     * convolution while n < k·d (the crossings, where the counts are equal); convolution costs k times recurrence.
     * @param {{ n: number, dModel: number, kernelSize?: number, curveN?: number[] }} options
     *   n: whole number 1 … 10⁸; dModel: 1 … 10⁵; kernelSize: 2 … 10⁴ (default 3);
     *   curveN: up to 4096 values of n (each 1 … 10⁸) at which to evaluate the three operation counts (default []).
     * @returns {{ convolution, recurrent, selfAttention: { operations: number, sequentialOperations: number,
     *   maxPathLength: number }, crossings: { selfAttentionRecurrent: number (= d), selfAttentionConvolution: number
     *   (= k·d) }, curves: { n, convolution, recurrent, selfAttention: Float64Array[curveN.length] (operations) } }}
     * @throws TypeError for non-numbers or a curveN that is not an array; RangeError (naming the argument and its
     *   range) for values out of range or not whole.
     */
    layerCosts(options = {}) {
      const where = 'layerCosts';
      check.knownOptions(options, where, ['n', 'dModel', 'kernelSize', 'curveN']);
      const { n, dModel: width = dModel, kernelSize = 3, curveN = [] } = options;
      if (!Array.isArray(curveN)) throw new TypeError(`${where}: curveN must be an array of token counts`);
      if (curveN.length > limits.maxCostPoints)
        throw new RangeError(
          `${where}: curveN has ${curveN.length} values; at most ${limits.maxCostPoints} are allowed`,
        );
      return unwrap(
        wasm.layerCosts({
          n: check.integerIn(n, where, 'n', 1, limits.maxCostTokens),
          dModel: check.integerIn(width, where, 'dModel', 1, limits.maxCostWidth),
          kernelSize: check.integerIn(kernelSize, where, 'kernelSize', 2, limits.maxCostKernel),
          curveN: curveN.map((value, i) => check.integerIn(value, where, `curveN[${i}]`, 1, limits.maxCostTokens)),
        }),
      );
    },
  };
}
