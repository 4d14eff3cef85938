// languageModel.generate(): the causal model writes on after a text, one sampled word at a time (sample(), the
// core's draw: cpp/include/attn/train/sampling.hpp), each word joined to the text as the tokenizer reads it back, so
// that the next step and a reader see the same tokens; the seed advances by one a word, as the page's Generate does.
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/** The options generate() takes: sample()'s, and how many words. */
const OPTIONS = ['n', 'temperature', 'topK', 'seed', 'ablate'];

/** A word that reads as part of the word before it: punctuation, a clitic ('s, 'd, n't), a closing bracket. */
function gluesOn(word) {
  return /^[^\p{L}\p{N}([{"`]/u.test(word) || /^n't$/i.test(word);
}

/** The token texts of `text` as the core's tokenizer reads it (lower case: the word vectors' case). */
function tokenTexts(wasm, text) {
  return unwrap(wasm.tokenize(text)).map((token) => token.text.toLowerCase());
}

/**
 * `text` with `word` after it: glued on (a clitic, punctuation) or after a space, whichever the tokenizer reads back as
 * the text's tokens and then `word`; the text's trailing white space is dropped first. If neither does (a word the
 * tokenizer splits), after a space.
 */
export function appendWord(wasm, text, word) {
  const base = text.replace(/\s+$/u, '');
  if (base === '') return word;
  const want = [...tokenTexts(wasm, base), word.toLowerCase()].join('\u0000');
  const glued = `${base}${word}`;
  const spaced = `${base} ${word}`;
  const order = gluesOn(word) ? [glued, spaced] : [spaced, glued];
  return order.find((candidate) => tokenTexts(wasm, candidate).join('\u0000') === want) ?? spaced;
}

/**
 * The generate() method of a causal model: sample(text, options) `n` times, each word appended to the text.
 * @param {object} wasm  the core module @param {(text: string, options: object) => object} sample  the model's sample()
 * @param {{ maxTokens: number, maxSampleSeed: number }} limits  core.languageModelLimits
 */
export function generateMethod(wasm, sample, limits) {
  /**
   * @param {string} text  what the model writes on from (1 … maxTokens − n tokens)
   * @param {{ n?: number, temperature?: number, topK?: number, seed?: number, ablate?: object[] }} [options]
   *   n: words to write, 1 … maxTokens (default 1); the rest as sample() takes them. Word i is drawn with seed + i,
   *   wrapping to 0 after maxSampleSeed.
   * @returns {{ text: string, words: { word: string, id: number, p: number, seed: number }[], nextSeed: number }}
   *   text: the given text and the words, joined as the tokenizer reads them back; p: the word's probability under the
   *   distribution it was drawn from; nextSeed: the seed the next word would use
   * @throws RangeError: an unknown option, n out of range, a text with no token or too long to write n more words
   */
  return function generate(text, options = {}) {
    const where = 'languageModel.generate';
    check.knownOptions(options, where, OPTIONS);
    const { n = 1, seed = 0, ...drawing } = options;
    check.integerIn(n, where, 'n', 1, limits.maxTokens);
    check.integerIn(seed, where, 'seed', 0, limits.maxSampleSeed);
    const tokens = tokenTexts(wasm, check.text(text, where)).length;
    if (tokens === 0) throw new RangeError(`${where}: the text holds no token to write after`);
    if (tokens + n > limits.maxTokens) {
      throw new RangeError(
        `${where}: the text holds ${tokens} tokens; ${n} more would pass the ${limits.maxTokens} the model reads at once`,
      );
    }
    let written = text;
    let next = seed;
    const words = [];
    for (let i = 0; i < n; ++i) {
      const { word, id, p } = sample(written, { ...drawing, seed: next });
      words.push({ word, id, p, seed: next });
      written = appendWord(wasm, written, word);
      next = next >= limits.maxSampleSeed ? 0 : next + 1;
    }
    return { text: written, words, nextSeed: next };
  };
}
