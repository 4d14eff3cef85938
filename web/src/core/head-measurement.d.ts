// What a trained language model's heads do, measured (cpp/include/attn/train/head_statistics.hpp): on text
// (LanguageModel.measureHeads, config.heads) and on repeated random words (LanguageModel.repeatedWords).

export interface HeadMeasurement {
  layer: number;
  head: number;
  previous: number;
  next: number;
  self: number;
  first: number;
  sameWord: number;
  prefix: number;
  /**
   * On repeated random words (repeatedWords()'s defaults: 12 words twice, 64 sequences, seed 0), not on the text: the
   * mean weight from a word of the second copy to the word after its first copy. Absent in files measured before it.
   */
  induction?: number;
  entropyBits: number;
  label: 'previous' | 'next' | 'self' | 'first' | 'same word' | 'prefix' | 'induction' | 'mixed';
}

/** One head's scores on repeated random words (LanguageModel.repeatedWords). */
export interface RepeatedWordsHead {
  layer: number;
  head: number;
  /** Mean weight on the word just before, over every word after the first. */
  previous: number;
  /** Mean weight from a word of the second copy on its first occurrence. */
  duplicate: number;
  /** Mean weight from a word of the second copy on the word after its first occurrence (an induction head's). */
  induction: number;
}

export interface RepeatedWords {
  /** R: each sequence is R random words, then the same R again. */
  repeat: number;
  sequences: number;
  /** Layer-major, numLayers · numHeads entries. */
  heads: RepeatedWordsHead[];
  /**
   * Causal model: the mean −ln p (nats) of the first copy's words 2 … R and of the second copy's words 2 … R given the
   * words before them (null for the masked model). A model that copies from context finds the second copy easier.
   */
  firstHalfLoss: number | null;
  secondHalfLoss: number | null;
  /** The first sequence measured, as words of the model's output vocabulary: R random words, then the same R again. */
  example: string[];
}
