// The fast paths: the core's packed kernels reached through wasm memory (cpp/bindings/layer_bindings.cpp).
// Inputs are copied straight into wasm memory at an address the core gives, options pass as plain
// numbers, and only the output is copied out: no JS object crosses per call.
//   multiHeadLayer()        multi-head self-attention with fixed weights: packed once, forward often;
//   multiHeadAttention()    the same, weights copied in per call and packed when they change (no position information);
//   attention()             one head with softmax.
// The last two return null where they do not apply or on any error: the caller then runs the
// reference path, which computes the unusual cases (float32 overflow, empty shapes) and names bad
// arguments. The rest of their result (weights, scores, per-head steps) is computed by the reference
// path when first read, from the caller's arrays, checked to be unchanged since the call by a hash
// taken then (layer_bindings.cpp inputHash): copying them at every call costs more than the attention
// in Chromium (fresh memory page-faults).
import { ATTENTION_OPTIONS, attentionOptions } from './attention-options.js';
import * as check from './checks.js';
import { unwrap } from './wasm-module.js';

/** The fast paths on `wasm`: multiHeadLayer (the core's export), multiHeadAttention and attention (see above). */
export function fastPaths(wasm, limits) {
  /** A float index into wasm.HEAPF32 from a byte address the core returned; 0 means an error, thrown here. */
  const fromMemory = (address) => (address === 0 ? unwrap(wasm.lastLayerError()) : address / 4);
  const layers = new FinalizationRegistry((id) => wasm.releaseLayer(id));

  /**
   * Weights checked (their values too unless `values` is false: already checked; the core checks them
   * as well), copied into wasm memory and packed there: { id, dModel }. cached: the core's one layer for
   * multiHeadAttention, reused while the weights are the same (layer_bindings.cpp); not to be released.
   */
  function prepare({ numHeads, wQ, wK, wV, wO }, where, { values = true, cached = false } = {}) {
    const dModel = check.matrix(wQ, where, 'wQ', { values }).shape[0];
    const heads = check.integerIn(numHeads, where, 'numHeads', 1, limits.maxHeads);
    const weights = [
      ['wQ', wQ],
      ['wK', wK],
      ['wV', wV],
      ['wO', wO],
    ];
    for (const [name, w] of weights) {
      const [rows, cols] = check.matrix(w, where, name, { values }).shape;
      if (rows !== dModel || cols !== dModel) {
        throw new RangeError(
          `${where}: ${name} must be [dModel, dModel] = [${dModel}, ${dModel}] (dModel from wQ), got [${rows}, ${cols}]`,
        );
      }
    }
    const at = fromMemory(wasm.layerWeightsInput(dModel));
    weights.forEach(([, w], k) => wasm.HEAPF32.set(w.data, at + k * dModel * dModel));
    const id = cached ? wasm.prepareCachedLayer(heads, dModel) : wasm.prepareLayer(heads, dModel);
    if (id === 0) unwrap(wasm.lastLayerError());
    return { id, dModel };
  }

  /** One forward of prepared layer `id`: { output, weights? } (options checked here, values by the core). */
  function forward(id, dModel, numHeads, input, options, where) {
    check.knownOptions(options, where, [...ATTENTION_OPTIONS, 'returnWeights']);
    // the core checks the values (finite), naming the first bad cell
    const [n, width] = check.matrix(input, where, 'input', { values: false }).shape;
    if (width !== dModel) throw new RangeError(`${where}: input must have dModel = ${dModel} columns, got ${width}`);
    const returnWeights = check.boolean(options.returnWeights ?? false, where, 'returnWeights');
    const { causal, validLength, temperature, scale } = attentionOptions(options, where, limits);
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
    const layer = {
      numHeads,
      dModel,
      forward: (input, options = {}) => forward(id, dModel, numHeads, input, options, 'forward'),
    };
    layers.register(layer, id);
    return layer;
  }

  /**
   * The rest of a fast call's result as getters: the first read checks that `tensors` (the inputs just
   * copied into wasm memory) hold what they held at the call, then runs `compute` once.
   * @throws RangeError on a read after the caller changed the inputs
   */
  function lazyResult(output, fields, tensors, compute, where) {
    const hash = wasm.inputHash();
    const lengths = tensors.map(({ data }) => data.length);
    let trace;
    const full = () => {
      if (trace) return trace;
      const changed = () =>
        new RangeError(
          `${where}: ${tensors.length > 1 ? 'the inputs' : 'the input'} changed after the call; ` +
            "read the result's fields before changing the arrays passed",
        );
      if (tensors.some(({ data }, k) => data.length !== lengths[k])) throw changed();
      let at = wasm.scratchInput(lengths.reduce((a, b) => a + b, 0)) / 4;
      if (at === 0) unwrap(wasm.lastLayerError());
      for (const { data } of tensors) {
        wasm.HEAPF32.set(data, at);
        at += data.length;
      }
      if (wasm.inputHash() !== hash) throw changed();
      return (trace = compute());
    };
    const result = { output };
    for (const field of fields) Object.defineProperty(result, field, { get: () => full()[field], enumerable: true });
    return result;
  }

  // The weights' snapshot of the cached layer (layer_bindings.cpp) as one JS object shared by every result
  // computed with those weights; its wasm copy is released when no result holds it any more.
  const snapshots = new FinalizationRegistry((id) => wasm.releaseSnapshot(id));
  let snapshot = { id: 0 };

  /**
   * multiHeadAttention's result: output from the cached layer (the weights copied in on every call,
   * packed only when they differ from the last call's; kept in wasm for the trace), weights, scores,
   * concat and heads on first read; null: use the reference. Arguments already checked.
   */
  function multiHeadAttention({ input, numHeads, wQ, wK, wV, wO, causal, validLength, temperature, scale }) {
    if (input.data.length === 0 || wQ.shape[0] !== input.shape[1]) return null;
    let output;
    try {
      const { id, dModel } = prepare({ numHeads, wQ, wK, wV, wO }, 'multiHeadAttention', {
        values: false,
        cached: true,
      });
      output = forward(
        id,
        dModel,
        numHeads,
        input,
        { causal, validLength, temperature, scale },
        'multiHeadAttention',
      ).output;
    } catch {
      return null;
    }
    if (wasm.cachedSnapshot() !== snapshot.id) {
      snapshot = { id: wasm.cachedSnapshot() };
      snapshots.register(snapshot, snapshot.id);
    }
    const held = snapshot;
    const args = { input, numHeads, causal, validLength, temperature, scale };
    return lazyResult(
      output,
      ['weights', 'scores', 'concat', 'heads'],
      [input],
      () => unwrap(wasm.multiHeadAttentionSnapshot({ ...args, snapshot: held.id })),
      'multiHeadAttention',
    );
  }

  /**
   * attention()'s result for softmax weights: output [n, d_v] from the kernels, dotProducts, scores and
   * weights on first read; null: use the reference. Arguments already checked.
   */
  function attention(args) {
    const { queries, keys, values, causal, validLength, temperature, scale } = args;
    const [n, dK] = queries.shape,
      [m, dV] = values.shape;
    if (n === 0 || m === 0 || dK === 0 || dV === 0 || keys.shape[0] !== m || keys.shape[1] !== dK) return null;
    const at = wasm.headInput(n, m, dK, dV) / 4;
    if (at === 0) return null;
    wasm.HEAPF32.set(queries.data, at);
    wasm.HEAPF32.set(keys.data, at + n * dK);
    wasm.HEAPF32.set(values.data, at + (n + m) * dK);
    const out = wasm.attentionHead(n, m, dK, dV, causal, validLength ?? -1, temperature, scale) / 4;
    if (out === 0) return null;
    const output = { data: wasm.HEAPF32.slice(out, out + n * dV), shape: [n, dV] };
    return lazyResult(
      output,
      ['dotProducts', 'scores', 'weights'],
      [queries, keys, values],
      () => unwrap(wasm.attention(args)),
      'attention',
    );
  }

  return { multiHeadLayer, multiHeadAttention, attention };
}
