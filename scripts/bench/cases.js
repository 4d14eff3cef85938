// What the benchmark measures, in float32 with a fresh input on every call:
//   MULTI_HEAD  multi-head self-attention forward (projections, scores, softmax, weights·V, concat, W_O)
//               with fixed weights;
//   ONE_HEAD    one head of scaled dot-product attention, softmax(Q Kᵀ / √d_k) V, with fresh queries,
//               keys and values [n, d_k] (d_k = d_model / heads of the same size).

export const SIZES = [
  [8, 64, 2],
  [16, 100, 4],
  [32, 128, 8],
  [64, 256, 8],
  [128, 256, 8],
  [256, 512, 8],
  [512, 512, 8],
];

/** FLOPs of one forward: 4 projections 8·n·d², scores and weights·V 4·n²·d. */
export const flops = (n, d) => 8 * n * d * d + 4 * n * n * d;

/** Deterministic uniform data in [−scale, scale) (a small LCG; benchmark data only). */
export function randomData(size, seed, scale) {
  const data = new Float32Array(size);
  let state = seed >>> 0;
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = ((state / 2 ** 32) * 2 - 1) * scale;
  }
  return data;
}

/** Weights (Glorot-like scale) and a pool of inputs, so every call sees a fresh input. */
export function makeCase(n, d, heads, causal, pool = 4) {
  const limit = Math.sqrt(6 / (2 * d));
  return {
    n,
    d,
    heads,
    causal,
    weights: [1, 2, 3, 4].map((s) => randomData(d * d, s * 7919 + d, limit)),
    inputs: Array.from({ length: pool }, (_, i) => randomData(n * d, 1000 + i, 1)),
  };
}

/** Float64 reference output, for the agreement check. */
export function reference({ n, d, heads, causal, weights: [wq, wk, wv, wo] }, x) {
  const dk = d / heads;
  const matmul = (a, b, rows, inner, cols) => {
    const c = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++)
      for (let p = 0; p < inner; p++) {
        const av = a[i * inner + p];
        for (let j = 0; j < cols; j++) c[i * cols + j] += av * b[p * cols + j];
      }
    return c;
  };
  const [q, k, v] = [wq, wk, wv].map((w) => matmul(x, w, n, d, d));
  const concat = new Float64Array(n * d);
  for (let h = 0; h < heads; h++) {
    const at = (m) => (row, c) => m[row * d + h * dk + c];
    attendHead(n, dk, causal, at(q), at(k), at(v), (i, c, x) => {
      concat[i * d + h * dk + c] += x;
    });
  }
  return matmul(concat, wo, n, d, d);
}

/** One head: queries, keys and values [n, d_k] for each input of the pool, as one array [3, n, d_k]. */
export function makeHeadCase(n, d, heads, causal, pool = 4) {
  const dk = d / heads;
  return {
    n,
    d,
    heads,
    dk,
    causal,
    inputs: Array.from({ length: pool }, (_, i) => randomData(3 * n * dk, 2000 + i, 1)),
  };
}

/**
 * Float64 softmax(Q Kᵀ / √d_k) V of one head, n queries and keys of width dk: q(i, c), k(j, c), v(j, c)
 * read the operands; add(i, c, x) receives the output's terms.
 */
function attendHead(n, dk, causal, q, k, v, add) {
  for (let i = 0; i < n; i++) {
    const limit = causal ? i + 1 : n;
    const s = new Float64Array(limit);
    let max = -Infinity;
    for (let j = 0; j < limit; j++) {
      let dot = 0;
      for (let c = 0; c < dk; c++) dot += q(i, c) * k(j, c);
      s[j] = dot / Math.sqrt(dk);
      max = Math.max(max, s[j]);
    }
    let sum = 0;
    for (let j = 0; j < limit; j++) sum += s[j] = Math.exp(s[j] - max);
    for (let j = 0; j < limit; j++) for (let c = 0; c < dk; c++) add(i, c, (s[j] / sum) * v(j, c));
  }
}

/** Float64 reference of one head on the packed input [Q; K; V]. */
export function headReference({ n, dk, causal }, qkv) {
  const out = new Float64Array(n * dk);
  const part = (k) => (row, c) => qkv[(k * n + row) * dk + c];
  attendHead(n, dk, causal, part(0), part(1), part(2), (i, c, x) => {
    out[i * dk + c] += x;
  });
  return out;
}

/** The two computations: how a case is made, its float64 reference and its FLOPs. */
export const MULTI_HEAD = { name: 'multi-head self-attention', makeCase, reference, flops };
export const ONE_HEAD = {
  name: 'one head (attention())',
  makeCase: makeHeadCase,
  reference: headReference,
  flops: (n, d, heads) => 4 * n * n * (d / heads),
};
