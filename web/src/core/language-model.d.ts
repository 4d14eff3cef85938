// Types of core.languageModel() (web/src/core/language-model.js): the explorer's own small transformer
// language models, trained by the core on public-domain English (README "A language model of our own").
import type { Token } from './index.js';
import type { TrainerParameters } from './trainer.js';
import type { LanguageTrainer, LanguageTrainerOptions } from './language-trainer.js';
import type { HeadMeasurement, RepeatedWords } from './head-measurement.js';
import type { Attribution, AttributeOptions, HeadRef } from './knockout.js';

export type * from './language-trainer.js';
export type * from './head-measurement.js';
export type * from './knockout.js';
export type * from './gpt2.js';
import type { Architecture, Gpt2Limits, Gpt2Model, Gpt2Options } from './gpt2.js';

/** The two shipped models (core.languageModelLimits.objectives at run time). */
export type LanguageModelKind = 'causal' | 'masked';

export interface LanguageModelLimits {
  readonly objectives: readonly LanguageModelKind[];
  /** The architectures of the checkpoints core.languageModel({ architecture }) reads besides our own files: 'gpt2'. */
  readonly architectures: readonly Architecture[];
  /** The names run()'s positions option takes besides a list: 'all', 'masks'. */
  readonly outputPositions: readonly ('all' | 'masks')[];
  /** createLanguageTrainer's outputInit and outputVocabulary names. */
  readonly outputInits: readonly ('random' | 'glove')[];
  readonly outputVocabularies: readonly ('text' | 'glove')[];
  /** The longest text run() takes, in tokens (256; the models trained on windows of 32). */
  readonly maxTokens: number;
  /** The largest k of run() and fillMask() (100). */
  readonly maxTopK: number;
  /** sample()'s and run()'s `sampling` output temperature range: 0.05 … 5 (sampling.hpp). */
  readonly minOutputTemperature: number;
  readonly maxOutputTemperature: number;
  /** The largest topK of sample() (100); 0 means every word. */
  readonly maxSampleTopK: number;
  /** The largest seed of sample() (2³² − 1, core.limits.maxSeed). */
  readonly maxSampleSeed: number;
  /**
   * A head's measured label (config.heads[].label) names its largest score when that score is at least this (0.4),
   * else it is 'mixed' (cpp/include/attn/train/head_statistics.hpp).
   */
  readonly headLabelThreshold: number;
  /** repeatedWords()'s R: its default (12) and range (2 … 128), and its number of sequences (64; at most 1,024). */
  readonly repeatedWords: number;
  readonly minRepeatedWords: number;
  readonly maxRepeatedWords: number;
  readonly repeatedSequences: number;
  readonly maxRepeatedSequences: number;
  /**
   * createLanguageTrainer's defaults: the core's base recipe (tied output, α 3e-3, 15 % masking; LanguageTrainerOptions),
   * which the shipped files change (each file's recipe is its model's config.recipe). Its limits are core.trainerLimits.
   */
  readonly trainerDefaults: Readonly<Omit<Required<LanguageTrainerOptions>, 'text' | 'heldOutText'>>;
}

