// "Why this word?": for one prediction of a trained model's Run (the decoder's next word after a position, or the
// encoder's word at a blank), how its log-probability changes when each head is switched off (knocked out; Michel et
// al. 2019, "Are Sixteen Heads Really Better than One?") and when each earlier word is replaced by [MASK] (occlusion,
// Zeiler & Fergus 2014 §4.2). One core call (languageModel attribute(): L·H + T forward passes), made when the learner
// points at or chooses a predicted word, never per keystroke.
import { headName } from '../views/labels.js';

/**
 * Whether `why` (attributeRun's result) was measured on this Run: the same text read and the same heads off.
 * @param {object | undefined} why  @param {import('./run.js').Run} run  @returns {boolean}
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

/**
 * Measures why `model` predicted `word` at `position` on the Run's text, with the Run's heads off.
 * @param {object} model  the Run's core.languageModel(kind)
 * @param {import('./run.js').Run} run  a trained model's Run (its text, tokens and knockout)
 * @param {{ position: number, word: string }} choice  position: the prediction's token position (decoder: the word after
 *   it; encoder: a [MASK]); word: one of the model's output words ('<unk>' included)
 * @returns {{ text: string, knockoutKey: string, position: number, word: string, logProb: number,
 *   heads: { layer: number, head: number, name: string, delta: number, off: boolean }[],
 *   tokens: { text: string, delta: number, masked: boolean, after: boolean }[] }}  logProb: ln p(word), nats; each delta:
 *   ln p(word) with that head also off (or that token replaced by [MASK]) minus logProb, in nats; off: the head was already
 *   off (delta 0); masked: the token is a [MASK] already (delta 0); after: the decoder cannot see it (delta 0)
 * @throws RangeError from attribute() (a position or word it does not have)
 */
export function attributeRun(model, run, { position, word }) {
  const knockout = run.knockout ?? [];
  const r = model.attribute(run.text, { position, word, ablate: knockout });
  const { numHeads } = model.config;
  const off = new Set(knockout.map(({ layer, head }) => layer * numHeads + head));
  return {
    text: run.text,
    knockoutKey: knockoutKey(knockout),
    position: r.position,
    word,
    logProb: r.logProb,
    heads: Array.from(r.heads, (delta, i) => {
      const ref = { layer: Math.floor(i / numHeads), head: i % numHeads };
      return { ...ref, name: headName(ref), delta, off: off.has(i) };
    }),
    tokens: run.tokens.map((token, t) => ({
      text: token.masked ? '[MASK]' : token.text,
      delta: r.occlusion[t],
      masked: token.masked,
      after: run.causal && t > r.position,
    })),
  };
}
