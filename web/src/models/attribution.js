// "Why this word?": for one prediction of a model's Run (the decoder's next word after a position, or the encoder's
// word at a blank), how its log-probability changes when each head is switched off (knocked out; Michel et al. 2019,
// "Are Sixteen Heads Really Better than One?") and when each earlier word is hidden (occlusion, Zeiler & Fergus 2014
// §4.2, words for image patches): replaced by [MASK] in our models, by the mean token embedding in a checkpoint, which
// has no [MASK]. L·H + T forward passes, made when the learner points at or chooses a predicted word, never per
// keystroke: one core call for our models (milliseconds), one pass at a time for a checkpoint (GPT-2 small: ~0.1 s a
// pass), so that the page stays responsive and can stop when the sentence changes.
import { headName } from '../views/labels.js';
import { pieceOf, readingOf, readsPieces } from './pieces.js';

/**
 * What a measurement on `run` is a measurement of: its text as read, and its heads off (as one string).
 * @param {import('./run.js').Run} run  @returns {{ text: string, knockoutKey: string }}
 */
export function measurementKey(run) {
  return { text: run.text, knockoutKey: knockoutKey(run.knockout ?? []) };
}

/**
 * Whether `why` (attributeRun's result, or a measurement under way: measurementKey's fields) was measured on this Run:
 * the same text read and the same heads off.
 * @param {{ text: string, knockoutKey: string } | null | undefined} why  @param {import('./run.js').Run} run
 * @returns {boolean}
 */
export function measuredOn(why, run) {
  return Boolean(why) && why.text === run.text && why.knockoutKey === knockoutKey(run.knockout ?? []);
}

/** The knocked-out heads as one string ("0,1;1,3", in layer-major order), to compare two lists. */
function knockoutKey(knockout) {
  return knockout
    .map(({ layer, head }) => [layer, head])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .join(';');
}

/** What a hidden word becomes, by the model's tokens: a checkpoint of BPE pieces has no [MASK] (gpt2.hpp log_prob_at). */
const HIDDEN = {
  words: { name: '[MASK]', what: 'the mean word vector' },
  pieces: { name: 'the mean embedding', what: 'the mean of the checkpoint’s token embeddings' },
};

/**
 * Measures why `model` predicted `word` at `position` on the Run's text, with the Run's heads off: a generator whose
 * steps are the forward passes still to make ({ done, total }: a checkpoint's, one a step; our models' run in one step)
 * and whose return value is the measurement.
 * @param {object} model  the Run's core.languageModel(kind)
 * @param {import('./run.js').Run} run  a trained model's Run (its text, tokens and knockout)
 * @param {{ position: number, word: string }} choice  position: the prediction's token position (decoder: the word after
 *   it; encoder: a [MASK]); word: one of the model's output words as the page shows it ('<unk>' included; a piece with
 *   "␣" for its leading space, pieces.js shownToken)
 * @returns {Generator<{ done: number, total: number }, { text: string, knockoutKey: string, position: number,
 *   word: string, logProb: number, context: string, hidden: { name: string, what: string },
 *   heads: { layer: number, head: number, name: string, delta: number, off: boolean }[],
 *   tokens: { text: string, delta: number, masked: boolean, after: boolean }[] }>}  logProb: ln p(word), nats; each
 *   delta: ln p(word) with that head also off (or that token hidden) minus logProb, in nats; off: the head was already
 *   off (delta 0); masked: the token is a [MASK] already (delta 0); after: the decoder cannot see it (delta 0); context:
 *   the text up to the position, as the model read it; hidden: what a hidden token becomes
 * @throws RangeError from attribute() (a position or word it does not have), at the first step
 */
export function* attributeRun(model, run, { position, word }) {
  const knockout = run.knockout ?? [];
  const options = { position, word: pieceOf(word, model.config), ablate: knockout };
  const r = model.attribution ? yield* model.attribution(run.text, options) : model.attribute(run.text, options);
  const { numHeads } = model.config;
  const off = new Set(knockout.map(({ layer, head }) => layer * numHeads + head));
  return {
    ...measurementKey(run),
    position: r.position,
    word,
    logProb: r.logProb,
    context: readingOf(r.tokens.slice(0, r.position + 1), model.config),
    hidden: HIDDEN[readsPieces(model.config) ? 'pieces' : 'words'],
    heads: Array.from(r.heads, (delta, i) => {
      const ref = { layer: Math.floor(i / numHeads), head: i % numHeads };
      return { ...ref, name: headName(ref), delta, off: off.has(i) };
    }),
    tokens: run.tokens.map((token, t) => ({
      text: token.masked ? '[MASK]' : token.text, // as the Run shows it
      delta: r.occlusion[t],
      masked: token.masked,
      after: run.causal && t > r.position,
    })),
  };
}
