// A model's heads on repeated random words (core languageModel repeatedWords(): Olsson et al. 2022's test of induction
// heads, TransformerLens's head detector), measured once per model (the same for every sentence) when a figure asks.
import { readingOf, readsPieces, shownToken } from './pieces.js';

/** Each model's heads on repeated random words: measured once (64 forward passes), the same for every sentence. */
const probes = new WeakMap();

/**
 * A checkpoint's probe on fewer sequences: each is a forward pass of a model as large as GPT-2 small (about 0.1 s at
 * 24 tokens), and the figure is drawn when first seen: 8 keep that to about a second.
 */
const CHECKPOINT_SEQUENCES = 8;

/**
 * The model's languageModel.repeatedWords() at its defaults (a checkpoint's on CHECKPOINT_SEQUENCES), measured the
 * first time it is asked for, with its example as the text the page puts in the box (pieces.js readingOf).
 */
export function repeatedWordsOf(model) {
  if (!probes.has(model)) {
    const probe = model.repeatedWords(readsPieces(model.config) ? { sequences: CHECKPOINT_SEQUENCES } : {});
    const text = readingOf(
      probe.example.map((word) => ({ text: word })),
      model.config,
    );
    probes.set(model, { ...probe, text, example: probe.example.map((word) => shownToken(word, model.config)) });
  }
  return probes.get(model);
}
