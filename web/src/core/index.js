// The JavaScript face of the C++ attention core (compiled to WebAssembly). Works unchanged in
// Node ≥ 20 and in browsers. Every tensor in and out is a plain { data: Float32Array, shape }, row-major:
// element [i, j] of a [rows, cols] tensor is data[i * cols + j]. Outputs are copies the caller owns;
// there is nothing to free. Invalid arguments throw TypeError (wrong type) or RangeError (value out
// of range, shape mismatch), with a message naming the argument and the allowed values.
import { pageUrl, readAsset } from './assets.js';
import { ATTENTION_OPTIONS, attentionOptions } from './attention-options.js';
import { explainOptions, positionalKind, withScoring } from './explain-options.js';
import * as check from './checks.js';
import { fastPaths } from './fast-paths.js';
import { languageModelApi } from './language-model.js';
import { languageTrainerApi } from './language-trainer.js';
import { analysisFunctions } from './analyses.js';
import { frozenLimits } from './limits.js';
import { trainerApi } from './trainer.js';
import { KERNELS, startModule, unwrap } from './wasm-module.js';

const DEFAULT_EMBEDDINGS_URL = new URL('../../assets/embeddings.bin', import.meta.url);

/**
 * Loads the wasm module and the word vectors.
 * @param {{ embeddingsUrl?: string | URL, embeddings?: Uint8Array, kernels?: 'auto' | 'relaxed-simd' | 'simd128',
 *   wasmUrl?: string | URL, relaxedWasmUrl?: string | URL, languageModelsUrl?: string | URL }} [options]
 *   embeddingsUrl: where to fetch the embedding asset (default: web/assets/embeddings.bin beside this
 *   package; file: URLs are read from disk in Node); embeddings: the asset's bytes, to skip loading;
 *   kernels: which build of the core to run (wasm-module.js): 'auto' (default) the relaxed-SIMD one where
 *   the engine runs it, else 'simd128'; wasmUrl / relaxedWasmUrl: where attn_core.wasm /
 *   attn_core.relaxed.wasm are hosted (default: beside attn_core.mjs), for assets hosted elsewhere (a
 *   wasmUrl alone: auto uses it everywhere); languageModelsUrl: the folder holding causal.safetensors and
 *   masked.safetensors, where core.languageModel(kind) loads them from (default: beside this package's core).
 * @returns {Promise<AttentionCore>} rejects with an Error naming the file and the reason (HTTP status,
 *   wrong magic, unsupported version, truncated, checksum mismatch; the .wasm that failed to load; kernels
 *   'relaxed-simd' on an engine without relaxed SIMD).
 */
export async function createAttentionCore(options = {}) {
  check.knownOptions(options, 'createAttentionCore', [
    'embeddingsUrl',
    'embeddings',
    'kernels',
    'wasmUrl',
    'relaxedWasmUrl',
    'languageModelsUrl',
  ]);
  const { kernels = 'auto', wasmUrl, relaxedWasmUrl } = options;
  const url = options.embeddingsUrl ?? DEFAULT_EMBEDDINGS_URL;
  const module = startModule({
    kernels: check.oneOf(kernels, 'createAttentionCore', 'kernels', KERNELS),
    wasmUrl,
    relaxedWasmUrl,
  });
  const [started, bytes] = await Promise.all([module, options.embeddings ?? readAsset(url, 'embeddings asset')]);
  const loaded = started.wasm.loadEmbeddings(bytes);
  if (loaded.error)
    throw new Error(`${options.embeddings ? 'embeddings bytes' : String(url)}: ${loaded.error.message}`);
  return makeCore(started, loaded.value, options.embeddings ? null : pageUrl(url), options.languageModelsUrl);
}

