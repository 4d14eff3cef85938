// What the positional-encoding lab computes for a state: its positions, the rotation's token pair, and
// the options core.positionalEncodingLab() takes (limits from core.limits).
import { coreLimits } from '../../settings/limits.js';

/** d2l.ai's figure of the encoding's columns (§11.6.2): the lab's "d2l.ai preset" button. */
export const D2L_PRESET = { labDModel: 32, labPositions: 60, labFirstColumn: 6, labBase: 10000 };

/** The lab needs no sentence: with none typed it shows this many positions (more when asked). */
export const POSITIONS_WITHOUT_SENTENCE = 10;

/** The positions the sentence gives the lab: its tokens, or POSITIONS_WITHOUT_SENTENCE when it is empty. */
function sentencePositions(seqLen) {
  return seqLen > 0 ? seqLen : POSITIONS_WITHOUT_SENTENCE;
}

/** Positions the lab shows: at least the sentence, more when asked (up to core.limits.maxLabPositions). */
export function labPositions(state, seqLen) {
  return Math.min(coreLimits().maxLabPositions, Math.max(sentencePositions(seqLen), state.labPositions ?? 0));
}

/** The token pair of the rotation, clamped to the sentence (or to the positions shown without one). */
export function rotationPair(state, seqLen) {
  const last = sentencePositions(seqLen) - 1;
  return { from: Math.min(state.rotationFrom, last), to: Math.min(state.rotationTo, last) };
}

/** The options core.positionalEncodingLab() takes for this state and a sentence of seqLen tokens. */
export function labOptions(state, seqLen) {
  const { from, to } = rotationPair(state, seqLen);
  return {
    positions: labPositions(state, seqLen),
    dModel: state.labDModel,
    base: state.labBase,
    position: from,
    delta: to - from,
  };
}
