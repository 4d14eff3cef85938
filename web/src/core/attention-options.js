// The options the attention functions take (attention, multiHeadAttention, multiHeadLayer's forward,
// explain, the lessons), checked the same way everywhere. Their limits come from the core (limits.js).
import * as check from './checks.js';

/** The option names the attention functions share (not an enum of the core: keys of the options object). */
export const ATTENTION_OPTIONS = ['causal', 'validLength', 'temperature', 'scale'];

/**
 * causal (default false), validLength (0 … limits.maxSeqLen, default none), temperature (> 0, default 1),
 * scale (divide by √d_k, default true), checked; limits: core.limits (limits.js).
 * @throws TypeError / RangeError naming the option.
 */
export function attentionOptions(options, where, limits) {
  const { causal = false, validLength, temperature = 1, scale = true } = options;
  return {
    causal: check.boolean(causal, where, 'causal'),
    validLength:
      validLength === undefined ? undefined : check.integerIn(validLength, where, 'validLength', 0, limits.maxSeqLen),
    temperature: check.finiteIn(temperature, where, 'temperature', { above: 0 }),
    scale: check.boolean(scale, where, 'scale'),
  };
}
