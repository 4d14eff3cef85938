// Types of core.createLanguageTrainer() (language-trainer.js): a language model trained in the core on any text, with
// the core's base recipe as its defaults (LanguageTrainerOptions, cpp/include/attn/train/language_trainer.hpp).
import type { LanguageModel, LanguageModelKind } from './language-model.js';
import type { TrainerParameters } from './trainer.js';

/**
 * Options of core.createLanguageTrainer(): the core's base recipe (core.languageModelLimits.trainerDefaults) for the ones
 * not given. The shipped files change it: both 4 layers with an untied output started at the GloVe rows; the decoder
 * with dFF 800, α 2.5e-3, windows of 64 and the repeated-span curriculum, the encoder with maskRate 0.4, α 2.5e-3 and 16,383
 * output words (docs/language-models.md; each file's recipe is its model's config.recipe). RangeError outside the
 * limits, TypeError for a wrong type.
 */
export interface LanguageTrainerOptions {
  /** Default 'causal'. */
  objective?: LanguageModelKind;
  /** 1 … 4 (default 2). */
  numLayers?: number;
  /** 1 … core.trainerLimits.maxHeads (16), a divisor of dModel = 100 (default 4). */
  numHeads?: number;
  /** Feed-forward hidden width, 0 … 2048 (default 400; 0 with layerNorm false: attention-only). */
  dFF?: number;
  /** Training windows' length in tokens, 2 … 256 (default 32). */
  seqLen?: number;
  /** Windows per step, 1 … 1024 (default 32). */
  batchSize?: number;
  /** V: the most frequent words of `text` that have GloVe vectors, 1 … 32,768 (default 8,191), plus <unk>. */
  outputWords?: number;
  /**
   * Where the output words come from (core.languageModelLimits.outputVocabularies): 'text' (default), the text's
   * outputWords most frequent words (a RangeError if it has fewer); or 'glove', those followed by the GloVe table's
   * other words in its order, up to outputWords (at most the table's 25,477 words).
   */
  outputVocabulary?: 'text' | 'glove';
  /** Output matrix tied to the frozen GloVe rows (default true). */
  tiedOutput?: boolean;
  /**
   * How a learned (untied) output matrix starts (core.languageModelLimits.outputInits): 'random' (default), or 'glove':
   * each word's column set to its frozen GloVe row, as the tied output reads it, so that copying a word vector from
   * context raises that word's logit from the first step. A RangeError with tiedOutput true.
   */
  outputInit?: 'random' | 'glove';
  /**
   * BERT's output head before the output layer (Devlin et al. 2019): logits = LayerNorm(GELU(x_L W_T + b_T)) U + b,
   * adding 'output_head.dense.w' [dModel, dModel], '….dense.b', 'output_head.norm.gamma' / '.beta' (default false).
   */
  outputHead?: boolean;
  /** Post-LN Add & Norm (default true). */
  layerNorm?: boolean;
  /**
   * masked: the fraction of positions chosen each window, in (0, 1] (default 0.15, BERT's: Devlin et al. 2019
   * §3.1; the shipped encoder trains at 0.4, Wettig et al. 2023). The held-out blanks are 15 % whatever it is.
   */
  maskRate?: number;
  /**
   * The fraction of training windows, in [0, 1] (default 0), that hold a span of their own text twice: r tokens
   * (4 … ⌊seqLen / 2⌋) copied again later in the window at a drawn distance, the text going on after the copy. A
   * curriculum in which copying from context pays (Olsson et al. 2022, §2, detect induction heads on such repeats);
   * the distance varies so that only matching content, not a fixed offset, finds the span. 0 draws exactly the
   * windows of a recipe without it.
   */
  repeatShare?: number;
  /** repeatShare holds for the first repeatSteps steps (0, the default: throughout), repeatShareAfter (default 0) after. */
  repeatSteps?: number;
  repeatShareAfter?: number;
  /** AdamW's peak α (default 0.003), decoupled λ on matrices only (default 0.1). */
  learningRate?: number;
  weightDecay?: number;
  /** Linear warm-up steps (default 200), then cosine decay to 0.1 α at totalSteps (0, the default: no decay). */
  warmupSteps?: number;
  totalSteps?: number;
  /** 0 … core.limits.maxSeed (default 0): the same seed and text give the same losses bit for bit. */
  seed?: number;
  /** English to train on, one sentence a line. Needs more than seqLen tokens, in both parts. */
  text?: string;
  /**
   * Held-out text; default: every 20th line of `text` (and the rest trains): a text of fewer than 20 lines without
   * heldOutText is a RangeError saying so. Each part needs more than seqLen tokens.
   */
  heldOutText?: string;
}

export interface LanguageBatch {
  /** Input ids (the word vectors' rows; [MASK] and <unk> after them), [batchSize, T] row-major. */
  tokens: Int32Array;
  /** Output ids (vocabulary indices) where scored, −1 elsewhere. */
  targets: Int32Array;
  scored: Uint8Array;
  shape: [number, number];
}

export interface LanguageTrainer {
  readonly options: Readonly<Omit<Required<LanguageTrainerOptions>, 'text' | 'heldOutText'>>;
  readonly vocabulary: readonly string[];
  readonly trainTokens: number;
  readonly heldOutTokens: number;
  /** n optimizer steps (1 … 100,000); the mean training loss (nats). Error if training diverges (the parameters stay as they were). */
  step(n?: number): { step: number; loss: number };
  /** Held-out loss, perplexity and top-1/top-5 over every held-out token (or the first maxTokens). */
  evaluate(options?: { maxTokens?: number }): {
    step: number;
    loss: number;
    perplexity: number;
    top1: number;
    top5: number;
    tokens: number;
  };
  /** The batch the next step will train on. */
  sample(): LanguageBatch;
  /**
   * The unigram (add-one) and interpolated Kneser–Ney bigram perplexities, counted on the training text over this
   * trainer's output vocabulary and scored on the held-out tokens the causal model's evaluate() scores
   * (cpp/include/attn/train/baselines.hpp). Computed once.
   */
  baselines(): { unigramPerplexity: number; bigramPerplexity: number; bigramDiscount: number; tokens: number };
  /**
   * A LanguageModel holding a copy of the parameters as they are now (training goes on without changing it):
   * run(), score() or fillMask() and measureHeads() on any text. Its config.heads is empty (measure them with measureHeads).
   */
  model(): LanguageModel;
  /** Every parameter by its C++ name, row-major (every trainer's and model's format: TrainerParameters). */
  parameters(): TrainerParameters;
  /** Replaces every parameter (RangeError naming a missing tensor or wrong size, a value that is not finite). */
  setParameters(parameters: TrainerParameters): void;
  /** The loss of a batch and its gradients, by parameter name, with no update. */
  lossAndGradients(batch: LanguageBatch): { loss: number; gradients: TrainerParameters };
}
