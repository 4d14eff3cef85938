// Every step of one update for one designed head, from word vectors to the encoder block's output, each a
// labelled heatmap with its formula and shape (Vaswani et al. 2017 §3.1–3.3), drawn by the stepper
// (stepper.js). Hovering a cell says its value and where it came from.
import { format } from 'd3-format';
import { emptyReason, rowStatus } from '../../models/row-status.js';
import { maxAbs, roundedLimit } from '../../views/colors.js';
import { tokenLabels } from '../../views/labels.js';

const fmt = format('.4f');

const ABSOLUTE = new Set(['sinusoidal', 'learned']); // encodings added to the input

const QUERY_TEX = {
  projected: String.raw`Q_h = X_{\mathrm{in}}\,W_Q^{(h)}`,
  semantic: String.raw`q_i = c\,x_i / \lVert x_i \rVert`,
  offset: String.raw`q_i = c\,R(\delta)\,p_i = c\,p_{i+\delta}`,
  first: String.raw`q_i = c\,p_0`,
  uniform: String.raw`q_i = 0`,
};
const KEY_TEX = {
  projected: String.raw`K_h = X_{\mathrm{in}}\,W_K^{(h)}`,
  semantic: String.raw`k_j = c\,x_j / \lVert x_j \rVert`,
};

function indexLabels(count) {
  return Array.from({ length: count }, (_, j) => String(j));
}

/** "÷ 10 (√100 · τ = 10 · 1): every score 10× smaller" — the factor between the raw and the scaled scores. */
function factorText(factor, how) {
  const f = format('.3~g')(factor);
  if (factor === 1) return `÷ 1 (${how}): unchanged`;
  return `÷ ${f} (${how}): every score ${factor > 1 ? `${f}× smaller` : `${format('.3~g')(1 / factor)}× larger`}`;
}

/** The raw scores and their scaling, by score function (additive: Bahdanau et al. 2014; designed heads keep Q Kᵀ). */
function scoreSteps(h, { temperature, scale, additive }, labels, dQK) {
  const n = labels.length;
  const byToken = (data) => ({ tensor: { data, shape: [n, n] }, cols: labels, colTitle: 'key →' });
  const divide = (data, by) => data.map((v) => v / by);
  if (additive) {
    const hidden = h.additiveScorer.v.shape[0];
    return [
      {
        title: 'Additive scores',
        tex: String.raw`e_{ij} = v^{\top}\tanh(W_q\,q_i + W_k\,k_j)`,
        ...byToken(h.dotProducts.data),
        scaleOf: 'scores',
        describe: (i, j, v) =>
          `vᵀ tanh(W_q q_${i} + W_k k_${j}) = ${fmt(v)} ("${labels[i]}", "${labels[j]}", ${hidden} hidden units)`,
      },
      {
        title: 'Divided by τ (tanh keeps them bounded: no √d_k)',
        tex: String.raw`S = E / \tau`,
        ...byToken(divide(h.dotProducts.data, temperature)),
        scaleOf: 'scores',
        factor: factorText(temperature, `τ = ${temperature}`),
        describe: (i, j, v) => `${fmt(h.dotProducts.data[i * n + j])} / τ=${temperature} = ${fmt(v)}`,
      },
    ];
  }
  const factor = (scale ? Math.sqrt(dQK) : 1) * temperature;
  return [
    {
      title: 'Dot products',
      tex: String.raw`Q_h K_h^{\top}`,
      ...byToken(h.dotProducts.data),
      scaleOf: 'scores',
      describe: (i, j, v) => `q_${i} · k_${j} = ${fmt(v)} ("${labels[i]}" · "${labels[j]}", ${dQK} dimensions)`,
    },
    {
      title: scale ? 'Scaled' : 'Not scaled (plain dot product)',
      tex: scale ? String.raw`\frac{Q_h K_h^{\top}}{\sqrt{d_k}\,\tau}` : String.raw`\frac{Q_h K_h^{\top}}{\tau}`,
      ...byToken(divide(h.dotProducts.data, factor)),
      scaleOf: 'scores',
      factor: factorText(
        factor,
        scale ? `√${dQK} · τ = ${format('.3~g')(Math.sqrt(dQK))} · ${temperature}` : `τ = ${temperature}`,
      ),
      describe: (i, j, v) =>
        `${fmt(h.dotProducts.data[i * n + j])}${scale ? ` / √${dQK}` : ''} / τ=${temperature} = ${fmt(v)}`,
    },
  ];
}

