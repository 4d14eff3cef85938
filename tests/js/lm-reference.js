// A float64 reference of the trained language models' forward pass (Vaswani et al. 2017 §3.1–3.3, post-LN, as
// cpp/include/attn/train/model.hpp writes it), from model.parameters() by name, written loop by loop independently of
// the C++ code; `off` heads have their block of Z = [head_1 | … | head_H] set to 0 before W_O (knockout).

/** y [T, n] = x [T, m] W [m, n] + b (b may be undefined). */
function affine(x, w, b, T, m, n) {
  const y = new Float64Array(T * n);
  for (let t = 0; t < T; t++) {
    for (let o = 0; o < n; o++) {
      let sum = b ? b[o] : 0;
      for (let i = 0; i < m; i++) sum += x[t * m + i] * w[i * n + o];
      y[t * n + o] = sum;
    }
  }
  return y;
}

/** LayerNorm over each row: γ ⊙ (x − μ) / √(σ² + ε) + β, ε = 1e-5 (parameters.hpp kLayerNormEpsilon). */
function layerNorm(x, gamma, beta, T, d) {
  const y = new Float64Array(T * d);
  for (let t = 0; t < T; t++) {
    let mean = 0,
      variance = 0;
    for (let j = 0; j < d; j++) mean += x[t * d + j] / d;
    for (let j = 0; j < d; j++) variance += (x[t * d + j] - mean) ** 2 / d;
    for (let j = 0; j < d; j++)
      y[t * d + j] = (gamma[j] * (x[t * d + j] - mean)) / Math.sqrt(variance + 1e-5) + beta[j];
  }
  return y;
}

/**
 * Every block's output x_{l+1} [T, d] for the input x₀ [T, d].
 * @param {Record<string, { data: Float32Array }>} p  model.parameters()
 * @param {{ numLayers: number, numHeads: number, dModel: number, dFF: number }} config
 * @param {Float64Array} x0  @param {number} T  @param {boolean} causal
 * @param {Set<string>} off  "layer,head" of the heads knocked out
 * @returns {Float64Array[]}
 */
export function referenceBlocks(p, { numLayers, numHeads, dModel: d, dFF }, x0, T, causal, off) {
  const dk = d / numHeads;
  const at = (l, name) => p[`layers.${l}.${name}`]?.data;
  const outputs = [];
  let x = x0;
  for (let l = 0; l < numLayers; l++) {
    const [q, k, v] = ['q', 'k', 'v'].map((m) =>
      affine(x, at(l, `attention.w_${m}`), at(l, `attention.b_${m}`), T, d, d),
    );
    const z = new Float64Array(T * d);
    for (let h = 0; h < numHeads; h++) {
      if (off.has(`${l},${h}`)) continue; // its block of Z stays 0
      for (let i = 0; i < T; i++) {
        const scores = [];
        for (let j = 0; j < (causal ? i + 1 : T); j++) {
          let dot = 0;
          for (let e = 0; e < dk; e++) dot += q[i * d + h * dk + e] * k[j * d + h * dk + e];
          scores.push(dot / Math.sqrt(dk));
        }
        const max = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - max));
        const total = exps.reduce((a, b) => a + b, 0);
        exps.forEach((w, j) => {
          for (let e = 0; e < dk; e++) z[i * d + h * dk + e] += (w / total) * v[j * d + h * dk + e];
        });
      }
    }
    const h1 = affine(z, at(l, 'attention.w_o'), at(l, 'attention.b_o'), T, d, d).map((value, i) => value + x[i]);
    const a = layerNorm(h1, at(l, 'norm1.gamma'), at(l, 'norm1.beta'), T, d);
    const hidden = affine(a, at(l, 'feed_forward.w_1'), at(l, 'feed_forward.b_1'), T, d, dFF).map((u) =>
      Math.max(u, 0),
    );
    const h2 = affine(hidden, at(l, 'feed_forward.w_2'), at(l, 'feed_forward.b_2'), T, dFF, d).map(
      (value, i) => value + a[i],
    );
    x = layerNorm(h2, at(l, 'norm2.gamma'), at(l, 'norm2.beta'), T, d);
    outputs.push(x);
  }
  return outputs;
}
