// Every step of one block of a trained model for one of its heads, with the model's own values
// (core.languageModel run()'s activations: cpp/include/attn/train/block_activations.hpp): the input, the
// head's queries, keys and values with their learned biases, its scores and weights (with the decoder's
// causal mask), its output, W_O, and the block's Add & Norm and feed-forward layer: our models' post-LN block
// (Vaswani et al. 2017 §3.1–3.3; the input is frozen GloVe + the sinusoidal P of §3.5, not scaled), or a GPT-2
// checkpoint's pre-LN block (Radford et al. 2019 §2.3: LayerNorm before each sublayer, GELU; wte + learned wpe),
// whichever the block's values are (a pre-LN block has norm2, LN₂'s output).
import { format } from 'd3-format';
import { headName } from '../../models/run.js';
import { checkpointOutputSteps } from './checkpoint-output-steps.js';
import { outputSteps } from './output-steps.js';

const fmt = format('.4f');

/** Add & Norm's normalization with its learned γ_k, β_k, as TeX: out = γ_k ⊙ (residual − μ) / √(σ² + ε) + β_k. */
function layerNormTex(out, residual, k) {
  return String.raw`${out} = \gamma_${k} \odot \frac{${residual} - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta_${k}`;
}

/**
 * The steps of block `layer` for head `head`, in order, in the format stepper() draws (pipeline.js), then the output
 * layer's (output-steps.js: after the last block, whichever block is followed).
 * @param {import('../../models/run.js').Run} run  a trained model's Run: its block is the selected head followed through its layer
 * @returns {object[]}
 */
