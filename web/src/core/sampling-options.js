// The sampling options every language model's sample(), generate() and run({ sampling }) take, checked once against
// the core's limits (cpp/include/attn/train/sampling.hpp).
import * as check from './checks.js';

/**
 * Checks temperature (in [minOutputTemperature, maxOutputTemperature], default 1), topK (an integer in
 * [0, maxSampleTopK]; 0: every word) and seed (an integer in [0, maxSampleSeed]), and that no other option is given.
 * @param {object} options @param {string} where names the function in messages
 * @param {string[]} allowed the options this function takes
 * @param {{ minOutputTemperature: number, maxOutputTemperature: number, maxSampleTopK: number, maxSampleSeed: number }}
 *   limits core.languageModelLimits
 * @throws {RangeError | TypeError} naming the option and its range
 */
export function checkSampling(options, where, allowed, limits) {
  check.knownOptions(options, where, allowed);
  const { temperature = 1, topK = 0, seed = 0 } = options;
  check.finiteIn(temperature, where, 'temperature', {
    min: limits.minOutputTemperature,
    max: limits.maxOutputTemperature,
  });
  check.integerIn(topK, where, 'topK', 0, limits.maxSampleTopK);
  check.integerIn(seed, where, 'seed', 0, limits.maxSampleSeed);
}
