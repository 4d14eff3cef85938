// Types of core.createTrainer() (web/src/core/trainer.js): an attention-only transformer trained in the core, and
// of what every trainer shares (core.createLanguageTrainer() too): the parameter format and the limits.
import type { Matrix, Tensor } from './index.js';

/** The trainer's tasks (cpp/include/attn/train/tasks.hpp; core.trainerLimits.tasks at run time). */
export type TrainingTask = 'previous-token' | 'reverse' | 'sort' | 'induction';

/**
 * Options of core.createTrainer(). Missing ones take the task's defaults (docs/js-api.md, "Training a transformer"):
 * previous-token 1 layer × 1 head; the others 2 layers × 2 heads; all dModel 32, seqLen 16, vocabSize 16
 * (17 for reverse and sort: 16 values and the separator), batchSize 16, learningRate 0.01, weightDecay 0.01,
 * positionalEncoding 'sinusoidal', seed 0. Limits in core.trainerLimits; RangeError outside them.
 */
export interface TrainerOptions {
  /** Default 'induction'. */
  task?: TrainingTask;
  /** 1 … trainerLimits.maxLayers (4). */
  numLayers?: number;
  /** 1 … maxHeads (16), a divisor of dModel; head h uses columns h·d_k … (h+1)·d_k − 1. */
  numHeads?: number;
  /** 1 … maxDModel (512). */
  dModel?: number;
  /** T, the training sequences' length: 1 … maxSeqLen (256), and at least the task's minimum (2 / 3 / 3 / 4). */
  seqLen?: number;
  /** V: 1 … maxVocabSize (4096), and at least the task's minimum (sort: seqLen/2 + 1; induction: ⌊seqLen/3⌋ + 2). */
  vocabSize?: number;
  /** Sequences per optimizer step: 1 … maxBatchSize (1024). */
  batchSize?: number;
  /** AdamW's α: (0, 1]. */
  learningRate?: number;
  /** AdamW's decoupled λ: [0, 1]. */
  weightDecay?: number;
  /** P added to the token embeddings: fixed sinusoids (Vaswani et al. 2017 §3.5), a learned table [seqLen, dModel], or none. */
  positionalEncoding?: 'sinusoidal' | 'learned' | 'none';
  /** 0 … 2³²−1: initialization, training batches, sample(), the held-out set and the probe all derive from it. */
  seed?: number;
}

/** B sequences of T tokens: entry [b, t] at index b·T + t. */
export interface TrainingBatch {
  /** [B, T] token ids in [0, vocabSize). */
  tokens: Int32Array;
  /** [B, T] the token to predict after position t; −1 where not scored. */
  targets: Int32Array;
  /** [B, T] 1 where the loss and the accuracy count the position. */
  scored: Uint8Array;
  shape: [number, number];
}

/** A parameter tensor, row-major: element [i, j] of a [rows, cols] matrix is data[i * cols + j]. */
export interface ParameterTensor {
  data: Float32Array;
  shape: number[];
}

/**
 * Every parameter of a trainer or model (copies), under the core's names (cpp/include/attn/train/parameters.hpp,
 * parameter_specs), the same names as in the model files: 'embedding' [learned rows, dModel]; 'positional'
 * [seqLen, dModel] (a learned P only); per layer l, 'layers.<l>.attention.w_q', '….w_k', '….w_v', '….w_o'
 * [dModel, dModel] (Q = x · w_q, …; head h uses columns h·d_k … (h+1)·d_k − 1), with biases '….b_q', …
 * [dModel],
 * with layer norm 'layers.<l>.norm1.gamma' / '.beta', with a feed-forward layer 'layers.<l>.feed_forward.w_1'
 * [dModel, dFF], '….b_1', '….w_2' [dFF, dModel], '….b_2', 'layers.<l>.norm2.gamma' / '.beta'; 'unembedding'
 * [dModel, outputs] (untied only) and 'output_bias' [outputs] (with biases). The attention-only Learn models
 * (Elhage et al. 2021) have 'embedding' [vocabSize, dModel], 'positional'?, the four w_* per layer and 'unembedding'.
 */
export type TrainerParameters = Record<string, ParameterTensor>;

