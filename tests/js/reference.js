// Plain-JS float64 references for the core's formulas, written independently of the C++ code.

/** Sinusoidal encoding P[i, 2j] = sin(i / base^(2j/d)), P[i, 2j+1] = cos(…) (Vaswani et al. §3.5). */
export function sinusoidal(seqLen, dModel, base = 10000) {
  const out = new Float64Array(seqLen * dModel);
  for (let i = 0; i < seqLen; i++) {
    for (let c = 0; c < dModel; c++) {
      const angle = i / base ** ((c - (c % 2)) / dModel);
      out[i * dModel + c] = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  }
  return out;
}

/** softmax(mask(Q Kᵀ / (√d_k τ))) V for row-major Q [n, d], K [m, d], V [m, dv]. */
export function attention(q, k, v, n, m, d, dv, { causal = false, validLength = m, temperature = 1 } = {}) {
  const weights = new Float64Array(n * m),
    output = new Float64Array(n * dv);
  for (let i = 0; i < n; i++) {
    const scores = [];
    for (let j = 0; j < m; j++) {
      let dot = 0;
      for (let t = 0; t < d; t++) dot += q[i * d + t] * k[j * d + t];
      const masked = j >= validLength || (causal && j > i);
      scores.push(masked ? -Infinity : dot / Math.sqrt(d) / temperature);
    }
    const max = Math.max(...scores);
    if (max === -Infinity) continue;
    const exps = scores.map((s) => Math.exp(s - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    for (let j = 0; j < m; j++) {
      weights[i * m + j] = exps[j] / sum;
      for (let c = 0; c < dv; c++) output[i * dv + c] += weights[i * m + j] * v[j * dv + c];
    }
  }
  return { weights, output };
}

/**
 * Multi-head self-attention in float64 (Vaswani et al. §3.2.2): project X [n, d] by W_Q, W_K, W_V,
 * attend per head on d/h-column slices, concatenate, project by W_O. Returns the output [n, d] and
 * each head's weights [n, n].
 */
export function multiHead(x, [wQ, wK, wV, wO], n, d, heads, options = {}) {
  const dK = d / heads;
  const [q, k, v] = [wQ, wK, wV].map((w) => matmul(x, w, n, d, d));
  const concat = new Float64Array(n * d),
    weights = [];
  for (let h = 0; h < heads; h++) {
    const slice = (m) =>
      Float64Array.from({ length: n * dK }, (_, idx) => m[Math.floor(idx / dK) * d + h * dK + (idx % dK)]);
    const head = attention(slice(q), slice(k), slice(v), n, n, dK, dK, options);
    weights.push(head.weights);
    for (let i = 0; i < n; i++) for (let c = 0; c < dK; c++) concat[i * d + h * dK + c] = head.output[i * dK + c];
  }
  return { output: matmul(concat, wO, n, d, d), weights };
}

/** A [n, k] · B [k, m], row-major. */
export function matmul(a, b, n, k, m) {
  const c = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let p = 0; p < k; p++) for (let j = 0; j < m; j++) c[i * m + j] += a[i * k + p] * b[p * m + j];
  return c;
}

/** Largest |a[i] − b[i]|. */
/** Asserts max |actual − expected| ≤ tolerance, naming `what` and the difference when it is not. */
export function assertNear(actual, expected, tolerance, what) {
  const diff = maxAbsDiff(actual, expected);
  if (!(diff <= tolerance)) throw new Error(`${what}: max abs difference ${diff} > ${tolerance}`);
}

export function maxAbsDiff(a, b) {
  if (a.length !== b.length) throw new Error(`length ${a.length} ≠ ${b.length}`);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** A deterministic pseudo-random matrix in [−scale, scale) (a small LCG; test data only). */
export function randomMatrix(rows, cols, seed, scale = 1) {
  const data = new Float32Array(rows * cols);
  let state = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = ((state / 2 ** 32) * 2 - 1) * scale;
  }
  return { data, shape: [rows, cols] };
}
