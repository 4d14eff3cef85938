// The widths a head really uses. A projected head splits d_model evenly (Vaswani et al. 2017 §3.2.2:
// d_k = d_v = d_model / h); a designed head keeps the values' d_v but sets its own queries and keys
// (designed_heads.hpp): the semantic head compares whole word vectors (d_k = d_model), the positional
// heads compare sinusoidal encodings of width d_v rounded up to even (the rotation turns (sin, cos) pairs).

/**
 * @param {{ kind: string, queries: { shape: number[] }, values: { shape: number[] } }} head  one head of a trace
 * @returns {{ dK: number, dV: number }} its query/key width and its value width
 */
export function headDims(head) {
  return { dK: head.queries.shape[1], dV: head.values.shape[1] };
}

/** "d_k = 100 · d_v = 25", or "d_k = d_v = 25" when they agree: a head's widths in a line. */
export function headDimsLine(head) {
  const { dK, dV } = headDims(head);
  return dK === dV ? `d_k = d_v = ${dK}` : `d_k = ${dK} · d_v = ${dV}`;
}

/**
 * Why this head's d_k is what it is, as a short phrase for its note: "d_k = 100 ≠ d_v = 25".
 * @param {object} head  one head of a trace
 */
export function headDimsText(head) {
  const { dK, dV } = headDims(head);
  if (dK === dV) return `d_k = d_v = ${dK}`;
  return head.kind === 'semantic' ? `d_k = ${dK} ≠ d_v = ${dV}` : `d_k = ${dK}: d_v = ${dV} rounded up to even`;
}
