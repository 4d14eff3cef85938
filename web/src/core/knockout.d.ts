// Types of a language model's knockout and "why this word?" (knockout.js; cpp/src/train/language_model_knockout.cpp):
// which heads are switched off, and what each head and each token does to one prediction.
import type { LanguageToken } from './language-model.js';

/** A head of a model: layer and head, both counted from 0. */
export interface HeadRef {
  layer: number;
  head: number;
}

export interface AttributeOptions {
  /**
   * The prediction's token position, in [−T, T) (a negative one counts from the end): the causal model's next word
   * after it, the masked model's word at it (a [MASK]).
   */
  position: number;
  /** One of the model's output words (vocabulary, '<unk>' included); RangeError for another word. */
  word: string;
  /** Heads knocked out in every run, as run()'s ablate (default none). */
  ablate?: HeadRef[];
}

/**
 * "Why this word?" on one text: ln p(word) at a position, and how it changes when one more head is knocked out or one
 * token is replaced by the [MASK] input. Measurements on this text, not an explanation of the model.
 */
export interface Attribution {
  tokens: LanguageToken[];
  /** The position, counted from 0. */
  position: number;
  word: string;
  /** ln p(word) at position with `ablate` applied, in nats. */
  logProb: number;
  /**
   * [numLayers · numHeads], layer-major (heads[layer · numHeads + head]): ln p(word) with that head also knocked out
   * minus logProb, in nats (Michel et al. 2019: one head masked at a time); 0 for a head already in `ablate`.
   */
  heads: Float64Array;
  /**
   * [T]: ln p(word) with token t's input row replaced by the [MASK] input minus logProb, in nats (occlusion, Zeiler &
   * Fergus 2014 §4.2). The [MASK] row is the frozen mean word vector for both models; the causal model never saw it in
   * training, so for it the replacement is a neutral "average word". 0 for a token that is [MASK] already and, for the
   * causal model, for tokens after the position (it cannot see them).
   */
  occlusion: Float64Array;
}