export interface LanguageModelOptions {
  /**
   * Where the model's .safetensors file is. Default: <kind>.safetensors in createAttentionCore's languageModelsUrl when
   * it was given, else beside the core's index.js (the npm package's dist/core/ ships causal.safetensors and
   * masked.safetensors there; from the repository's sources, web/assets/models/).
   */
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
  /**
   * BERT's output head (Devlin et al. 2019) before the output layer: logits = t U + b with
   * t = LayerNorm(GELU(x_L W_T + b_T)) (parameters() 'output_head.dense.w' / '.b', 'output_head.norm.gamma' / '.beta').
   * false for the shipped models, and for files from before the option.
   */
  readonly outputHead: boolean;
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
  /**
   * The held-out measurements of the weights as stored (float16), and the baseline that always predicts the
   * most frequent training words (its top-1 and top-5 on the same scored tokens).
   */
  readonly asStored?: {
    heldOutLoss: number;
    heldOutPerplexity: number;
    heldOutTop1: number;
    heldOutTop5: number;
    heldOutTokens: number;
    frequentTop1: number;
    frequentTop5: number;
  };
  /** The whole recipe and measurements as the file's __metadata__ records them. */
  readonly recipe: Readonly<Record<string, unknown>>;
  readonly measured: Readonly<Record<string, unknown>>;
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
  /**
   * [T, dModel]: each token's input row before position is added: its frozen GloVe word vector (the same at every
   * position), the [MASK] vector, or the learned <unk> row (an oov word).
   */
  embeddings: { data: Float32Array; shape: [number, number] };
  /** [T, dModel]: x₀ = embeddings + P (sinusoidal, Vaswani et al. 2017 §3.5), the first block's input. */
  input: { data: Float32Array; shape: [number, number] };
  /** [layer][head]: the T × T weights, row i (query i) at data[i * T + j]. */
  attention: Float32Array[][];
  /** [layer]: each block's output x_{l+1}, [T, dModel]. */
  hidden: { data: Float32Array; shape: [number, number] }[];
  /**
   * Per position (length T), the k most likely words, most likely first, at the positions asked for
   * (options.positions) and null elsewhere. Causal: the word after position i; masked: the word at i.
   * p = softmax(logits)[word] over all outputs; `<unk>` is never listed: its probability is unk[i].
   */
  top: (WordProbability[] | null)[];
  /** Per position: p(<unk>), the mass of every word outside the output vocabulary (null where not computed). */
  unk: (number | null)[];
  /**
   * Per position: the output layer's logits z = t U + b, [outputSize] (<unk> last), t = outputInput[i]; U = the output
   * words' GloVe rows transposed when config.tiedOutput, else parameters()' "unembedding" [dModel, outputSize];
   * b = "output_bias".
   */
  logits: (Float32Array | null)[];
  /**
   * Per position: the output layer's input t, [dModel]: x_L = hidden[numLayers − 1] row i (the last block's output,
   * after its LayerNorm: there is no final norm), or with config.outputHead t = LayerNorm(GELU(x_L W_T + b_T)).
   */
  outputInput: (Float32Array | null)[];
  /**
   * With options.sampling: per position, the first k words of the sampling distribution (sample()'s), most likely
   * first: q = softmax(z / temperature) over the words (<unk> excluded), kept to the topK largest, renormalised.
   */
  sampling?: (WordProbability[] | null)[];
  /** With options.activations: every step of that head's block, from the same forward pass. */
  activations?: BlockActivations;
}

/** A tensor [rows, cols], row-major: data[i * cols + j]. */
export interface LanguageTensor {
  data: Float32Array;
  shape: [number, number];
}

/**
 * One block (layer l) of a trained model followed for one head h on the text, every value as the model computed it
 * (cpp/include/attn/train/block_activations.hpp; Vaswani et al. 2017 §3.1–3.3, post-LN). T = the text's tokens,
 * d = dModel (100), d_k = dK (25), d_ff = dFF. The head's columns of Q, K, V and of the concatenation are
 * h·d_k … (h+1)·d_k − 1; W_Q, W_K, W_V, W_O, their biases, LayerNorm's γ and β and the feed-forward weights are
 * parameters()' "layers.<l>.attention.w_q", "….b_q", …, "layers.<l>.norm1.gamma", "layers.<l>.feed_forward.w_1", ….
 */
export interface BlockActivations {
  layer: number;
  head: number;
  /** [T, d] each token's input row: its frozen GloVe vector (core.embed's), or the learned row of <unk> or [MASK]. */
  wordVectors: LanguageTensor;
  /** [T, d] the sinusoidal P (core.sinusoidalEncoding(T, d)), added unscaled. */
  positional: LanguageTensor;
  /** [T, d] X_l, the block's input: wordVectors + positional for layer 0, else hidden[l − 1]. */
  input: LanguageTensor;
  /** [T, d_k] Q_h = X_l W_Q[:, h] + b_Q[h]; keys and values alike. */
  queries: LanguageTensor;
  keys: LanguageTensor;
  values: LanguageTensor;
  /** [T, T] Q_h K_hᵀ / √d_k; −Infinity where the causal model's mask hides a later key (j > i). */
  scores: LanguageTensor;
  /** [T, T] softmax of each row of scores (= attention[l][h]). */
  weights: LanguageTensor;
  /** [T, d_k] head_h = A_h V_h. */
  headOutput: LanguageTensor;
  /** [T, d] Concat(head_1 … head_H). */
  concat: LanguageTensor;
  /** [T, d] Concat(…) W_O + b_O. */
  attentionOutput: LanguageTensor;
  /** [T, d] R₁ = X_l + attentionOutput. */
  residual1: LanguageTensor;
  /** [T, d] N₁ = γ₁ ⊙ (R₁ − μ) / √(σ² + 10⁻⁵) + β₁, per row. */
  norm1: LanguageTensor;
  /** [T, d_ff] ReLU(N₁ W_1 + b_1). */
  ffHidden: LanguageTensor;
  /** [T, d] ffHidden W_2 + b_2. */
  ffOutput: LanguageTensor;
  /** [T, d] R₂ = N₁ + ffOutput. */
  residual2: LanguageTensor;
  /** [T, d] the block's output LayerNorm₂(R₂) (= hidden[l]). */
  output: LanguageTensor;
}

