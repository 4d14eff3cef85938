// Heads knocked out, and "why this word?" measurements, for a trained language model (core.languageModel():
// language-model.js). The core does the forward passes (cpp/src/train/language_model_knockout.cpp); this file
// checks the arguments first (manifold's bindings.js pattern: cheap checks in JS, typed errors naming the argument).
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/**
 * Checks run()'s and attribute()'s `ablate`: a list of heads { layer, head } (counted from 0) that exist in a model of
 * numLayers × numHeads, none listed twice. Returns a plain copy for the core.
 * TypeError: not an array, an entry not an object, a layer or head not a number; RangeError: an unknown key, a layer
 * outside [0, numLayers), a head outside [0, numHeads), a head listed twice.
 * @param {unknown} ablate @param {string} where @param {number} numLayers @param {number} numHeads
 * @returns {{ layer: number, head: number }[]}
 */
export function checkAblate(ablate, where, numLayers, numHeads) {
  if (!Array.isArray(ablate))
    throw new TypeError(
      `${where}: ablate must be an array of { layer, head }, got ${ablate === null ? 'null' : typeof ablate}`,
    );
  const seen = new Set();
  return ablate.map((entry, i) => {
    const name = `ablate[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new TypeError(`${where}: ${name} must be { layer, head }, got ${entry === null ? 'null' : typeof entry}`);
    check.knownOptions(entry, `${where} ${name}`, ['layer', 'head']);
    check.integerIn(entry.layer, where, `${name}.layer`, 0, numLayers - 1);
    check.integerIn(entry.head, where, `${name}.head`, 0, numHeads - 1);
    const key = entry.layer * numHeads + entry.head;
    if (seen.has(key))
      throw new RangeError(`${where}: ${name}: layer ${entry.layer}, head ${entry.head} is listed twice`);
    seen.add(key);
    return { layer: entry.layer, head: entry.head };
  });
}

/**
 * The attribute() method of a language model (language-model.d.ts documents it): ln p(word) at a position, how it
 * changes when each head is also knocked out (L·H forward passes; Michel et al. 2019) and when each token is replaced
 * by the [MASK] input (T forward passes; occlusion, Zeiler & Fergus 2014 §4.2). One call into the core.
 * @param {object} wasm the module; @param {number} id the core's model; @param {readonly string[]} vocabulary the
 *   output words with '<unk>' last; @param {number} numLayers @param {number} numHeads @param {number} maxTokens
 */
export function attributeMethod(wasm, id, vocabulary, numLayers, numHeads, maxTokens) {
  const ids = new Map(vocabulary.map((word, i) => [word, i]));
  return function attribute(text, options) {
    const where = 'languageModel.attribute';
    check.knownOptions(options, where, ['position', 'word', 'ablate']);
    const { position, word, ablate = [] } = options;
    check.integerIn(position, where, 'position', -maxTokens, maxTokens - 1);
    if (typeof word !== 'string') throw new TypeError(`${where}: word must be a string, got ${typeof word}`);
    if (!ids.has(word))
      throw new RangeError(`${where}: word '${word}' is not in the model's output vocabulary (use '<unk>' for others)`);
    const heads = checkAblate(ablate, where, numLayers, numHeads);
    const r = unwrap(wasm.languageModelAttribute(id, check.text(text, where), position, ids.get(word), heads), where);
    return { tokens: r.tokens, position: r.position, word, logProb: r.logProb, heads: r.heads, occlusion: r.occlusion };
  };
}
