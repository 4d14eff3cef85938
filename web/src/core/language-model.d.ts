// Types of core.languageModel() (web/src/core/language-model.js): the explorer's own small transformer
// language models, trained by the core on public-domain English (README "A language model of our own").
import type { Token } from './index.js';

/** The two shipped models (core.languageModelLimits.objectives at run time). */
export type LanguageModelKind = 'causal' | 'masked';

export interface LanguageModelLimits {
  readonly objectives: readonly LanguageModelKind[];
  /** The longest text run() takes, in tokens (256; the models trained on windows of 32). */
  readonly maxTokens: number;
  /** The largest k of run() and fillMask() (100). */
  readonly maxTopK: number;
}

export interface LanguageModelOptions {
  /** Where the model's .safetensors file is (default: assets/models/<kind>.safetensors beside the core). */
  url?: string | URL;
  /** The file's bytes, to skip loading. */
  bytes?: Uint8Array;
}

export interface LanguageModelConfig {
  readonly kind: LanguageModelKind;
  /** 'causal': next word, a causal mask (a decoder); 'masked': fill in [MASK], no mask (an encoder). */
  readonly objective: LanguageModelKind;
  readonly numLayers: number;
  readonly numHeads: number;
  /** 100: the GloVe vectors' width (the input is frozen GloVe + sinusoidal P). */
  readonly dModel: number;
  readonly dK: number;
  /** The feed-forward layer's hidden width (0: the attention-only ablation). */
  readonly dFF: number;
  /** The training windows' length, in tokens. */
  readonly seqLen: number;
  /** Output vocabulary size: the most frequent corpus words, then <unk> (last). */
  readonly outputSize: number;
  /** Output matrix tied to the frozen GloVe rows of the output words (true) or learned (false). */
  readonly tiedOutput: boolean;
  /** What the model read (sources and licences: README). */
  readonly corpus: string;
  readonly trainTokens: number;
  readonly steps: number;
  /** Causal: held-out perplexity measured at training time (every held-out token after the first). */
  readonly heldOutPerplexity?: number;
  /** Masked: held-out accuracy at 15 % of the positions replaced by [MASK]: top-1 and top-5. */
  readonly maskedTop1?: number;
  readonly maskedTop5?: number;
  /** The unigram and interpolated Kneser–Ney bigram perplexities on the same held-out tokens. */
  readonly baselines: { unigramPerplexity: number; bigramPerplexity: number; bigramDiscount: number; tokens: number };
  /**
   * What each head was measured to do on the held-out text (cpp/include/attn/train/head_statistics.hpp), layer-major:
   * mean weight on the previous / next / own / first position, on the same word elsewhere, on the token after
   * the word's earlier occurrence (prefix matching), the mean entropy in bits, and the label (the largest score
   * ≥ 0.4, else 'mixed').
   */
  readonly heads: readonly HeadMeasurement[];
  /** The whole recipe and measurements as the file's __metadata__ records them. */
  readonly recipe: Readonly<Record<string, unknown>>;
  readonly measured: Readonly<Record<string, unknown>>;
}

export interface HeadMeasurement {
  layer: number;
  head: number;
  previous: number;
  next: number;
  self: number;
  first: number;
  sameWord: number;
  prefix: number;
  entropyBits: number;
  label: 'previous' | 'next' | 'self' | 'first' | 'same word' | 'prefix' | 'mixed';
}

export interface LanguageToken extends Token {
  /** The word has no GloVe vector: the model read its one learned <unk> vector. */
  oov: boolean;
  /** "[MASK]" as typed. */
  mask: boolean;
}

export interface WordProbability {
  word: string;
  p: number;
}

export interface LanguageRun {
  tokens: LanguageToken[];
  /** [layer][head]: the T × T weights, row i (query i) at data[i * T + j]. */
  attention: Float32Array[][];
  /** [layer]: each block's output x_{l+1}, [T, dModel]. */
  hidden: { data: Float32Array; shape: [number, number] }[];
  /** Per position, the k most likely outputs, most likely first. Causal: the word after position i; masked: the word at i. */
  top: WordProbability[][];
}

export interface LanguageScore {
  tokens: LanguageToken[];
  /** ln p(token i | tokens before it), i = 1 … T − 1; a word outside the output vocabulary is scored as <unk>. */
  logProb: Float32Array;
  /** exp(−mean logProb). */
  perplexity: number;
}

export interface LanguageModel {
  readonly config: LanguageModelConfig;
  /** The output vocabulary, <unk> last. */
  readonly vocabulary: readonly string[];
  /** RangeError: empty text, more than maxTokens tokens, k outside 1 … maxTopK, [MASK] given to the causal model; TypeError: not a string. */
  run(text: string, options?: { k?: number }): LanguageRun;
  /** Causal model only (RangeError otherwise, and for fewer than 2 tokens). */
  score(text: string): LanguageScore;
  /** Masked model only: for each [MASK] in the text, its position and the k most likely words. */
  fillMask(text: string, k?: number): { position: number; top: WordProbability[] }[];
  /** Every parameter by its C++ name ("layers.0.attention.w_q"), row-major. */
  parameters(): Record<string, { data: Float32Array; shape: number[] }>;
}