export interface TrainerEvaluation {
  /** Optimizer steps taken so far. */
  step: number;
  /** Mean cross-entropy (nats) over the scored positions of a fixed held-out set of 256 sequences. */
  loss: number;
  /** Fraction of those positions whose most likely token is the target. */
  accuracy: number;
  /**
   * On 64 repeated random sequences (⌊T/2⌋ tokens, then the same again; Olsson et al. 2022):
   * previousToken [numLayers, numHeads] mean weight from i to i − 1; prefixMatching [numLayers, numHeads]
   * mean weight from a token in the repeat to the token after its earlier occurrence.
   */
  headScores: { previousToken: Matrix; prefixMatching: Matrix };
}

/** An attention-only transformer training on a task in the core (one thread; deterministic for a seed and build). */
export interface Trainer {
  /** The options in effect: the ones given, and the task's defaults for the rest. */
  readonly options: Required<TrainerOptions>;
  /**
   * n (1 … 100,000) AdamW steps, each on a fresh batch; loss: the mean of their training losses (nats). Throws an
   * Error, parameters unchanged, if training diverges.
   */
  step(n?: number): { step: number; loss: number };
  /** Held-out loss and accuracy, and the head scores. */
  evaluate(): TrainerEvaluation;
  /** batchSize (default 1) sequences of the task, from a stream of their own (training is unaffected). */
  sample(batchSize?: number): TrainingBatch;
  /** Attention weights [numLayers, numHeads, T, T] on tokens (1 … seqLen ids; default: one sample of the task). */
  attention(tokens?: ArrayLike<number>): { tokens: Int32Array; weights: Tensor };
  /** logits [T, vocabSize] (row t predicts the token after position t) and their argmax. */
  predict(tokens: ArrayLike<number>): { tokens: Int32Array; logits: Matrix; predictions: Int32Array };
  parameters(): TrainerParameters;
  /**
   * Replaces every parameter (the same names; each data of its tensor's size; finite). The optimizer's moments are
   * kept.
   * RangeError naming the first tensor that is missing or of another size, or a value that is not finite.
   */
  setParameters(parameters: TrainerParameters): void;
  /** The loss of a batch and its gradient for every parameter (the same names and shapes), with no update. */
  lossAndGradients(batch: TrainingBatch): { loss: number; gradients: TrainerParameters };
  /** Replaces a head's output by 0 in every forward pass (training too); on = false restores it. */
  ablate(target: { layer: number; head: number }, on?: boolean): void;
}

/**
 * Every trainer's names and limits (createTrainer's and createLanguageTrainer's), each defined once in the core
 * (cpp/include/attn/train/limits.hpp) and exported from there.
 */
export interface TrainerLimits {
  readonly tasks: TrainingTask[];
  readonly positionalEncodings: ('sinusoidal' | 'learned' | 'none')[];
  /** 4: numLayers 1 … this (kMaxLayers). */
  readonly maxLayers: number;
  /** 16: numHeads 1 … this, a divisor of dModel (kMaxHeads). */
  readonly maxHeads: number;
  /** 512: createTrainer's dModel (kMaxTaskDModel; a language model's is its word vectors' 100). */
  readonly maxDModel: number;
  /** 256: seqLen (kMaxTrainSeqLen). */
  readonly maxSeqLen: number;
  /** 4096: createTrainer's vocabSize (kMaxTaskVocab). */
  readonly maxVocabSize: number;
  /** 2048: createLanguageTrainer's dFF, 0 … this (kMaxFeedForward). */
  readonly maxFeedForward: number;
  /** 1024: batchSize, and the rows of a lossAndGradients batch (kMaxBatchSize). */
  readonly maxBatchSize: number;
  /** 100000: step(n)'s n (kMaxStepsPerCall). */
  readonly maxStepsPerCall: number;
  /** 10⁹: createLanguageTrainer's warmupSteps and totalSteps (kMaxScheduleSteps). */
  readonly maxScheduleSteps: number;
  /** 10⁹: languageTrainer.evaluate()'s maxTokens (kMaxEvalTokens). */
  readonly maxEvalTokens: number;
  /** 256: sequences of a task's held-out set (kEvalSequences). */
  readonly evalSequences: number;
  /** 64: sequences of the head scores' probe (kProbeSequences). */
  readonly probeSequences: number;
  /** 1 … 32768: createLanguageTrainer's outputWords (kMinOutputWords, kMaxOutputWords). */
  readonly minOutputWords: number;
  readonly maxOutputWords: number;
}
