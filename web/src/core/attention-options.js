// The options the attention functions take (attention, multiHeadAttention, multiHeadLayer's forward,
// explain, the lessons), checked the same way everywhere, and the size limits they share.
import * as check from './checks.js';

/** Longest sequence a function takes (seq_len), and widest d_model. */
export const MAX_SEQ_LEN = 65536;
export const MAX_D_MODEL = 4096;

export const ATTENTION_OPTIONS = ['causal', 'validLength', 'temperature', 'scale'];

/** The weights' normalizers (normalizer / method options) and the score functions (scoreFunction). */
export const NORMALIZERS = ['softmax', 'sparsemax', 'entmax15', 'hardmax'];
export const SCORE_FUNCTIONS = ['scaledDot', 'dot', 'additive'];
/** Widest hidden layer of the additive score function. */
export const MAX_ADDITIVE_HIDDEN = 1024;

/**
 * causal (default false), validLength (0 … MAX_SEQ_LEN, default none), temperature (> 0, default 1),
 * scale (divide by √d_k, default true), checked; @throws TypeError / RangeError naming the option.
 */
export function attentionOptions(options, where) {
  const { causal = false, validLength, temperature = 1, scale = true } = options;
  return {
    causal: check.boolean(causal, where, 'causal'),
    validLength: validLength === undefined ? undefined : check.integerIn(validLength, where, 'validLength', 0, MAX_SEQ_LEN),
    temperature: check.finiteIn(temperature, where, 'temperature', { above: 0 }),
    scale: check.boolean(scale, where, 'scale'),
  };
}
