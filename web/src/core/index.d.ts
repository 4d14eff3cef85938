// Hand-written types of the attention core's JS API (web/src/core/index.js). Shapes are given in
// the comments; every tensor is float32, row-major: element [i, j] of a [rows, cols] tensor is
// data[i * cols + j], and [h, i, j] of [heads, rows, cols] is data[(h * rows + i) * cols + j].
// Invalid arguments throw TypeError (wrong type) or RangeError (out of range, shape mismatch).

/** A tensor: `data.length` is the product of `shape`. */
export interface Tensor {
  data: Float32Array;
  shape: number[];
}

/** A [rows, cols] tensor. */
export interface Matrix extends Tensor {
  shape: [number, number];
}

export interface Token {
  text: string;
  /** UTF-16 offsets: text.slice(start, end) is the token. */
  start: number;
  end: number;
  /** Out of vocabulary: the word gets a deterministic hashed vector. */
  oov: boolean;
}

/** How attention learns where tokens are (docs/js-api.md, "Designed heads, positional encodings"). */
export type PositionalEncoding = 'none' | 'sinusoidal' | 'learned' | 'rope' | 'alibi' | 't5';

/**
 * ALiBi's per-head slopes (Press et al. 2022): 'paper' m_h = 2^(−8h/n) for heads h = 1 … n, every n (§3);
 * 'reference' the authors' released get_slopes(), which for n not a power of 2 takes the 2^⌊log2 n⌋
 * power-of-2 slopes, then every other slope of the next power of 2 (n = 5: 1/4, 1/16, 1/64, 1/256, 1/2).
 */
export type AlibiSlopes = 'paper' | 'reference';

/**
 * How a row of scores becomes attention weights (argmax over the simplex of ⟨p, s⟩ − Ω(p)): 'softmax'
 * (dense), 'sparsemax' (Martins & Astudillo 2016), 'entmax15' (α = 1.5, Peters et al. 2019), 'hardmax'
 * (one-hot; ties share equally).
 */
export type Normalizer = 'softmax' | 'sparsemax' | 'entmax15' | 'hardmax';

/** How a query and a key become a score (d2l.ai §11.3): Q Kᵀ, Q Kᵀ / √d_k (Vaswani eq. 1), or vᵀ tanh(W_q q + W_k k) (Bahdanau et al. 2014). */
export type ScoreFunction = 'scaledDot' | 'dot' | 'additive';

export interface AttentionOptions {
  /** Hide keys j > i (default false). */
  causal?: boolean;
  /** Hide keys j ≥ validLength (padding). */
  validLength?: number;
  /** Scores are divided by τ > 0 (default 1). */
  temperature?: number;
  /** Divide scores by √d_k (default true; Vaswani et al. 2017 eq. 1). */
  scale?: boolean;
}

/** One head's result: scores, weights [n, m]; output [n, d_v]. */
export interface AttentionResult {
  /** QKᵀ before scaling and masking [n, m] (the additive scores, with scoreFunction 'additive'). */
  dotProducts: Matrix;
  /** QKᵀ / (√d_k·τ), masked cells −Infinity [n, m]. */
  scores: Matrix;
  /** Row softmax of the scores; rows sum to 1 (or are 0 when every key is masked) [n, m]. */
  weights: Matrix;
  /** weights · V [n, d_v]. */
  output: Matrix;
}

export interface HeadResult extends AttentionResult {
  queries: Matrix;
  keys: Matrix;
  values: Matrix;
  /** Bits per query row [seqLen]. */
  entropy: Tensor;
}

export interface MultiHeadResult {
  /** [numHeads, seqLen, seqLen] */
  weights: Tensor;
  /** [numHeads, seqLen, seqLen], masked cells −Infinity */
  scores: Tensor;
  /** Head outputs side by side [seqLen, dModel]. */
  concat: Matrix;
  /** concat · W_O [seqLen, dModel]. */
  output: Matrix;
  heads: HeadResult[];
}

export interface MultiHeadWeights {
  numHeads: number;
  /** Each [dModel, dModel]; Q = input · wQ, head h uses columns h·d_k … (h+1)·d_k − 1. */
  wQ: Matrix;
  wK: Matrix;
  wV: Matrix;
  wO: Matrix;
}

export interface MultiHeadLayer {
  numHeads: number;
  dModel: number;
  /** input [seqLen, dModel] → output [seqLen, dModel], weights [numHeads, seqLen, seqLen] if asked for. */
  forward(
    input: Matrix,
    options?: AttentionOptions & { returnWeights?: boolean },
  ): { output: Matrix; weights?: Tensor };
}

export type HeadKind = 'projected' | 'semantic' | 'previous' | 'next' | 'first' | 'uniform' | 'offset';

