// core.multiHeadLayer(): multi-head self-attention with fixed weights, the fast path. The weights cross
// into wasm once; each forward() copies the input straight into wasm memory at an address the core
// gives, passes the options as plain numbers and copies the output out: no JS object crosses per call
// (cpp/bindings/layer_bindings.cpp). multiHeadAttention() runs the same path once per call (forwardOnce).
import { ATTENTION_OPTIONS, MAX_D_MODEL, attentionOptions } from './attention-options.js';
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/** The fast path's functions on `wasm`: multiHeadLayer (the core's export) and forwardOnce (for multiHeadAttention). */
export function layerFactory(wasm) {
  /** A float index into wasm.HEAPF32 from a byte address the core returned; 0 means an error, thrown here. */
  const fromMemory = (address) => (address === 0 ? unwrap(wasm.lastLayerError()) : address / 4);
  const layers = new FinalizationRegistry((id) => wasm.releaseLayer(id));

  /** Weights checked, copied and packed in wasm: { id, dModel }. */
  function prepare({ numHeads, wQ, wK, wV, wO }, where) {
    const dModel = check.matrix(wQ, where, 'wQ').shape[0];
    const id = unwrap(wasm.prepareLayer({
      numHeads: check.integerIn(numHeads, where, 'numHeads', 1, MAX_D_MODEL),
      wQ, wK: check.matrix(wK, where, 'wK'), wV: check.matrix(wV, where, 'wV'), wO: check.matrix(wO, where, 'wO'),
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

  /** The same, for weights used once: prepared, run on `input` and released before returning. */
  function forwardOnce(weights, input, options, where) {
    const { id, dModel } = prepare(weights, where);
    try {
      return forward(id, dModel, weights.numHeads, input, options, where);
    } finally {
      wasm.releaseLayer(id);
    }
  }

  return { multiHeadLayer, forwardOnce };
}