/**
 * Where run() applies the output layer: 'all' tokens (the default), each '[MASK]' ('masks'), or listed
 * positions, each in [−T, T) where a negative one counts from the end (−1: the last token, as Array.prototype.at).
 * The output layer (dModel × outputSize multiply-adds a position) costs far more than the blocks, so a
 * view that shows one prediction asks for one position.
 */
export type OutputPositions = 'all' | 'masks' | number[];

export interface LanguageRunOptions {
  /** How many outputs per position, 1 … maxTopK (default 10). */
  k?: number;
  /** Default 'all'. */
  positions?: OutputPositions;
  /**
   * Also return every step of this head's block (run()'s `activations`): layer in [0, numLayers), head in
   * [0, numHeads); RangeError outside them (or for another option in it), TypeError if not numbers.
   */
  activations?: { layer: number; head: number };
  /** Also the sampling distribution at each position (run()'s `sampling`): temperature and topK as sample() takes them. */
  sampling?: { temperature?: number; topK?: number };
  /**
   * Heads knocked out (default none): each listed head's block of the concatenated head outputs
   * Z = [head_1 | … | head_H] is set to 0 before W_O, as the Learn tasks ablate (Michel et al. 2019 §3), so the
   * attention of later layers, the hidden states and the predictions are the model's without them (the knocked-out
   * head's own attention weights are still computed and returned). Each { layer, head } from 0, listed once:
   * RangeError for a layer outside [0, numLayers), a head outside [0, numHeads), an unknown key, a head listed twice;
   * TypeError for a list that is not an array, an entry that is not an object, a layer or head that is not a number.
   */
  ablate?: HeadRef[];
}

/** sample()'s options (cpp/include/attn/train/sampling.hpp). RangeError outside the ranges, TypeError if not numbers. */
export interface SampleOptions {
  /** The output softmax's temperature T (not the attention temperature): minOutputTemperature … maxOutputTemperature, default 1. */
  temperature?: number;
  /** Keep the topK most likely words (an integer 0 … maxSampleTopK; 0, the default: every word). */
  topK?: number;
  /** The draw's seed, an integer 0 … maxSampleSeed (default 0): the same text, options and seed give the same word. */
  seed?: number;
  /** Heads knocked out while the word is drawn, as run()'s ablate (default none). */
  ablate?: HeadRef[];
}

export interface SampledWord {
  word: string;
  /** Its output id (an index of vocabulary; never <unk>'s). */
  id: number;
  /** Its probability under the sampling distribution. */
  p: number;
  /** Where the output layer read: the last token (causal) or the first [MASK] (masked). */
  position: number;
}

export interface GenerateOptions extends SampleOptions {
  /** Words to write, 1 … maxTokens (default 1). `seed` is the first word's. */
  n?: number;
}