export interface ExplainOptions extends AttentionOptions {
  /** How scores become weights (default 'softmax'); sparsemax / entmax15 give exact zeros. */
  normalizer?: Normalizer;
  /** Default 'scaledDot' ('dot' when scale is false); decides scale when given. Designed heads keep dot products. */
  scoreFunction?: ScoreFunction;
  /** Hidden units of the additive score, 1 … 1024 (default 16). */
  additiveHidden?: number;
  /** A divisor of dModel (default 1; 4 with heads 'designed'). */
  numHeads?: number;
  projection?: 'identity' | 'random';
  /** 0 … 2³²−1: random projections, feed-forward weights, learned table, T5 buckets. */
  seed?: number;
  /**
   * Per head; missing heads are 'projected'. 'designed': the explorer's four designed heads, core.limits.designedHeads
   * (semantic, previous, next, first), as the page shows them.
   */
  heads?: (HeadKind | { kind: 'offset'; offset: number })[] | 'designed';
  /** Default 'sinusoidal'; true / false stand for 'sinusoidal' / 'none'. */
  positionalEncoding?: PositionalEncoding | boolean;
  /** Sinusoid base (default 10000). */
  base?: number;
  /** ALiBi's slopes (positionalEncoding 'alibi'), default 'paper'. */
  alibiSlopes?: AlibiSlopes;
  /** Token positions replaced by [MASK] (the mean word vector). */
  maskedPositions?: number[];
  /** 1 … core.maxTokens. */
  maxTokens?: number;
  /** Trace the residual, LayerNorm and feed-forward steps (default true). */
  encoderBlock?: boolean;
  /** Trace a 2-D PCA of X and the attention output (default true). */
  project2d?: boolean;
  /** Word vectors × this, 0 < s ≤ 100 (default 1; 10 = √d_model, §3.4). */
  embeddingScale?: number;
  /** P × this before it is added, 0 … 100 (default 1). */
  positionalScale?: number;
  /** Add trace.positionChecks (default false). */
  positionChecks?: boolean;
  /** The shuffled order of positionChecks.shuffle. */
  shuffleSeed?: number;
}

export interface TracedToken extends Token {
  /** Vocabulary row, or −1. */
  id: number;
  masked: boolean;
}

export interface TracedHead extends HeadResult {
  kind: 'projected' | 'semantic' | 'offset' | 'first' | 'uniform';
  offset: number;
  /** Queries or keys built from positions (offset, first, uniform): tells positions apart with no encoding. */ positionalByConstruction: boolean;
  /** Hides each query's own key (semantic); a query left with no other key attends to itself. */ masksOwnPosition: boolean;
  /** With scoreFunction 'additive' (projected heads): W_q [d_k, hidden], W_k [d_k, hidden], v [hidden]. */
  additiveScorer?: { wQ: Matrix; wK: Matrix; v: Tensor } | null;
}

export interface RowDifference {
  queries: number;
  keys: number;
  values: number;
}
export interface PositionChecks {
  /** Per head, each [seqLen, seqLen], summing to the head's scores; [] unless P is added, null for designed heads. */
  scoreTerms: ({
    contentContent: Matrix;
    contentPosition: Matrix;
    positionContent: Matrix;
    positionPosition: Matrix;
  } | null)[];
  /** First two occurrences of each repeated word and the max |difference| of their rows over all heads, and per head. */
  repeated: { key: string; first: number; second: number; maxDifference: RowDifference; heads: RowDifference[] }[];
  /** The sentence shuffled (position k holds token order[k]), compared after un-shuffling; weights also per head. */
  shuffle: {
    order: number[];
    weights: Tensor;
    maxWeightDifference: number;
    headWeightDifferences: number[];
    maxOutputDifference: number;
  };
  /** ‖x_i‖, ‖p_i‖ as used [seqLen]. */
  embeddingNorms: Tensor;
  positionalNorms: Tensor;
}

export interface Trace extends MultiHeadResult {
  tokens: TracedToken[];
  totalTokens: number;
  truncated: boolean;
  validLength: number;
  /** X, P, X + P (or X) [seqLen, dModel]. */
  embeddings: Matrix;
  positional: Matrix;
  input: Matrix;
  heads: TracedHead[];
  block: {
    residual1: Matrix;
    norm1: Matrix;
    hidden: Matrix;
    ffnOutput: Matrix;
    residual2: Matrix;
    output: Matrix;
  } | null;
  /** coordinates [2·seqLen, 2]: rows of X, then of the attention output. */
  projection: { mean: Tensor; components: Matrix; variance: Tensor; coordinates: Matrix } | null;
  positionChecks: PositionChecks | null;
  /** The options used, normalized: defaults filled in, head names as { kind, offset } ('previous' / 'next'
   * become offsets −1 / +1), positionalEncoding as a name. */
  options: Required<Omit<ExplainOptions, 'validLength' | 'heads' | 'positionalEncoding'>> & {
    validLength?: number;
    heads: { kind: Exclude<HeadKind, 'previous' | 'next'>; offset: number }[];
    positionalEncoding: PositionalEncoding;
  };
}