function makeCore({ wasm, kernels, url }, { vocabSize, dModel }, embeddingsUrl, languageModelsUrl) {
  const limits = frozenLimits(wasm);
  const fast = fastPaths(wasm, limits);
  const { makeModel, ...language } = languageModelApi(wasm, languageModelsUrl);
  const trainer = trainerApi(wasm, limits);
  return {
    /** Vocabulary size of the loaded word vectors (25,477 for the shipped asset). */
    vocabSize,
    /** Width of a word vector, d_model (100 for the shipped GloVe-derived vectors). */
    dModel,
    /** Longest token sequence explain() traces; longer text is cut (trace.truncated). Also core.limits.maxTokens. */
    maxTokens: limits.maxTokens,
    /**
     * Every limit and name list the functions check against, from the C++ core where each is defined once
     * (index.d.ts, CoreLimits, gives each entry's meaning, unit and source). Frozen.
     */
    limits,
    /** The build running: 'relaxed-simd' (fused multiply-add kernels) or 'simd128' (createAttentionCore's kernels). */
    kernels,
    /**
     * Where the running build's .wasm was loaded from (a data: URL where a bundle inlines it): another instance
     * of the same build starts from it, e.g. in a Web Worker — createAttentionCore({ kernels, wasmUrl }) for
     * 'simd128', or ({ kernels, relaxedWasmUrl }) for 'relaxed-simd'.
     */
    wasmUrl: url,
    /**
     * Where the word vectors were loaded from (an absolute URL, a data: URL where a bundle inlines them), or null when
     * they were given as bytes: another core with the same words starts from it (createAttentionCore({ embeddingsUrl })).
     */
    embeddingsUrl,

    /**
     * Words and punctuation of `text`, split as GloVe's training text was (PTB): "didn't" → "did" "n't",
     * "it's" → "it" "'s"; compounds the vocabulary has ("well-known") and numbers ("1,000") stay whole,
     * other compounds split at their hyphens (docs/conventions.md, "Tokens"). start/end are UTF-16 offsets:
     * text.slice(start, end) is the token. oov: the word has no pretrained vector (it gets a
     * deterministic hashed one).
     * @param {string} text @returns {{ text: string, start: number, end: number, oov: boolean }[]}
     */
    tokenize(text) {
      return unwrap(wasm.tokenize(check.text(text, 'tokenize')));
    },

    /** Word vectors X of the tokens of `text`: { data, shape: [seqLen, dModel] }. */
    embed(text) {
      return unwrap(wasm.embed(check.text(text, 'embed')));
    },

    /**
     * The all-but-the-top post-processing the semantic head and softLookup's 'wordVectors' similarity
     * use (Mu & Viswanath 2018, Algorithm 1): x̃ = (x − mean) − Σ_k (u_k · (x − mean)) u_k over the rows
     * u_k of directions. Fitted by the core when the asset loads, over the vocabulary with row r
     * weighted 1/(r + 1) (docs/conventions.md, "Word vectors"). spectrum: the share of the variance along each of
     * the top 8 directions.
     * @returns {{ mean: Float32Array, directions: { data: Float32Array, shape: [number, number] }, spectrum: Float32Array }}
     *   mean [dModel], directions [D, dModel] (D = 3 for the shipped asset), spectrum [8]
     */
    allButTheTop() {
      return unwrap(wasm.allButTheTop());
    },

    /**
     * Sinusoidal positional encoding P (Vaswani et al. 2017 §3.5): P[i, 2j] = sin(i / base^(2j/dModel)),
     * P[i, 2j+1] = cos(…), positions from 0; an odd dModel ends on a sine column.
     * @returns {{ data: Float32Array, shape: [seqLen, dModel] }}
     * @throws RangeError unless 0 ≤ seqLen ≤ 65536, 1 ≤ dModel ≤ 4096, seqLen · dModel ≤ 2²⁴ and base > 1.
     */
    sinusoidalEncoding(seqLen, dModel, options = {}) {
      const where = 'sinusoidalEncoding';
      check.knownOptions(options, where, ['base']);
      const { base = 10000 } = options;
      return unwrap(
        wasm.sinusoidalEncoding(
          check.integerIn(seqLen, where, 'seqLen', 0, limits.maxSeqLen),
          check.integerIn(dModel, where, 'dModel', 1, limits.maxDModel),
          check.finiteIn(base, where, 'base', { above: 1 }),
        ),
      );
    },

    /**
     * Scaled dot-product attention for one head (Vaswani et al. 2017 eq. 1):
     * scores = Q Kᵀ / (√d_k · temperature), masked cells −∞; weights = row softmax (rows sum to 1,
     * a row with every key masked is all 0); output = weights · V.
     * queries [n, d_k], keys [m, d_k], values [m, d_v] → dotProducts (QKᵀ), scores, weights [n, m], output [n, d_v].
     * causal hides keys j > i; validLength hides keys j ≥ validLength (padding); scale: false drops √d_k;
     * normalizer: 'softmax' (eq. 1, default), 'sparsemax', 'entmax15' or 'hardmax' (see normalize()).
     * With softmax, output comes from the packed kernels and dotProducts, scores and weights are getters
     * computed once when first read, from the arrays passed, which must be unchanged until then
     * (checked by a hash taken at the call: a read after they changed throws a RangeError).
     */
    attention({ queries, keys, values, ...options } = {}) {
      const where = 'attention';
      const { normalizer = 'softmax', ...rest } = options;
      check.knownOptions(rest, where, ATTENTION_OPTIONS);
      const args = {
        normalizer: check.oneOf(normalizer, where, 'normalizer', limits.normalizers),
        // values (finite) are checked by the fast path's core, or below before the reference runs
        queries: check.matrix(queries, where, 'queries', { values: false }),
        keys: check.matrix(keys, where, 'keys', { values: false }),
        values: check.matrix(values, where, 'values', { values: false }),
        ...attentionOptions(rest, where, limits),
      };
      return (
        (args.normalizer === 'softmax' && fast.attention(args)) ||
        unwrap(wasm.attention(check.finiteTensors(args, where, ['queries', 'keys', 'values'])))
      );
    },

    /**
     * Multi-head self-attention (Vaswani et al. 2017 §3.2.2): Q = input·wQ, K = input·wK, V = input·wV;
     * head h uses columns h·d_k … (h+1)·d_k − 1 with d_k = dModel / numHeads; output = concat(heads)·wO.
     * input [seqLen, dModel]; wQ, wK, wV, wO [dModel, dModel]. Options as attention(), and
     * positionalEncoding: 'none' (default: the input as given), 'sinusoidal' (P added, Vaswani §3.5),
     * 'learned' (seeded untrained table added), 'rope' (every head's queries and keys rotated; Su et al.
     * 2021), 'alibi' (−m_h·|i−j| on the scores; Press et al. 2022), 't5' (seeded bucket values on the
     * scores; Raffel et al. 2020); seed (0 … 2³²−1, for 'learned' and 't5'); base (10000, for
     * 'sinusoidal' and 'rope'); alibiSlopes (for 'alibi'): 'paper' (default, m_h = 2^(−8h/numHeads) for
     * every head count, the paper's §3) or 'reference' (the authors' released get_slopes(), which differs
     * when numHeads is not a power of 2; see docs/conventions.md).
     * Without position information (the default) output is computed on the fast path (multiHeadLayer's
     * packed kernels) and the rest of the result when first read: weights, scores, concat and heads are
     * getters that run the full trace once, with the weights as they were at the call (kept in wasm) on
     * the input array passed, which must be unchanged until then (checked: a read after it changed
     * throws a RangeError); they agree with output to float32 rounding (~1e-6). Weights equal to the
     * previous call's are not packed again.
     * @returns {{ weights, scores: [numHeads, seqLen, seqLen], concat, output: [seqLen, dModel],
     *   heads: { queries, keys, values, output: [seqLen, d_k], dotProducts (QKᵀ unscaled, unmasked),
     *   scores, weights: [seqLen, seqLen], entropy: [seqLen] (bits per query row) }[] }}
     * @throws RangeError if numHeads does not divide dModel or a weight is not [dModel, dModel], an input or
     *   weight is not finite, or alibiSlopes is not one of the names above.
     */
    multiHeadAttention({ input, numHeads, wQ, wK, wV, wO, ...options } = {}) {
      const where = 'multiHeadAttention';
      check.knownOptions(options, where, [...ATTENTION_OPTIONS, 'positionalEncoding', 'seed', 'base', 'alibiSlopes']);
      const { positionalEncoding = 'none', seed = 0, base = 10000, alibiSlopes = 'paper' } = options;
      const args = {
        // values (finite) are checked by the fast path's core, or below before the reference runs
        input: check.matrix(input, where, 'input', { values: false }),
        numHeads: check.integerIn(numHeads, where, 'numHeads', 1, limits.maxHeads),
        wQ: check.matrix(wQ, where, 'wQ', { values: false }),
        wK: check.matrix(wK, where, 'wK', { values: false }),
        wV: check.matrix(wV, where, 'wV', { values: false }),
        wO: check.matrix(wO, where, 'wO', { values: false }),
        positionalEncoding: positionalKind(positionalEncoding, where, limits),
        seed: check.integerIn(seed, where, 'seed', 0, limits.maxSeed),
        base: check.finiteIn(base, where, 'base', { above: 1 }),
        alibiSlopes: check.name(alibiSlopes, where, 'alibiSlopes'), // the core's table checks the name
        ...attentionOptions(options, where, limits),
      };
      if (args.positionalEncoding !== 'none') return unwrap(wasm.multiHeadAttention(args));
      return (
        (args.positionalEncoding === 'none' && fast.multiHeadAttention(args)) ||
        unwrap(wasm.multiHeadAttention(check.finiteTensors(args, where, ['input', 'wQ', 'wK', 'wV', 'wO'])))
      );
    },

    /** Multi-head self-attention with fixed weights, the fast path: see layer.js. */
    multiHeadLayer: fast.multiHeadLayer,

    /**
     * Layer normalization (Ba et al. 2016) of each row, γ = 1, β = 0:
     * y[i, :] = (x[i, :] − mean_i) / √(var_i + epsilon). x [rows, d] → [rows, d].
     * @throws RangeError unless epsilon is finite and > 0, or on non-finite x.
     */
    layerNorm(x, options = {}) {
      const where = 'layerNorm';
      check.knownOptions(options, where, ['epsilon']);
      const { epsilon = 1e-5 } = options;
      return unwrap(
        wasm.layerNorm({
          x: check.matrix(x, where, 'x'),
          epsilon: check.finiteIn(epsilon, where, 'epsilon', { above: 0 }),
        }),
      );
    },

    /**
     * Principal component analysis (Pearson 1901; Jolliffe 2002 §1): the top k unit directions of the rows'
     * covariance, largest variance first, each signed so its largest-magnitude entry is positive, in double
     * precision in the core (cpp/include/attn/core/pca.hpp). rows [n, d] (n ≥ 1) →
     * mean [d], components [k, d], variance [k] (÷ n), coordinates [n, k] = (row − mean) · componentsᵀ.
     * @param {{ data: Float32Array, shape: [number, number] }} rows  @param {{ k?: number }} [options]  k: 1 … d (default 2)
     * @throws TypeError if rows is not a matrix; RangeError for NaN/∞, no rows, k outside 1 … d, or d > 1024.
     */
    pca(rows, options = {}) {
      const where = 'pca';
      check.knownOptions(options, where, ['k']);
      const { k = 2 } = options;
      check.matrix(rows, where, 'rows');
      if (rows.shape[0] < 1) throw new RangeError(`${where}: rows must hold at least one row`);
      return unwrap(wasm.pca({ rows, k: check.integerIn(k, where, 'k', 1, rows.shape[1]) }));
    },

    /**
     * Attention weights from scores, row by row: p = argmax over the probability simplex of
     * ⟨p, s/temperature⟩ − Ω(p) (Blondel, Martins & Niculae 2020). method:
     *   'softmax'   Ω = negative Shannon entropy: p_j = exp(z_j) / Σ_k exp(z_k), z = s / temperature;
     *   'sparsemax' Ω = ½‖p‖²: p_j = max(z_j − τ, 0) (Martins & Astudillo 2016, Algorithm 1);
     *   'entmax15'  Ω = Tsallis 1.5-entropy: p_j = max(z_j/2 − τ, 0)² (Peters, Niculae & Martins
     *               2019, Algorithm 2);
     *   'hardmax'   Ω = 0: one-hot at the row maximum; ties share the weight equally;
     * τ is the threshold that makes the row sum to 1. sparsemax and entmax15 give exact zeros.
     * scores [rows, cols], row-major (cell [i, j] is data[i * cols + j]); −Infinity marks a masked cell:
     * it gets weight exactly 0 and takes no part; a row with every cell masked comes back all 0.
     * @param {{ data: Float32Array, shape: [number, number] }} scores
     * @param {{ method?: 'softmax' | 'sparsemax' | 'entmax15' | 'hardmax', temperature?: number }} [options]
     *   method (default 'softmax'); temperature > 0 (default 1): scores are divided by it first.
     * @returns {{ data: Float32Array, shape: [rows, cols] }} weights ≥ 0, each row summing to 1 (or all 0).
     * @throws TypeError if scores is not { data: Float32Array, shape }; RangeError for a shape that does
     *   not match the data, NaN or +Infinity in scores, an unknown method, or temperature not finite and > 0.
     */
    normalize(scores, options = {}) {
      const where = 'normalize';
      check.knownOptions(options, where, ['method', 'temperature']);
      const { method = 'softmax', temperature = 1 } = options;
      return unwrap(
        wasm.normalize({
          scores: check.matrix(scores, where, 'scores', { allowMasked: true }),
          method: check.oneOf(method, where, 'method', limits.normalizers),
          temperature: check.finiteIn(temperature, where, 'temperature', { above: 0 }),
        }),
      );
    },

    /**
     * One explorer update, every step returned by one wasm call: tokens → X (word vectors; [MASK]ed
     * positions get the fixed mean vector) → X + P → per-head queries, keys, values → scores → weights →
     * head outputs → concat · W_O → residual + LayerNorm → feed-forward (ReLU, d_ff = 4·dModel) →
     * residual + LayerNorm, and a 2-D PCA of X and the attention output.
     * Options: numHeads (divisor of dModel, default 1); projection 'identity' | 'random' (default
     * 'identity'); seed (0 … 2³²−1: random projections and feed-forward weights); heads: per head
     * 'projected' | 'semantic' | 'previous' | 'next' | 'first' | 'uniform' | { kind: 'offset', offset: δ }
     * (missing: projected); positionalEncoding: 'sinusoidal' (default, P added; Vaswani §3.5), 'none',
     * 'learned' (seeded, untrained table added), 'rope' (projected heads' queries and keys rotated; Su et al.
     * 2021), 'alibi' (−m_h·|i−j| added to scores, m_h = 2^(−8h/numHeads); Press et al. 2022), 't5'
     * (seeded value per relative-position bucket added to scores; Raffel et al. 2020), or true / false for
     * 'sinusoidal' / 'none'; base (10000); maskedPositions (token
     * indices); causal; validLength (clamped to the sentence); temperature; scale (divide by √d_k,
     * default true); scoreFunction: 'scaledDot' (default; Vaswani eq. 1), 'dot' (Q Kᵀ, the same as scale:
     * false) or 'additive' (vᵀ tanh(W_q q + W_k k), Bahdanau et al. 2014, with additiveHidden hidden units,
     * 1 … 1024, default 16; seeded per head; designed heads keep their dot products), and the trace's
     * heads' dotProducts then hold the additive scores; maxTokens (1 … core.maxTokens); encoderBlock, project2d (default true);
     * embeddingScale (0 < s ≤ 100, default 1; √dModel = 10 is the paper's §3.4 scaling) multiplies the word
     * vectors and positionalScale (0 … 100, default 1) the encoding before they are added;
     * positionChecks (default false) adds trace.positionChecks, with shuffleSeed (0 … 2³²−1) choosing
     * the shuffled order.
     * @returns trace: { tokens: [{ text, start, end, id, oov, masked }], totalTokens, truncated, validLength,
     *   embeddings, positional, input: [seqLen, dModel], heads: [{ kind, offset, masksOwnPosition (the
     *   semantic head: a query left with only its own key attends to itself), queries, keys: [seqLen, d_qk],
     *   values, output: [seqLen, d_k], dotProducts, scores, weights: [seqLen, seqLen], entropy: [seqLen] }],
     *   scores, weights: [numHeads, seqLen, seqLen], concat, output: [seqLen, dModel],
     *   block: { residual1, norm1, ffnOutput, residual2, output: [seqLen, dModel], hidden: [seqLen, 4·dModel] } | null,
     *   projection: { mean: [dModel], components: [2, dModel], variance: [2],
     *     coordinates: [2·seqLen, 2] (rows of X, then of the attention output) } | null,
     *   positionChecks: { scoreTerms: per head { contentContent, contentPosition, positionContent,
     *       positionPosition: [seqLen, seqLen] } | null (they sum to the head's scores before masking and
     *       biases; [] unless P is added, null for designed heads),
     *     repeated: [{ key, first, second, maxDifference: { queries, keys, values } }] (the first two
     *       occurrences of a word; max |difference| of their rows over all heads),
     *     shuffle: { order: number[seqLen] (shuffled position k holds token order[k]), weights: [numHeads,
     *       seqLen, seqLen] (the shuffled sentence's, in its order), maxWeightDifference,
     *       maxOutputDifference (after un-shuffling: 0 up to float32 rounding without position information) },
     *     embeddingNorms, positionalNorms: [seqLen] (‖x_i‖, ‖p_i‖ as used) } | null,
     *   options: the options used }
     */
    explain(text, options = {}) {
      const normalized = explainOptions(options, 'explain', dModel, limits);
      const { scoring, ...trace } = unwrap(wasm.explain(check.text(text, 'explain'), normalized));
      return { ...trace, options: withScoring(normalized, scoring) };
    },

    /**
     * Two sentences explained with the same options and projected on shared PCA axes, to see one word
     * move toward two contexts. @returns {{ first: trace, second: trace, projection: { mean, components,
     * variance, coordinates: [2·n₁ + 2·n₂, 2] (X₁, output₁, X₂, output₂ rows) } | null }}
     */
    compareContexts(first, second, options = {}) {
      const normalized = explainOptions(options, 'compareContexts', dModel, limits);
      const result = unwrap(
        wasm.compareContexts(check.text(first, 'compareContexts'), check.text(second, 'compareContexts'), normalized),
      );
      const used = withScoring(normalized, result.scoring);
      return {
        first: { ...result.first, options: used },
        second: { ...result.second, options: used },
        projection: result.projection,
      };
    },

    /**
     * Cross-attention, the decoder block's two attention steps (Vaswani et al. 2017 §3.1, §3.2.3; d2l.ai
     * §11.7): the source goes through one encoder block (bidirectional self-attention, Add & Norm, FFN,
     * Add & Norm) whose output is the memory; the target through causal self-attention, then
     * Y = LayerNorm(X_t + P_t + self-attention output); then the target's queries (from Y) attend to the
     * source's keys and values (from the memory).
     * Options as explain(). causal is ignored (the source is bidirectional, the target always causal);
     * maskedPositions and validLength apply to the source (padding keys are masked in step 2 too);
     * heads (designed kinds) apply to the target's self-attention only; step 2 uses numHeads projected
     * heads with its own projections (identity, or random from seed + 1), the same temperature,
     * scoreFunction and normalizer, and no relative-position bias. Unknown words (a translation's, often)
     * get hashed vectors and tokens[i].oov = true.
     * @param {string} source @param {string} target @param {object} [options]
     * @returns {{ source: trace, target: trace (explain()'s, without positionChecks; the target's weights
     *   are causal), memory: [s, dModel], queriesInput: [t, dModel] | null (Y), cross: { heads: [{ queries:
     *   [t, d_k], keys, values: [s, d_k], output: [t, d_k], dotProducts, scores, weights: [t, s],
     *   entropy: [t] }], scores, weights: [numHeads, t, s], concat, output: [t, dModel] } | null (null
     *   when either sentence has no tokens), options }}
     * @throws RangeError / TypeError as explain().
     */
    explainCross(source, target, options = {}) {
      const where = 'explainCross';
      const normalized = explainOptions(options, where, dModel, limits);
      const { scoring, ...r } = unwrap(
        wasm.explainCross(check.text(source, where), check.text(target, where), normalized),
      );
      const used = withScoring(normalized, scoring);
      return { ...r, source: { ...r.source, options: used }, target: { ...r.target, options: used }, options: used };
    },

    // The analyses: positionalEncodingLab, simplexObjective, scoreCost, softLookup, layerCosts
    ...analysisFunctions(wasm, dModel, limits),

    // Training an attention-only transformer in the core: createTrainer(options) and trainerLimits (trainer.js)
    ...trainer,

    // The explorer's trained language models: languageModel(kind) and languageModelLimits (language-model.js),
    // and training one on given text: createLanguageTrainer(options) (language-trainer.js)
    ...language,
    ...languageTrainerApi(wasm, trainer.trainerLimits, language.languageModelLimits, limits.maxSeed, makeModel),

    /** Bytes currently allocated on the wasm heap: for leak checks (it must not grow over repeated calls). */
    heapInUse() {
      return wasm.heapInUse();
    },
  };
}
