// Types of core.languageModel({ architecture: 'gpt2' }) (web/src/core/gpt2.js): a GPT-2-family checkpoint an author
// brings, in Hugging Face's safetensors layout, run by the core (cpp/include/attn/train/gpt2.hpp).
import type {
  BlockActivations,
  GenerateOptions,
  Generated,
  LanguageTensor,
  SampleOptions,
  SampledWord,
} from './language-model.js';
import type { Token } from './index.js';
import type { RepeatedWords } from './head-measurement.js';

/** The architectures core.languageModel({ architecture }) reads (core.languageModelLimits.architectures). */
export type Architecture = 'gpt2';

export interface Gpt2Options {
  architecture: Architecture;
  /**
   * Where the checkpoint is: a safetensors file in Hugging Face's `gpt2` layout (wte.weight, wpe.weight,
   * h.{i}.ln_1 …, ln_f; with or without the "transformer." prefix; F32, F16 or BF16), such as the model.safetensors of
   * huggingface.co/gpt2 hosted beside the page. config.json in the same folder, when there, gives the head count and is
   * checked against the tensors. Nothing is fetched from another origin unless this URL names one.
   */
  url?: string | URL;
  /** The file's bytes instead (one of url and bytes). */
  bytes?: Uint8Array;
  /** config.json's contents (Hugging Face's GPT2Config), for bytes or to skip fetching it: n_head, n_embd, … */
  config?: {
    n_head?: number;
    n_embd?: number;
    n_layer?: number;
    n_positions?: number;
    vocab_size?: number;
    [key: string]: unknown;
  };
  /**
   * Called while the file arrives (stage 'fetch': bytes; total NaN when the server does not say) and while its tensors
   * go into the core (stage 'load': values).
   */
  onProgress?: (progress: { stage: 'fetch' | 'load'; loaded: number; total: number }) => void;
}

export interface Gpt2Config {
  kind: 'gpt2';
  architecture: Architecture;
  /** GPT-2 predicts the next token: a causal mask in every layer. */
  objective: 'causal';
  numLayers: number;
  numHeads: number;
  dModel: number;
  /** dModel / numHeads (64 in every GPT-2). */
  dK: number;
  dFF: number;
  /** n_positions: the context it was trained on (wpe's rows, 1,024). */
  seqLen: number;
  /** The longest text run() takes: min(seqLen, core.languageModelLimits.maxTokens = 256) tokens. */
  maxTokens: number;
  /** The BPE vocabulary (50,257). */
  outputSize: number;
  /** The output is wteᵀ (Radford et al. 2019). */
  tiedOutput: true;
  /** Parameters, wte counted once (GPT-2 small: 124,439,808). */
  parameters: number;
  /** Bytes the weights take in the core's memory: 4 per parameter (float32), plus the panels' padding. */
  memoryBytes: number;
  /** The file's URL, or 'GPT-2 checkpoint bytes'. */
  file: string;
}

/** A BPE piece, with its leading space (" bank"), its id and its span [start, end) in the text (UTF-16). */
export interface Gpt2Token extends Token {
  id: number;
  oov: false;
  mask: false;
}

export interface TokenProbability {
  /** The piece, as the text would show it (" bank"). */
  word: string;
  id: number;
  p: number;
}

export interface Gpt2Run {
  tokens: Gpt2Token[];
  /** [T, dModel] each token's wte row. */
  embeddings: LanguageTensor;
  /** [T, dModel] x₀ = wte + wpe. */
  input: LanguageTensor;
  /** [layer][head]: T × T weights, row i (query i) at data[i * T + j]; 0 above the diagonal (causal). */
  attention: Float32Array[][];
  /** [layer]: the residual stream after each block, [T, dModel] (no final LayerNorm). */
  hidden: LanguageTensor[];
  /** Per position: the k most likely next tokens at the positions asked for, null elsewhere. */
  top: (TokenProbability[] | null)[];
  /** Per position: the logits LN_f(x_L) wteᵀ, [outputSize], or null. */
  logits: (Float32Array | null)[];
  /** Per position: LN_f(x_L), [dModel], or null. */
  outputInput: (Float32Array | null)[];
  /** With options.sampling: the sampling distribution's first k tokens. */
  sampling?: (TokenProbability[] | null)[];
  /**
   * With options.activations: that head's block step by step, in GPT-2's pre-LN order: norm1 = LN₁(input) feeds
   * queries, keys and values; residual1 = input + attentionOutput; norm2 = LN₂(residual1) feeds the feed-forward layer
   * (GELU, tanh form); output = residual2 = residual1 + ffOutput. wordVectors and positional are the wte and wpe rows.
   */
  activations?: BlockActivations & { norm2: LanguageTensor };
}

