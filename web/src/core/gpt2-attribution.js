// "Why this word?" for a GPT-2 checkpoint (gpt2.js): ln p(word) at a position, and how it changes when one more head is
// knocked out (Michel et al. 2019 §3) and when one token's input row is the mean token embedding (occlusion, Zeiler &
// Fergus 2014 §4.2; GPT-2 has no [MASK], and the mean row is what our models' [MASK] input is for GloVe words). Each
// measurement is one forward pass in the core (cpp/include/attn/train/gpt2.hpp log_prob_at): 1 + L·H + (position + 1)
// of them (a head of layer l runs from the base pass's residual stream at layer l: L − l blocks). attribution() hands
// them out one at a time (a generator), so a page can run them between frames and stop when the text changes;
// attribute() runs them all, as our models' does.
import * as check from './checks.js';
import { checkAblate } from './knockout.js';
import { unwrap } from './wasm-module.js';

/**
 * attribution() and attribute() over the core's GPT-2 model `id` (gpt2.d.ts documents both).
 * @param {object} wasm  the module
 * @param {number} id  the core's model
 * @param {{ numLayers: number, numHeads: number, vocabSize: number,
 *   tokenize: (text: string, where: string) => { ids: Int32Array, tokens: object[] },
 *   encode: (text: string) => number[], piece: (id: number) => string }} model
 */
export function gpt2AttributionMethods(wasm, id, { numLayers, numHeads, vocabSize, tokenize, encode, piece }) {
  /** The token `word` names: an id in [0, V), or a piece that is exactly one token (" storm", with its space). */
  function tokenId(word, where) {
    if (typeof word === 'number') return check.integerIn(word, where, 'word', 0, vocabSize - 1);
    if (typeof word !== 'string')
      throw new TypeError(`${where}: word must be a token id or a piece, got ${typeof word}`);
    const ids = encode(word);
    if (ids.length !== 1)
      throw new RangeError(`${where}: word '${word}' is not one GPT-2 token (it encodes to ${ids.length})`);
    return ids[0];
  }

  function attribution(text, options) {
    const where = 'languageModel.attribute';
    check.knownOptions(options, where, ['position', 'word', 'ablate']);
    const heads = checkAblate(options.ablate ?? [], where, numLayers, numHeads);
    const wordId = tokenId(options.word, where);
    const { ids, tokens } = tokenize(text, where);
    const T = ids.length;
    const position = check.integerIn(options.position, where, 'position', -T, T - 1);
    const at = position < 0 ? T + position : position;
    const off = new Set(heads.map(({ layer, head }) => layer * numHeads + head));
    const total = 1 + numLayers * numHeads - off.size + at + 1;
    // One pass: the heads of `heads` off, and alsoOff too; token `occlude`'s row the mean embedding (−1: none).
    const logProbOf = (alsoOff = null, occlude = -1) =>
      unwrap(wasm.gpt2LogProbAt(id, ids, at, wordId, heads, alsoOff, occlude), where);
    return (function* passes() {
      let done = 0;
      const logProb = logProbOf();
      yield { done: ++done, total };
      const headDeltas = new Float64Array(numLayers * numHeads);
      for (let i = 0; i < headDeltas.length; ++i) {
        if (off.has(i)) continue; // already off: knocking it out again changes nothing
        headDeltas[i] = logProbOf({ layer: Math.floor(i / numHeads), head: i % numHeads }) - logProb;
        yield { done: ++done, total };
      }
      const occlusion = new Float64Array(T); // 0 after the position: the causal mask hides those tokens
      for (let t = 0; t <= at; ++t) {
        occlusion[t] = logProbOf(null, t) - logProb;
        yield { done: ++done, total };
      }
      return { tokens, position: at, word: piece(wordId), id: wordId, logProb, heads: headDeltas, occlusion };
    })();
  }

  function attribute(text, options) {
    const passes = attribution(text, options);
    for (;;) {
      const step = passes.next();
      if (step.done) return step.value;
    }
  }

  return { attribution, attribute };
}
