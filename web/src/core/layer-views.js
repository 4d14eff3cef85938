// A language model's run as the core returns it, flat, shaped for JS: every layer's attention (L, H, T, T) as one
// T × T view per head, and every block's output (L, T, d) as one tensor per layer, both views into the core's arrays.

/**
 * @param {{ attention: Float32Array, hidden: Float32Array }} r  the core's run: attention (L·H·T·T), hidden (L·T·d)
 * @param {{ numLayers: number, numHeads: number, dModel: number }} sizes  @param {number} T  tokens
 * @returns {{ attention: Float32Array[][], hidden: { shape: [number, number], data: Float32Array }[] }}
 *   attention[l][h]: row i (query i) at [i * T + j]; hidden[l]: [T, dModel]
 */
export function layerViews(r, { numLayers, numHeads, dModel }, T) {
  const attention = Array.from({ length: numLayers }, (_, l) =>
    Array.from({ length: numHeads }, (_, h) =>
      r.attention.subarray((l * numHeads + h) * T * T, (l * numHeads + h + 1) * T * T),
    ),
  );
  const hidden = Array.from({ length: numLayers }, (_, l) => ({
    shape: [T, dModel],
    data: r.hidden.subarray(l * T * dModel, (l + 1) * T * dModel),
  }));
  return { attention, hidden };
}
