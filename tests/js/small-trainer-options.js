// The options of a language trainer small enough for a test to train in a second (createLanguageTrainer), on the
// public-domain English fixture: shared by the tests that train one.
import { readFileSync } from 'node:fs';

/** The fixture's lines, without its comment lines. */
export const TEXT = readFileSync(new URL('../fixtures/public-domain-english.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .join('\n');

/** One layer, a narrow feed-forward layer, windows of 8, 200 output words. */
export const SMALL = { numLayers: 1, dFF: 32, seqLen: 8, batchSize: 8, outputWords: 200, warmupSteps: 5, text: TEXT };