export function trainedSteps({ config, tokens, block: a, output, causal, can }) {
  const labels = tokens.map((t) => t.text);
  const { layer, head } = a;
  const { numHeads, dModel, dK, dFF } = config;
  const name = headName({ layer, head });
  const index = (count) => Array.from({ length: count }, (_, j) => String(j));
  const dims = (tensor, what) => ({ tensor, cols: index(tensor.shape[1]), colTitle: `${what} →` });
  const byToken = (tensor) => ({ tensor, cols: labels, colTitle: 'key →' });
  const signed = (symbol) => (i, j, v) => `${symbol}[${i}, ${j}] = ${fmt(v)} ("${labels[i]}", dimension ${j})`;
  const masked = causal ? (i, j) => j > i : undefined;
  const sub = String.raw`^{(${head + 1})}`; // a head's columns of W_Q, W_K, W_V and its share of the biases
  const preLN = Boolean(a.norm2);
  const input =
    layer === 0 && preLN
      ? [
          {
            title: 'Token embeddings',
            tex: String.raw`X = \text{rows of } W_{te} \text{ (learned)}`,
            ...dims(a.wordVectors, 'dimension'),
            shapeNote: `each BPE piece's learned ${dModel}-d row of wte, the matrix the output layer reuses`,
            describe: signed('X'),
          },
          {
            title: 'Learned position embeddings',
            tex: String.raw`P = \text{rows } 0 \ldots T-1 \text{ of } W_{pe}`,
            ...dims(a.positional, 'dimension'),
            shapeNote: 'a learned row per position (GPT-2 learned them; our models add sinusoids)',
            describe: signed('P'),
          },
          {
            title: 'Input of layer 1',
            tex: String.raw`X_{\mathrm{in}} = X + P`,
            ...dims(a.input, 'dimension'),
            describe: signed('x'),
          },
        ]
      : layer === 0
        ? [
            {
              title: 'Word vectors',
              tex: String.raw`X = \text{GloVe rows (frozen)}`,
              ...dims(a.wordVectors, 'dimension'),
              shapeNote: `the frozen ${dModel}-d GloVe vectors the model was trained on; a word they lack reads one learned row`,
              describe: signed('X'),
            },
            {
              title: 'Positional encoding',
              tex: String.raw`P_{i,2j}=\sin(i/10000^{2j/d}),\ P_{i,2j+1}=\cos(\cdot)`,
              ...dims(a.positional, 'dimension'),
              describe: signed('P'),
            },
            {
              title: 'Input of layer 1',
              tex: String.raw`X_{\mathrm{in}} = X + P`,
              ...dims(a.input, 'dimension'),
              shapeNote: 'added as they are, neither scaled',
              describe: signed('x'),
            },
          ]
        : [
            {
              title: `Input of layer ${layer + 1}: layer ${layer}'s output`,
              tex: String.raw`X_{\mathrm{in}} = x_{${layer}}`,
              ...dims(a.input, 'dimension'),
              shapeNote: `the output of block ${layer} (its last step)`,
              describe: signed('x'),
            },
          ];
  const read = preLN ? 'N_1' : String.raw`X_{\mathrm{in}}`; // what the projections read: LN₁'s output in a pre-LN block
  const projection = (symbol, tensor, what, one) => ({
    title: `${what} of ${name}`,
    tex: String.raw`${symbol}_h = ${read}\,W_${symbol}${sub} + b_${symbol}${sub}`,
    ...dims(tensor, `${one} dimension`),
    shapeNote: `d_k = ${dModel} / ${numHeads} = ${dK}: columns ${head * dK}–${(head + 1) * dK - 1} of the learned W_${symbol} and b_${symbol}`,
    describe: signed(symbol),
  });
  const firstNorm = {
    title: 'Norm first: LayerNorm with learned γ₁, β₁',
    tex: layerNormTex('N_1', String.raw`X_{\mathrm{in}}`, 1),
    ...dims(a.norm1, 'dimension'),
    shapeNote: 'pre-LN: the sublayer reads the normalized rows; the residual stream itself is not normalized',
    describe: signed('N₁'),
  };
  return [
    ...input,
    ...(preLN ? [firstNorm] : []),
    projection('Q', a.queries, 'Queries', 'query'),
    projection('K', a.keys, 'Keys', 'key'),
    projection('V', a.values, 'Values', 'value'),
    {
      title: causal ? 'Scores, causal mask' : 'Scores (no mask: an encoder)',
      ...byToken(a.scores),
      isMasked: masked,
      tex: causal
        ? String.raw`S_h = \frac{Q_h K_h^{\top}}{\sqrt{${dK}}} + M,\ M_{ij} = -\infty \text{ for } j > i`
        : String.raw`S_h = \frac{Q_h K_h^{\top}}{\sqrt{${dK}}}`,
      describe: (i, j, v) =>
        causal && j > i
          ? `"${labels[i]}" may not see the later "${labels[j]}": −∞`
          : `q_${i} · k_${j} / √${dK} = ${fmt(v)} ("${labels[i]}", "${labels[j]}")`,
    },
    {
      title: 'Attention weights',
      tex: String.raw`A_h = \mathrm{softmax}(S_h)`,
      ...byToken(a.weights),
      weights: true,
      isMasked: masked,
      describe: (i, j, v) => `row "${labels[i]}": weight on "${labels[j]}" = ${fmt(v)} (row sums to 1)`,
    },
    {
      title: `Output of ${name}`,
      tex: String.raw`\mathrm{head}_h = A_h V_h`,
      ...dims(a.headOutput, 'value dimension'),
      describe: (i, j, v) => `Σ_k A[${i}, k] · V[k, ${j}] = ${fmt(v)} (mix of the values "${labels[i]}" attends to)`,
    },
    {
      title: `All ${numHeads} heads of layer ${layer + 1}, side by side`,
      tex: String.raw`\mathrm{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_{${numHeads}})`,
      ...dims(a.concat, 'dimension'),
      shapeNote: `${numHeads} blocks of d_k = ${dK} columns, one per head`,
      colGroups: Array.from({ length: numHeads }, (_, g) => ({
        label: headName({ layer, head: g }),
        short: String(g + 1),
        start: g * dK,
        end: (g + 1) * dK,
      })),
      describe: (i, j, v) =>
        `concat[${i}, ${j}] = ${fmt(v)} (${headName({ layer, head: Math.floor(j / dK) })}, its dimension ${j % dK})`,
    },
    {
      title: 'Multi-head output',
      tex: String.raw`\mathrm{MultiHead} = \mathrm{Concat}(\cdot)\,W_O + b_O`,
      ...dims(a.attentionOutput, 'dimension'),
      describe: signed('out'),
    },
    {
      title: 'Add: the residual connection',
      tex: String.raw`R_1 = X_{\mathrm{in}} + \mathrm{MultiHead}`,
      ...dims(a.residual1, 'dimension'),
      describe: signed('R₁'),
    },
    ...(preLN ? preLnTail(a, dims, signed, dFF, layer, config) : postLnTail(a, dims, signed, dFF, layer, config)),
  ]
    .map((step) => ({ ...step, rowLabels: labels }))
    .concat(preLN ? checkpointOutputSteps({ config, tokens, output }) : outputSteps({ config, tokens, output, can }));
}

