// The fast paths: the core's packed kernels reached through wasm memory (cpp/bindings/layer_bindings.cpp).
// Inputs are copied straight into wasm memory at an address the core gives, options pass as plain
// numbers, and only the output is copied out: no JS object crosses per call.
//   multiHeadLayer()        multi-head self-attention with fixed weights: packed once, forward often;
//   multiHeadAttention()    the same, weights packed per call (no position information);
//   attentionHead()         attention()'s one head with softmax.
// The last two return null where they do not apply or on any error: the caller then runs the
// reference path, which computes the unusual cases (float32 overflow, empty shapes) and names bad
// arguments. The rest of a result (weights, scores, per-head steps) is computed when first read.
import { ATTENTION_OPTIONS, MAX_D_MODEL, attentionOptions } from './attention-options.js';
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/**
 * A result whose `fields` are computed when first read: getters over one call of `compute` (memoized);
 * `result`'s own fields (the output) are there at once.
 */
export function lazyTrace(result, compute, fields) {
  let trace;
  for (const field of fields) {
    Object.defineProperty(result, field, { get: () => (trace ??= compute())[field], enumerable: true });
  }
  return result;
}

/** `args` with copies of the tensors named: a lazy trace sees the inputs as they were at the call. */
export function copyTensors(args, names) {
  const copy = { ...args };
  for (const name of names) copy[name] = { data: args[name].data.slice(), shape: [...args[name].shape] };
  return copy;
}

/** The fast paths on `wasm`: multiHeadLayer (the core's export), multiHeadAttention and attentionHead (see above). */
export function fastPaths(wasm) {
  /** A float index into wasm.HEAPF32 from a byte address the core returned; 0 means an error, thrown here. */
  const fromMemory = (address) => (address === 0 ? unwrap(wasm.lastLayerError()) : address / 4);
  const layers = new FinalizationRegistry((id) => wasm.releaseLayer(id));

  /** Weights checked (values too unless `values` is false: already checked), copied and packed in wasm: { id, dModel }. */
  function prepare({ numHeads, wQ, wK, wV, wO }, where, values = true) {
    const dModel = check.matrix(wQ, where, 'wQ', { values }).shape[0];
    const id = unwrap(wasm.prepareLayer({
      numHeads: check.integerIn(numHeads, where, 'numHeads', 1, MAX_D_MODEL),
      wQ, wK: check.matrix(wK, where, 'wK', { values }), wV: check.matrix(wV, where, 'wV', { values }), wO: check.matrix(wO, where, 'wO', { values }),
    }));
    return { id, dModel };
  }

  /** One forward of prepared layer `id`: { output, weights? } (options checked here, values by the core). */
  function forward(id, dModel, numHeads, input, options, where) {
    check.knownOptions(options, where, [...ATTENTION_OPTIONS, 'returnWeights']);
    // the core checks the values (finite), naming the first bad cell
    const [n, width] = check.matrix(input, where, 'input', { values: false }).shape;
    if (width !== dModel) throw new RangeError(`${where}: input must have dModel = ${dModel} columns, got ${width}`);
    const returnWeights = check.boolean(options.returnWeights ?? false, where, 'returnWeights');
    const { causal, validLength, temperature, scale } = attentionOptions(options, where);
    // One copy in, one out, through wasm memory (re-read after each call: memory may grow)
    const at = fromMemory(wasm.layerInput(id, n));
    wasm.HEAPF32.set(input.data, at);
    const out = fromMemory(wasm.forwardLayer(id, n, causal, validLength ?? -1, temperature, scale, returnWeights));
    const result = { output: { data: wasm.HEAPF32.slice(out, out + n * dModel), shape: [n, dModel] } };
    if (returnWeights) {
      const w = wasm.layerWeights() / 4;
      result.weights = { data: wasm.HEAPF32.slice(w, w + numHeads * n * n), shape: [numHeads, n, n] };
    }
    return result;
  }

  /**
   * Multi-head self-attention with fixed weights, for speed: the weights are checked, copied and
   * packed once; each forward() copies the input in and the output out, and reuses its workspace.
   * Same mathematics as multiHeadAttention(). Nothing to free: the layer's memory is released when
   * the returned object is garbage-collected.
   * @param {{ numHeads: number, wQ, wK, wV, wO }} weights  each [dModel, dModel]
   * @returns {{ numHeads: number, dModel: number, forward(input, options?): { output, weights? } }}
   *   forward: input [seqLen, dModel] → output [seqLen, dModel]; options causal, validLength,
   *   temperature, scale as for attention(), and returnWeights (default false) for the weights
   *   [numHeads, seqLen, seqLen].
   * @throws RangeError if numHeads does not divide dModel, a weight is not [dModel, dModel] or not finite;
   *   forward: if the input is not [seqLen, dModel], holds NaN or ±∞ (the first such cell is named:
   *   "input[i, j] is NaN"), or an option is out of range.
   */
  function multiHeadLayer(weights = {}) {
    const { id, dModel } = prepare(weights, 'multiHeadLayer');
    const { numHeads } = weights;
    const layer = { numHeads, dModel, forward: (input, options = {}) => forward(id, dModel, numHeads, input, options, 'forward') };
    layers.register(layer, id);
    return layer;
  }

  /** multiHeadAttention's output, weights packed for this call and released after it; null: use the reference. Arguments already checked. */
  function multiHeadAttention({ input, numHeads, wQ, wK, wV, wO, causal, validLength, temperature, scale }) {
    if (input.data.length === 0 || wQ.shape[0] !== input.shape[1]) return null;
    let id;
    try {
      ({ id } = prepare({ numHeads, wQ, wK, wV, wO }, 'multiHeadAttention', false));
      return forward(id, wQ.shape[0], numHeads, input, { causal, validLength, temperature, scale }, 'multiHeadAttention').output;
    } catch {
      return null;
    } finally {
      if (id !== undefined) wasm.releaseLayer(id);
    }
  }

  /** attention()'s output for softmax weights [n, d_v]; null: use the reference. Arguments already checked. */
  function attentionHead({ queries, keys, values, causal, validLength, temperature, scale }) {
    const [n, dK] = queries.shape, [m, dV] = values.shape;
    if (n === 0 || m === 0 || dK === 0 || dV === 0 || keys.shape[0] !== m || keys.shape[1] !== dK) return null;
    const at = wasm.headInput(n, m, dK, dV) / 4;
    if (at === 0) return null;
    wasm.HEAPF32.set(queries.data, at);
    wasm.HEAPF32.set(keys.data, at + n * dK);
    wasm.HEAPF32.set(values.data, at + (n + m) * dK);
    const out = wasm.attentionHead(n, m, dK, dV, causal, validLength ?? -1, temperature, scale) / 4;
    return out === 0 ? null : { data: wasm.HEAPF32.slice(out, out + n * dV), shape: [n, dV] };
  }

  return { multiHeadLayer, multiHeadAttention, attentionHead };
}