export interface Generated {
  /** The given text (trailing white space dropped) and the words, joined as the tokenizer reads them back. */
  text: string;
  /** Each word drawn, its output id, its probability under the sampling distribution, and the seed it was drawn with. */
  words: { word: string; id: number; p: number; seed: number }[];
  /** The seed the next word would be drawn with (the last word's + 1, wrapping to 0 after maxSampleSeed). */
  nextSeed: number;
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
  /**
   * RangeError: empty text, more than maxTokens tokens, k outside 1 … maxTopK, a position outside [−T, T),
   * a layer or head of activations that does not exist, an unknown option, [MASK] given to the causal model;
   * TypeError: not a string.
   */
  run(text: string, options?: LanguageRunOptions): LanguageRun;
  /**
   * One word drawn from softmax(logits / temperature) over the words (<unk> excluded), kept to the topK most likely and
   * renormalised (Fan et al. 2018), by inverse transform sampling with u = SplitMix64(seed)'s first output's top 53 bits
   * × 2⁻⁵³: after the text (causal) or at its first [MASK] (masked; RangeError if there is none). Errors as run().
   */
  sample(text: string, options?: SampleOptions): SampledWord;
  /**
   * Causal model only: writes n words on after the text, each drawn by sample() after the text so far (with its
   * temperature, topK and ablate), word i with seed + i (wrapping to 0 after maxSampleSeed), as the page's Generate does.
   * Each word is joined to the text as the tokenizer reads it back: glued on where it is punctuation or a clitic
   * ("she" + "'d" → "she'd", "do" + "n't" → "don't", "end" + "." → "end."), after a space otherwise.
   * RangeError: the masked model, n outside 1 … maxTokens, a text with no token or with more than maxTokens − n,
   * an unknown option, sample()'s errors; TypeError: not a string.
   */
  generate(text: string, options?: GenerateOptions): Generated;
  /** Causal model only (RangeError otherwise, and for fewer than 2 tokens). */
  score(text: string): LanguageScore;
  /**
   * Masked model only: for each [MASK] in the text, its position and the k most likely words. RangeError: the causal
   * model, a text without [MASK], k outside 1 … maxTopK; run()'s errors.
   */
  fillMask(text: string, k?: number): { position: number; top: WordProbability[] }[];
  /**
   * Why this word (cpp/src/train/language_model_knockout.cpp): one core call of 1 + numLayers · numHeads + T forward
   * passes (a median of 4.3 ms for 8 tokens in Node 20 on a 2-core machine). RangeError: run()'s, a position outside [−T, T), a word outside the
   * vocabulary, a bad ablate (as run()'s); TypeError: text or word not a string, position not a number.
   */
  attribute(text: string, options: AttributeOptions): Attribution;
  /** Every parameter by its C++ name ("layers.0.attention.w_q"), row-major (trainer.d.ts TrainerParameters). */
  parameters(): TrainerParameters;
  /**
   * What each head does on `text` (layer-major), measured as the shipped files' `config.heads` were
   * (cpp/include/attn/train/head_statistics.hpp: windows of 32 tokens starting at line starts, one line a sentence),
   * over at most maxWindows windows (default 2,000). RangeError if no line has 2 tokens; TypeError: not a string.
   */
  measureHeads(text: string, options?: { maxWindows?: number }): HeadMeasurement[];
  /**
   * The induction-head probe (Olsson et al. 2022 §2; TransformerLens's head detector), in one core call: `sequences`
   * sequences (default core.languageModelLimits.repeatedSequences, 64; at most maxRepeatedSequences) of `repeat`
   * random words of the output vocabulary (default repeatedWords, 12; minRepeatedWords … maxRepeatedWords), each
   * followed by the same words again, drawn with SplitMix64(seed) (seed 0 … maxSampleSeed, default 0): every head's
   * previous-word, duplicate-word and induction scores there and, for the causal model, the loss on each copy
   * (cpp/include/attn/train/head_statistics.hpp). RangeError / TypeError naming a bad option.
   */
  repeatedWords(options?: { repeat?: number; sequences?: number; seed?: number }): RepeatedWords;
  /**
   * Frees the model's memory in the core now, rather than when it is garbage-collected (a trainer's model() taken many
   * times a second). Every later call on it throws an Error saying it was released.
   */
  release(): void;
}

/** The members core gives for the language models (AttentionCore extends it). */
export interface LanguageModelApi {
  /**
   * The explorer's own small transformer language model of that kind, trained by the core on public-domain
   * English and loaded from its shipped .safetensors file (once per kind). Every error comes through the promise,
   * which never throws synchronously: it rejects with a RangeError for another kind (naming the kinds) or an unknown
   * option, and with one naming the file and what is wrong (missing, truncated, corrupted, another format or version).
   */
  languageModel(kind: LanguageModelKind, options?: LanguageModelOptions): Promise<LanguageModel>;
  /**
   * A GPT-2-family checkpoint an author brings (Radford et al. 2019): Hugging Face's safetensors layout, streamed into
   * the core with progress. Rejects with a RangeError naming the file and the problem: not a GPT-2 layout (a tensor
   * missing, of another shape, or not of the layout), a dtype other than F32, F16, BF16, a truncated file, a value
   * that is not finite, more than gpt2Limits.maxParameters, a config.json that disagrees with the tensors.
   */
  languageModel(checkpoint: Gpt2Options): Promise<Gpt2Model>;
  readonly languageModelLimits: LanguageModelLimits;
  readonly gpt2Limits: Gpt2Limits;
  /**
   * A new language model trained in the core on the given text (frozen GloVe input, post-LN blocks, AdamW with warm-up
   * and cosine decay), with the core's base recipe as defaults (languageModelLimits.trainerDefaults). Released when
   * garbage-collected.
   */
  createLanguageTrainer(options?: LanguageTrainerOptions): LanguageTrainer;
}