export interface Gpt2RunOptions {
  /** 1 … maxTopK (default 10). */
  k?: number;
  /** 'all' (default), or positions in [−T, T). */
  positions?: 'all' | number[];
  /** Heads knocked out (their block of Z set to 0 before c_proj), as languageModel's. */
  ablate?: { layer: number; head: number }[];
  sampling?: { temperature?: number; topK?: number };
  activations?: { layer: number; head: number };
}

/** The logit lens (nostalgebraist 2020): rows 0 … numLayers (0: x₀; l: after block l; the last: the model's own). */
export interface LogitLens {
  tokens: Gpt2Token[];
  positions: number[];
  /** [row][i]: at positions[i], the k most likely tokens and the probability of the token that comes next (null at the last). */
  layers: { position: number; top: TokenProbability[]; next: number | null }[][];
}

export interface Gpt2AttributeOptions {
  /** The prediction's token position, in [−T, T): the token after it is predicted. */
  position: number;
  /** The predicted token: its id in [0, vocabSize), or its piece with its leading space (" storm"), one token. */
  word: number | string;
  /** Heads knocked out in every pass, as run()'s ablate (default none). */
  ablate?: { layer: number; head: number }[];
}

/** A measurement on this text, not an explanation of the model. */
export interface Gpt2Attribution {
  tokens: Gpt2Token[];
  /** The position, counted from 0. */
  position: number;
  /** The token's piece, and its id. */
  word: string;
  id: number;
  /** ln p(word) with `ablate` applied, in nats. */
  logProb: number;
  /** [numLayers · numHeads], layer-major: ln p(word) with that head also off − logProb (0 for a head already off). */
  heads: Float64Array;
  /** [T]: ln p(word) with token t's input row the mean embedding − logProb; 0 after the position (unseen). */
  occlusion: Float64Array;
}

export interface Gpt2Model {
  readonly config: Readonly<Gpt2Config>;
  /** The text's BPE pieces (any length); "<|endoftext|>" written in it is the separator token 50256. */
  tokenize(text: string): Gpt2Token[];
  /** The model on 1 … config.maxTokens tokens; RangeError beyond, or for an option out of range. */
  run(text: string, options?: Gpt2RunOptions): Gpt2Run;
  /** ln p(token t + 1 | tokens ≤ t), T − 1 of them (nats), and exp(−mean). At least 2 tokens. */
  score(
    text: string,
    options?: { ablate?: { layer: number; head: number }[] },
  ): { tokens: Gpt2Token[]; logProb: Float64Array; perplexity: number };
  /** One token after the text, drawn as languageModel's sample() draws (the same seed, the same token). */
  sample(text: string, options?: SampleOptions): SampledWord;
  /** n tokens, each appended to the text as its piece (with its own leading space). */
  generate(text: string, options?: GenerateOptions): Generated;
  /** k tokens per row and position (default k 1, every position). Costs (numLayers + 1) output layers a position. */
  logitLens(text: string, options?: { k?: number; positions?: 'all' | number[] }): LogitLens;
  /**
   * The head detector (languageModel's repeatedWords()): `repeat` random BPE tokens (<|endoftext|> never drawn) said
   * twice, `sequences` of them; each head's previous-token, duplicate and induction scores and both halves' losses;
   * `example`: the first sequence's pieces. repeat ≤ maxTokens / 2.
   */
  repeatedWords(options?: { repeat?: number; sequences?: number; seed?: number }): RepeatedWords;
  /**
   * "Why this word?": ln p(word) at a position (the token after it) and how it changes when one more head is knocked out
   * (Michel et al. 2019 §3) and when one token's input row is the mean of wte's rows (occlusion, Zeiler & Fergus 2014
   * §4.2: GPT-2 has no [MASK]). 1 + L·H + (position + 1) forward passes, in one call: seconds for GPT-2 small.
   * RangeError / TypeError naming a bad option (a word that is not one token, a position outside [−T, T)).
   */
  attribute(text: string, options: Gpt2AttributeOptions): Gpt2Attribution;
  /**
   * attribute()'s forward passes one at a time: each next() runs one and yields { done, total }; the last returns the
   * attribution. A page runs them between frames and drops the generator when the text changes. Its options are checked
   * when it is made.
   */
  attribution(
    text: string,
    options: Gpt2AttributeOptions,
  ): Generator<{ done: number; total: number }, Gpt2Attribution, void>;
  /** wpe: [seqLen, dModel], row i for position i (Radford et al. 2018 §3.1 learned them). */
  positionEmbeddings(): LanguageTensor;
  /** Frees the weights in the core now; later calls throw. */
  release(): void;
}

export interface Gpt2Limits {
  /** The largest checkpoint read: 400 M parameters (GPT-2 medium's 355 M take 1.4 GB in float32, within 2 GB of wasm memory). */
  readonly maxParameters: number;
  /** The head width a file without config.json is read with: n_heads = d_model / 64. */
  readonly headDim: number;
  readonly maxTokens: number;
}