/** A post-LN block after R₁ (our models): Norm, the ReLU feed-forward layer, Add, Norm. */
function postLnTail(a, dims, signed, dFF, layer, config) {
  return [
    {
      title: 'Norm: LayerNorm with learned γ₁, β₁',
      tex: layerNormTex('N_1', 'R_1', 1),
      ...dims(a.norm1, 'dimension'),
      shapeNote: 'per row: μ, σ² its mean and variance, ε = 10⁻⁵',
      describe: signed('N₁'),
    },
    {
      title: 'Feed-forward hidden layer',
      tex: String.raw`H = \max(0,\ N_1 W_1 + b_1)`,
      ...dims(a.ffHidden, 'hidden unit'),
      shapeNote: `d_ff = ${dFF} units`,
      describe: signed('H'),
    },
    {
      title: 'Feed-forward output',
      tex: String.raw`F = H W_2 + b_2`,
      ...dims(a.ffOutput, 'dimension'),
      describe: signed('F'),
    },
    {
      title: 'Add: the residual connection',
      tex: String.raw`R_2 = N_1 + F`,
      ...dims(a.residual2, 'dimension'),
      describe: signed('R₂'),
    },
    {
      title: `Norm (γ₂, β₂): the output of layer ${layer + 1}`,
      tex: layerNormTex(`x_{${layer + 1}}`, 'R_2', 2),
      ...dims(a.output, 'dimension'),
      shapeNote:
        layer + 1 < config.numLayers
          ? `the input of layer ${layer + 2}`
          : 'the last hidden state x_L: the output layer reads it (the next steps)',
      describe: signed(`x${layer + 1}`),
    },
  ];
}

/** A pre-LN block after R₁ (GPT-2): Norm, the GELU feed-forward layer, Add: the residual stream goes on unnormalized. */
function preLnTail(a, dims, signed, dFF, layer, config) {
  return [
    {
      title: 'Norm: LayerNorm with learned γ₂, β₂',
      tex: layerNormTex('N_2', 'R_1', 2),
      ...dims(a.norm2, 'dimension'),
      shapeNote: 'per row: μ, σ² its mean and variance, ε = 10⁻⁵',
      describe: signed('N₂'),
    },
    {
      title: 'Feed-forward hidden layer',
      tex: String.raw`H = \mathrm{GELU}(N_2 W_{fc} + b_{fc})`,
      ...dims(a.ffHidden, 'hidden unit'),
      shapeNote: `d_ff = ${dFF} units; GELU in its tanh form, as GPT-2 computes it`,
      describe: signed('H'),
    },
    {
      title: 'Feed-forward output',
      tex: String.raw`F = H W_{proj} + b_{proj}`,
      ...dims(a.ffOutput, 'dimension'),
      describe: signed('F'),
    },
    {
      title: `Add: the output of layer ${layer + 1}`,
      tex: String.raw`x_{${layer + 1}} = R_1 + F`,
      ...dims(a.output, 'dimension'),
      shapeNote:
        layer + 1 < config.numLayers
          ? `the input of layer ${layer + 2}`
          : 'x_L: the output layer reads LN_f(x_L) (a final LayerNorm), times wteᵀ',
      describe: signed(`x${layer + 1}`),
    },
  ];
}