// The lesson analyses' result types: analyses.d.ts, beside this file.
import type {
  CrossAttentionTrace,
  RotationCheck,
  PositionalEncodingLab,
  LookupSimilarity,
  SoftLookupResult,
  LayerCost,
  LayerCosts,
} from './analyses.js';
export type * from './analyses.js';

// The trainer's types (core.createTrainer): trainer.d.ts, beside this file.
import type { Trainer, TrainerLimits, TrainerOptions } from './trainer.js';
export type * from './trainer.js';

// The trained language models' types (core.languageModel): language-model.d.ts, beside this file.
import type { LanguageModelApi } from './language-model.js';
export type * from './language-model.js';

// Every limit and name list (core.limits): limits.d.ts, beside this file.
import type { CoreLimits } from './limits.js';
export type * from './limits.js';

export interface AttentionCore extends LanguageModelApi {
  /** Every limit and name list, from the C++ core (see CoreLimits). */
  readonly limits: CoreLimits;
  /** 25,477 for the shipped asset (25,000 GloVe words and 477 derived ones: "a", "i", clitics, numbers). */
  readonly vocabSize: number;
  /** 100 for the shipped GloVe-derived vectors. */
  readonly dModel: number;
  /** 256: longer text is cut by explain(). */
  readonly maxTokens: number;
  /** The build running: 'relaxed-simd' (fused multiply-add kernels) or 'simd128' (see createAttentionCore's kernels). */
  readonly kernels: 'relaxed-simd' | 'simd128';
  /**
   * Where the running build's .wasm was loaded from (a data: URL where a bundle inlines it): another instance
   * of the same build starts from it, e.g. in a Web Worker — createAttentionCore({ kernels, wasmUrl }) for
   * 'simd128', or ({ kernels, relaxedWasmUrl }) for 'relaxed-simd'.
   */
  readonly wasmUrl: string;
  /**
   * Where the word vectors were loaded from (absolute; a data: URL where a bundle inlines them), or null when they were
   * given as bytes: another core with the same words starts from it (createAttentionCore({ embeddingsUrl })).
   */
  readonly embeddingsUrl: string | null;
  /**
   * Words and punctuation, split as GloVe's training text was (PTB): "didn't" → "did" "n't", "it's" →
   * "it" "'s"; compounds the vocabulary has ("well-known") and numbers ("1,000", "3.5") stay whole.
   */
  tokenize(text: string): Token[];
  /** X [seqLen, dModel]. */
  embed(text: string): Matrix;
  /**
   * The all-but-the-top post-processing (Mu & Viswanath 2018) behind the semantic head and
   * softLookup's 'wordVectors' similarity: x̃ = (x − mean) − Σ_k (u_k · (x − mean)) u_k.
   * mean [dModel], directions [D, dModel] (D = 3 for the shipped asset), spectrum: variance shares of the top 8 directions.
   */
  allButTheTop(): { mean: Float32Array; directions: Matrix; spectrum: Float32Array };
  /** P [seqLen, dModel] (Vaswani et al. 2017 §3.5). */
  sinusoidalEncoding(seqLen: number, dModel: number, options?: { base?: number }): Matrix;
  /**
   * queries [n, d_k], keys [m, d_k], values [m, d_v] (Vaswani et al. 2017 eq. 1). With softmax, dotProducts,
   * scores and weights are getters computed on first read from the arrays passed; reading them after
   * those arrays changed throws a RangeError.
   */
  attention(
    args: { queries: Matrix; keys: Matrix; values: Matrix; normalizer?: Normalizer } & AttentionOptions,
  ): AttentionResult;
  /**
   * input [seqLen, dModel] (Vaswani et al. 2017 §3.2.2). Without position information, weights, scores,
   * concat and heads are getters computed on first read (with the weights as they were at the call);
   * reading them after the input array changed throws a RangeError.
   */
  multiHeadAttention(
    args: { input: Matrix } & MultiHeadWeights &
      AttentionOptions & {
        positionalEncoding?: PositionalEncoding | boolean;
        seed?: number;
        base?: number;
        alibiSlopes?: AlibiSlopes;
      },
  ): MultiHeadResult;
  multiHeadLayer(weights: MultiHeadWeights): MultiHeadLayer;
  /** Each row normalized (Ba et al. 2016), γ = 1, β = 0. */
  layerNorm(x: Matrix, options?: { epsilon?: number }): Matrix;
  /**
   * Principal components of rows [n, d] (n ≥ 1, d ≤ 1024), computed in the core: mean [d], components [k, d] (unit,
   * largest variance first, sign fixed so the largest-magnitude entry is positive), variance [k] (÷ n),
   * coordinates [n, k]. k: 1 … d, default 2. RangeError for NaN/∞ or k out of range.
   */
  pca(
    rows: Matrix,
    options?: { k?: number },
  ): { mean: Tensor; components: Matrix; variance: Tensor; coordinates: Matrix };
  /**
   * Attention weights from scores [rows, cols] → [rows, cols], each row on the simplex (all 0 when every
   * cell is −Infinity, the mask). Scores are divided by temperature > 0 (default 1); method default 'softmax'.
   */
  normalize(scores: Matrix, options?: { method?: Normalizer; temperature?: number }): Matrix;
  positionalEncodingLab(options: {
    positions: number;
    dModel?: number;
    base?: number;
    position?: number;
    delta?: number;
    errorPositions?: number;
  }): PositionalEncodingLab;
  explain(text: string, options?: ExplainOptions): Trace;
  compareContexts(
    first: string,
    second: string,
    options?: ExplainOptions,
  ): { first: Trace; second: Trace; projection: Trace['projection'] };
  /** The decoder block's two attention steps: causal self-attention on the target, then its queries on the source's encoder output. */
  explainCross(source: string, target: string, options?: ExplainOptions): CrossAttentionTrace;
  /** f(p) = ⟨p, scores⟩ / temperature − Ω(p) at each row of points [N, m] (on the simplex) → [N]. */
  simplexObjective(points: Matrix, scores: number[], options?: { method?: Normalizer; temperature?: number }): Tensor;
  /** Operations for an [queries, keys] score matrix of width dK. */
  scoreCost(args: { scoreFunction: ScoreFunction; queries: number; keys: number; dK: number; hidden?: number }): {
    multiplyAdds: number;
    additions: number;
    divisions: number;
    tanh: number;
    total: number;
  };
  /** 32: most rows softLookup() takes. */
  readonly maxLookupRows: number;
  /**
   * Soft key–value lookup of query (≤ 64 characters, may be empty) in keys → values (1 … 32 non-empty strings
   * each, equal lengths). temperature 0.0001 … 10000 (default 1); similarity default 'letters'; normalizer
   * default 'softmax'.
   */
  softLookup(
    query: string,
    table: {
      keys: string[];
      values: string[];
      temperature?: number;
      similarity?: LookupSimilarity;
      normalizer?: Normalizer;
    },
  ): SoftLookupResult;
  /**
   * Layer costs for n tokens (1 … 10⁸) of width dModel (1 … 10⁵, default core.dModel), kernelSize 2 … 10⁴
   * (default 3), and the operation counts at each n of curveN (≤ 4096 values, default []).
   */
  layerCosts(options: { n: number; dModel?: number; kernelSize?: number; curveN?: number[] }): LayerCosts;
  /**
   * A new attention-only transformer (Elhage et al. 2021) and its AdamW optimizer, trained in the core on a
   * synthetic task (see TrainerOptions). Released when garbage-collected. RangeError / TypeError name a bad option.
   */
  createTrainer(options?: TrainerOptions): Trainer;
  readonly trainerLimits: TrainerLimits;
  /** Bytes allocated on the wasm heap (for leak checks). */
  heapInUse(): number;
}

/**
 * Loads the .wasm and the word vectors; rejects naming the file and the reason.
 * embeddingsUrl: where the embedding asset is hosted (default: in the package); embeddings: its bytes, to
 * skip loading it. kernels: which build of the core runs: 'auto' (default) attn_core.relaxed.wasm, whose
 * kernels use relaxed SIMD's fused multiply-add, where the engine runs relaxed SIMD, else attn_core.wasm
 * ('simd128'); asking for 'relaxed-simd' where it does not run rejects. wasmUrl / relaxedWasmUrl: where those
 * two files are hosted (default: in the package; a wasmUrl alone means only attn_core.wasm is hosted).
 * languageModelsUrl: the folder holding causal.safetensors and masked.safetensors, where languageModel(kind) loads
 * them from (default: in the package).
 */
export function createAttentionCore(options?: {
  embeddingsUrl?: string | URL;
  embeddings?: Uint8Array;
  kernels?: 'auto' | 'relaxed-simd' | 'simd128';
  wasmUrl?: string | URL;
  relaxedWasmUrl?: string | URL;
  languageModelsUrl?: string | URL;
}): Promise<AttentionCore>;
