// An independent float64 GPT-2 forward pass, written from Radford et al. 2019 (§2.3: the decoder of Radford et al.
// 2018 with LayerNorm moved to each sub-block's input and a final LayerNorm after the last block) and the layout of
// Hugging Face's GPT2Model (Conv1D weights [in, out], so x · W; c_attn's columns are Q | K | V; head h reads columns
// h·d_k … (h+1)·d_k − 1 of each), plain loops over Float64Arrays, no code shared with the core. The tests check the
// core's GPT-2 (cpp/src/train/gpt2.cpp) against it.

/** Row-major a (n × k) · w (k × m) + b (m), in float64. */
function linear(a, n, k, w, m, b) {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    const row = out.subarray(i * m, (i + 1) * m);
    for (let j = 0; j < m; j++) row[j] = b[j];
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p];
      for (let j = 0; j < m; j++) row[j] += x * w[p * m + j];
    }
  }
  return out;
}

/** LayerNorm of each row (Ba et al. 2016): γ (x − μ) / √(σ² + 1e-5) + β, σ² the biased variance. */
function layerNorm(x, n, d, gamma, beta) {
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let mean = 0;
    for (let j = 0; j < d; j++) mean += x[i * d + j];
    mean /= d;
    let variance = 0;
    for (let j = 0; j < d; j++) variance += (x[i * d + j] - mean) ** 2;
    const scale = 1 / Math.sqrt(variance / d + 1e-5);
    for (let j = 0; j < d; j++) out[i * d + j] = gamma[j] * (x[i * d + j] - mean) * scale + beta[j];
  }
  return out;
}

/** GELU, tanh form (Hendrycks & Gimpel 2016 §2; GPT-2's "gelu_new"). */
const gelu = (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

/**
 * The forward pass over token ids.
 * @param {Map<string, { shape: number[], data: Float32Array }>} tensors the checkpoint's (readSafetensors), named
 *   without or with the 'transformer.' prefix
 * @param {number[]} ids @param {number} numHeads
 * @param {{ ablate?: { layer: number, head: number }[], occlude?: number }} [options]  ablate: heads whose block of z is
 *   0 (Michel et al. 2019 §3); occlude: the token whose input row is the mean of wte's rows instead of its own
 * @returns {{ attention: Float64Array[][], hidden: Float64Array[], blocks: object[], logits: Float64Array }}
 *   attention[l][h]: T × T; hidden[l]: the residual stream after block l (T × d); blocks[l]: block l's steps (input,
 *   norm1, qkv (T × 3d), z, attentionOutput, residual1, norm2, ffHidden, ffOutput); logits: T × V
 */
export function gpt2Reference(tensors, ids, numHeads, { ablate = [], occlude = -1 } = {}) {
  const get = (name) => (tensors.get(name) ?? tensors.get(`transformer.${name}`)).data;
  const [V, d] = (tensors.get('wte.weight') ?? tensors.get('transformer.wte.weight')).shape;
  const T = ids.length;
  const dK = d / numHeads;
  const wte = get('wte.weight');
  const wpe = get('wpe.weight');
  let x = new Float64Array(T * d);
  const mean = new Float64Array(d);
  for (let v = 0; v < V; v++) for (let j = 0; j < d; j++) mean[j] += wte[v * d + j] / V;
  ids.forEach((id, t) => {
    for (let j = 0; j < d; j++) x[t * d + j] = (t === occlude ? mean[j] : wte[id * d + j]) + wpe[t * d + j];
  });
  const attention = [];
  const hidden = [];
  const blocks = [];
  for (let l = 0; tensors.has(`h.${l}.ln_1.weight`) || tensors.has(`transformer.h.${l}.ln_1.weight`); l++) {
    const p = (name) => get(`h.${l}.${name}`);
    const input = x;
    const a = layerNorm(x, T, d, p('ln_1.weight'), p('ln_1.bias'));
    const qkv = linear(a, T, d, p('attn.c_attn.weight'), 3 * d, p('attn.c_attn.bias'));
    const z = new Float64Array(T * d);
    const heads = [];
    for (let h = 0; h < numHeads; h++) {
      const weights = new Float64Array(T * T);
      for (let i = 0; i < T; i++) {
        const scores = [];
        for (let j = 0; j <= i; j++) {
          let s = 0;
          for (let c = 0; c < dK; c++) s += qkv[i * 3 * d + h * dK + c] * qkv[j * 3 * d + d + h * dK + c];
          scores.push(s / Math.sqrt(dK));
        }
        const max = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - max));
        const total = e.reduce((u, v) => u + v, 0);
        e.forEach((v, j) => (weights[i * T + j] = v / total));
        for (let c = 0; c < dK; c++) {
          let sum = 0;
          for (let j = 0; j <= i; j++) sum += weights[i * T + j] * qkv[j * 3 * d + 2 * d + h * dK + c];
          z[i * d + h * dK + c] = ablate.some((a) => a.layer === l && a.head === h) ? 0 : sum;
        }
      }
      heads.push(weights);
    }
    attention.push(heads);
    const projected = linear(z, T, d, p('attn.c_proj.weight'), d, p('attn.c_proj.bias'));
    x = x.map((v, i) => v + projected[i]);
    const m = layerNorm(x, T, d, p('ln_2.weight'), p('ln_2.bias'));
    const dFF = p('mlp.c_fc.bias').length;
    const inner = linear(m, T, d, p('mlp.c_fc.weight'), dFF, p('mlp.c_fc.bias')).map(gelu);
    const out = linear(inner, T, dFF, p('mlp.c_proj.weight'), d, p('mlp.c_proj.bias'));
    const residual1 = x;
    x = x.map((v, i) => v + out[i]);
    hidden.push(x);
    blocks.push({
      input,
      norm1: a,
      qkv,
      z,
      attentionOutput: projected,
      residual1,
      norm2: m,
      ffHidden: inner,
      ffOutput: out,
    });
  }
  const f = layerNorm(x, T, d, get('ln_f.weight'), get('ln_f.bias'));
  const logits = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    for (let v = 0; v < V; v++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += f[t * d + j] * wte[v * d + j];
      logits[t * V + v] = s;
    }
  }
  return { attention, hidden, blocks, logits };
}
