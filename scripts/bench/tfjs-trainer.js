// The trainer's model (cpp/include/attn/train/model.hpp) written in TF.js, for npm run bench's
// training comparison and as an independent reference for the hand-written gradients (TF.js's
// automatic differentiation; tests/js/trainer-tfjs.test.js). Same layout: x₀ = E[tokens] + P, per layer
// x ← x + concat_h(softmax(Q_h K_hᵀ/√d_k, causal) V_h) W_O, logits = x U, mean cross-entropy over the
// scored positions; AdamW with clipping by global norm as adamw.hpp.

/** Sinusoidal P (Vaswani et al. 2017 §3.5) [T, d], in float64 then rounded, as the core's positional.cpp. */
function sinusoidal(T, d) {
  const p = new Float32Array(T * d);
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < d; j++) {
      const angle = i / 10000 ** ((2 * Math.floor(j / 2)) / d);
      p[i * d + j] = j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  }
  return p;
}

/**
 * A TF.js model holding `parameters` (core trainer.parameters(): { [core name]: { data, shape } }) as variables.
 * @returns {{ loss(batch): tf.Scalar,
 *   lossAndGradients(batch): { loss: number, gradients: the same names as parameters },
 *   step(batch): number (AdamW step; the loss before it), dispose() }}
 */
export function tfjsModel(tf, options, parameters) {
  const { numLayers: L, numHeads: H, dModel: d, vocabSize: V, positionalEncoding } = options;
  const dk = d / H;
  const variable = (t) => tf.variable(tf.tensor2d(t.data, t.shape));
  const projection = (l, m) => `layers.${l}.attention.w_${m}`;
  const vars = {
    embedding: variable(parameters.embedding),
    unembedding: variable(parameters.unembedding),
    layers: Array.from({ length: L }, (_, l) => ({
      wQ: variable(parameters[projection(l, 'q')]),
      wK: variable(parameters[projection(l, 'k')]),
      wV: variable(parameters[projection(l, 'v')]),
      wO: variable(parameters[projection(l, 'o')]),
    })),
  };
  if (positionalEncoding === 'learned') vars.positional = variable(parameters.positional);
  // In the core's parameter order (parameters.hpp): embedding, positional?, per layer w_q … w_o, unembedding
  const list = [
    vars.embedding,
    ...(vars.positional ? [vars.positional] : []),
    ...vars.layers.flatMap((l) => [l.wQ, l.wK, l.wV, l.wO]),
    vars.unembedding,
  ];
  const names = [...Object.keys(parameters)];
  const fixedP =
    positionalEncoding === 'sinusoidal'
      ? tf.keep(tf.tensor2d(sinusoidal(options.seqLen, d), [options.seqLen, d]))
      : null;

  function loss({ tokens, targets, scored, shape: [B, T] }) {
    const x0 = tf.matMul(tf.oneHot(tf.tensor1d(tokens, 'int32'), V), vars.embedding); // E[tokens] as a product
    const positional = fixedP ?? vars.positional;
    const p = positional ? tf.slice(positional, [0, 0], [T, d]) : null;
    let x = p ? tf.reshape(tf.add(tf.reshape(x0, [B, T, d]), p), [B * T, d]) : x0;
    const causal = tf.mul(tf.sub(tf.linalg.bandPart(tf.ones([T, T]), -1, 0), 1), 1e9); // 0 on and below the diagonal
    const split = (m) => tf.transpose(tf.reshape(m, [B, T, H, dk]), [0, 2, 1, 3]);
    for (const layer of vars.layers) {
      const q = split(tf.matMul(x, layer.wQ)),
        k = split(tf.matMul(x, layer.wK)),
        v = split(tf.matMul(x, layer.wV));
      const a = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dk)), causal));
      const z = tf.reshape(tf.transpose(tf.matMul(a, v), [0, 2, 1, 3]), [B * T, d]);
      x = tf.add(x, tf.matMul(z, layer.wO));
    }
    const logp = tf.logSoftmax(tf.matMul(x, vars.unembedding));
    const safeTargets = Int32Array.from(targets, (t) => Math.max(t, 0));
    const nll = tf.neg(tf.sum(tf.mul(logp, tf.oneHot(tf.tensor1d(safeTargets, 'int32'), V)), 1));
    const weight = tf.tensor1d(Float32Array.from(scored));
    return tf.div(tf.sum(tf.mul(nll, weight)), tf.sum(weight));
  }

  function structure(tensors) {
    return Object.fromEntries(tensors.map((t, i) => [names[i], { data: t.dataSync(), shape: t.shape }]));
  }

  function lossAndGradients(batch) {
    const { value, grads } = tf.variableGrads(() => loss(batch), list);
    const result = { loss: value.dataSync()[0], gradients: structure(list.map((v) => grads[v.name])) };
    value.dispose();
    Object.values(grads).forEach((g) => g.dispose());
    return result;
  }

  // AdamW (adamw.hpp): clip by global norm 1, β = (0.9, 0.99), ε 1e-8, decoupled decay.
  const { learningRate: lr, weightDecay: wd } = options;
  const [b1, b2, eps, maxNorm] = [0.9, 0.99, 1e-8, 1];
  const moments = list.map((v) => ({ m: tf.variable(tf.zerosLike(v)), v: tf.variable(tf.zerosLike(v)) }));
  let t = 0;
  function step(batch) {
    t++;
    return tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => loss(batch), list);
      const g = list.map((v) => grads[v.name]);
      const norm = tf.sqrt(tf.addN(g.map((x) => tf.sum(tf.square(x)))));
      const shrink = tf.minimum(1, tf.div(maxNorm, tf.maximum(norm, 1e-30)));
      const c1 = 1 - b1 ** t,
        c2 = 1 - b2 ** t;
      list.forEach((p, i) => {
        const gi = tf.mul(g[i], shrink);
        moments[i].m.assign(tf.add(tf.mul(moments[i].m, b1), tf.mul(gi, 1 - b1)));
        moments[i].v.assign(tf.add(tf.mul(moments[i].v, b2), tf.mul(tf.square(gi), 1 - b2)));
        const update = tf.div(tf.div(moments[i].m, c1), tf.add(tf.sqrt(tf.div(moments[i].v, c2)), eps));
        p.assign(tf.sub(p, tf.add(tf.mul(update, lr), tf.mul(p, lr * wd))));
      });
      return value.dataSync()[0];
    });
  }

  return {
    loss,
    lossAndGradients,
    step,
    parameters: () => structure(list),
    dispose() {
      [...list, ...moments.flatMap((m) => [m.m, m.v])].forEach((v) => v.dispose());
      fixedP?.dispose();
    },
  };
}