/** The steps of head `head`, in order: what each shows and how to read a cell. */
export function designedSteps(trace, head) {
  const labels = tokenLabels(trace);
  const n = labels.length;
  const h = trace.heads[head];
  const dQK = h.queries.shape[1],
    dK = h.values.shape[1];
  const { temperature, scale, normalizer = 'softmax' } = trace.options;
  const masked = (i, j) => h.scores.data[i * n + j] === -Infinity;
  const status = rowStatus(h, n, n);
  const empty = new Set(status.empty),
    selfOnly = new Set(status.selfOnly);
  const dims = (t, name) => ({ tensor: t, cols: indexLabels(t.shape[1]), colTitle: `${name} →` });
  const byToken = (t) => ({ tensor: t, cols: labels, colTitle: 'key →' });
  const signed = (symbol) => (i, j, v) => `${symbol}[${i}, ${j}] = ${fmt(v)} ("${labels[i]}", dimension ${j})`;
  const keyTex = KEY_TEX[h.kind] ?? String.raw`k_j = c\,p_j`;
  // RoPE turns each projected query and key by its position: q_i ← R(iθ) q_i.
  const rope =
    trace.options.positionalEncoding === 'rope' && h.kind === 'projected' ? String.raw`,\ \text{then } R(i\theta)` : '';
  const block = trace.block;
  // A designed head's queries and keys may be wider than its values (head-dims.js): say so where they are drawn.
  const widthNote =
    dQK === dK
      ? undefined
      : `d_k = ${dQK}, not this head's d_v = ${dK}: ${
          h.kind === 'semantic' ? 'whole word vectors' : 'sinusoidal encodings, d_v rounded up to even'
        }`;
  const list = [
    { title: 'Word vectors', tex: 'X', ...dims(trace.embeddings, 'dimension'), describe: signed('X') },
    {
      title: ABSOLUTE.has(trace.options.positionalEncoding)
        ? 'Positional encoding'
        : 'Positional encoding (shown, not added)',
      tex:
        trace.options.positionalEncoding === 'learned'
          ? String.raw`P = \text{learned table (untrained)}`
          : String.raw`P_{i,2j}=\sin(i/10000^{2j/d}),\ P_{i,2j+1}=\cos(\cdot)`,
      ...dims(trace.positional, 'dimension'),
      describe: signed('P'),
    },
    {
      title: ABSOLUTE.has(trace.options.positionalEncoding)
        ? 'Input'
        : `Input (nothing added: ${trace.options.positionalEncoding})`,
      tex: ABSOLUTE.has(trace.options.positionalEncoding)
        ? String.raw`X_{\mathrm{in}} = X + P`
        : String.raw`X_{\mathrm{in}} = X`,
      ...dims(trace.input, 'dimension'),
      describe: signed('x'),
    },
    {
      title: `Queries of head ${head + 1}`,
      tex: QUERY_TEX[h.kind] + rope,
      ...dims(h.queries, 'query dimension'),
      shapeNote: widthNote,
      describe: signed('Q'),
    },
    {
      title: `Keys of head ${head + 1}`,
      tex: keyTex + rope,
      ...dims(h.keys, 'key dimension'),
      shapeNote: widthNote,
      describe: signed('K'),
    },
    {
      title: `Values of head ${head + 1}`,
      tex: String.raw`V_h = X_{\mathrm{in}}\,W_V^{(h)}`,
      ...dims(h.values, 'value dimension'),
      describe: signed('V'),
    },
    ...scoreSteps(h, { temperature, scale, additive: Boolean(h.additiveScorer) }, labels, dQK),
    {
      title: 'Masked',
      tex: String.raw`S + M,\ M_{ij} \in \{0, -\infty\}`,
      ...byToken(h.scores),
      isMasked: masked,
      scaleOf: 'scores',
      describe: (i, j, v) => (masked(i, j) ? `"${labels[i]}" may not see "${labels[j]}": −∞` : `score ${fmt(v)}`),
    },
    {
      title: 'Attention weights',
      tex: String.raw`A_h = \mathrm{${normalizer}}(S + M)`,
      ...byToken(h.weights),
      weights: true,
      isMasked: masked,
      notes: Array.from(h.entropy.data, (b, i) => (empty.has(i) ? 'no key' : `${b.toFixed(2)} bits`)),
      describe: (i, j, v) =>
        `row "${labels[i]}": weight on "${labels[j]}" = ${fmt(v)} (${
          empty.has(i)
            ? `no key left, ${emptyReason(trace.options)}: the row is all 0`
            : selfOnly.has(i)
              ? 'no other key left, so it attends to itself'
              : 'row sums to 1'
        })`,
    },
    {
      title: `Output of head ${head + 1}`,
      tex: String.raw`\mathrm{head}_h = A_h V_h`,
      ...dims(h.output, 'value dimension'),
      describe: (i, j, v) => `Σ_k A[${i}, k] · V[k, ${j}] = ${fmt(v)} (mix of the values "${labels[i]}" attends to)`,
    },
    {
      title: 'All heads, side by side',
      tex: String.raw`\mathrm{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_{${trace.heads.length}})`,
      ...dims(trace.concat, 'dimension'),
      colGroups: trace.heads.map((_, g) => ({
        label: `head ${g + 1}`,
        short: String(g + 1),
        start: g * dK,
        end: (g + 1) * dK,
      })),
      shapeNote: `${trace.heads.length} blocks of d_v = ${dK} columns, one per head`,
      describe: (i, j, v) => `concat[${i}, ${j}] = ${fmt(v)} (head ${Math.floor(j / dK) + 1}, its dimension ${j % dK})`,
    },
    {
      title: 'Multi-head output',
      tex: String.raw`\mathrm{MultiHead} = \mathrm{Concat}(\cdot)\,W_O`,
      ...dims(trace.output, 'dimension'),
      describe: signed('out'),
    },
  ];
  if (block) {
    list.push(
      {
        title: 'Residual',
        tex: String.raw`R_1 = X_{\mathrm{in}} + \mathrm{MultiHead}`,
        ...dims(block.residual1, 'dimension'),
        describe: signed('R₁'),
      },
      {
        title: 'LayerNorm',
        tex: String.raw`N_1 = \frac{R_1 - \mu}{\sqrt{\sigma^2 + \epsilon}},\ \epsilon = 10^{-5}`,
        ...dims(block.norm1, 'dimension'),
        describe: signed('N₁'),
      },
      {
        title: 'Feed-forward hidden layer',
        tex: String.raw`H = \max(0,\ N_1 W_1 + b_1)`,
        ...dims(block.hidden, 'hidden unit'),
        describe: signed('H'),
      },
      {
        title: 'Feed-forward output',
        tex: String.raw`F = H W_2 + b_2`,
        ...dims(block.ffnOutput, 'dimension'),
        describe: signed('F'),
      },
      {
        title: 'Residual',
        tex: String.raw`R_2 = N_1 + F`,
        ...dims(block.residual2, 'dimension'),
        describe: signed('R₂'),
      },
      {
        title: "LayerNorm: the block's output",
        tex: String.raw`\mathrm{LayerNorm}(R_2)`,
        ...dims(block.output, 'dimension'),
        describe: signed('out'),
      },
    );
  }
  return sharedScoreScale(list).map((step) => ({ ...step, rowLabels: labels }));
}

/**
 * The raw scores, the scaled scores and the masked scores differ by one factor (√d_k · τ, or τ) and the
 * mask: they share one colour scale, so the division shows as paler cells instead of being redrawn away
 * by each figure's own range. Each gets `limit` (the shared ±range) and says the factor in its shapeNote.
 */
function sharedScoreScale(list) {
  const shared = list.filter((step) => step.scaleOf === 'scores');
  const limit = roundedLimit(Math.max(...shared.map((step) => maxAbs(step.tensor.data))));
  const first = list.indexOf(shared[0]) + 1,
    last = list.indexOf(shared.at(-1)) + 1;
  const range = `one colour scale for steps ${first}–${last}, ±${limit}`;
  return list.map((step) =>
    step.scaleOf === 'scores' ? { ...step, limit, shapeNote: step.factor ? `${range}: ${step.factor}` : range } : step,
  );
}
