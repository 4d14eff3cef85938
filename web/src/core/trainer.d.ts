// Types of core.createTrainer() (web/src/core/trainer.js): an attention-only transformer trained in the core.
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

/** Parameters of the attention-only transformer (Elhage et al. 2021), copies. */
export interface TrainerParameters {
  /** E [vocabSize, dModel]. */
  embedding: Matrix;
  /** The learned P [seqLen, dModel] (positionalEncoding 'learned' only). */
  positional?: Matrix;
  /** Per layer, each [dModel, dModel]: Q = x · wQ, …; x ← x + concat(heads) · wO. */
  layers: { wQ: Matrix; wK: Matrix; wV: Matrix; wO: Matrix }[];
  /** U [dModel, vocabSize]: logits = x_L · U (not tied to E). */
  unembedding: Matrix;
}

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
  /** n (1 … 100,000) AdamW steps, each on a fresh batch; loss: the mean of their training losses (nats). Throws an Error, parameters unchanged, if training diverges. */
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
  /** Replaces every parameter (same structure and shapes; finite). The optimizer's moments are kept. */
  setParameters(parameters: TrainerParameters): void;
  /** The loss of a batch and its gradient for every parameter (same structure), with no update. */
  lossAndGradients(batch: TrainingBatch): { loss: number; gradients: TrainerParameters };
  /** Replaces a head's output by 0 in every forward pass (training too); on = false restores it. */
  ablate(target: { layer: number; head: number }, on?: boolean): void;
}

/** The trainer's names and limits, from the core. */
export interface TrainerLimits {
  readonly tasks: TrainingTask[];
  readonly positionalEncodings: ('sinusoidal' | 'learned' | 'none')[];
  readonly maxLayers: number;
  readonly maxHeads: number;
  readonly maxDModel: number;
  readonly maxSeqLen: number;
  readonly maxVocabSize: number;
  readonly maxBatchSize: number;
  readonly maxStepsPerCall: number;
  readonly evalSequences: number;
  readonly probeSequences: number;
}
