// The language trainer's model (cpp/include/attn/train/model.hpp, post-LN, biases; language_trainer.hpp)
// written in TF.js, for npm run bench's training comparison (scripts/bench/language.mjs):
//   x₀ = row(tokens) + P (the frozen word-vector rows, or the learned <unk> row; P sinusoidal)
//   per layer: Q, K, V = x W + b; A_h = softmax(Q_h K_hᵀ/√d_k + causal mask); h₁ = x + [A_h V_h]_h W_O + b_O;
//     a = LayerNorm₁(h₁); h₂ = a + ReLU(a W_1 + b_1) W_2 + b_2; x = LayerNorm₂(h₂)
//   logits = x U + b (U tied: the output words' input rows, transposed; untied: a parameter)
//   loss = mean cross-entropy over the scored positions; AdamW as adamw.hpp.
// Gradients come from TF.js's automatic differentiation, with the ops TF.js offers for speed
// (tf.fused.matMul with its bias, tf.losses.softmaxCrossEntropy with its own gradient). TF.js's wasm
// backend multiplies by a transposed operand (matMul's transposeA/B flags, which matMul's gradient
// uses) in a generic loop, here up to 25× slower than transposing first and multiplying plainly; so
// the model comes in two forms: TF.js as it comes, and { explicitTransposes: true }, where every
// product and its gradient transpose first (custom gradients), as a TF.js user who profiled would write.

const LAYER_NORM_EPSILON = 1e-5; // parameters.hpp kLayerNormEpsilon
// The language trainer's AdamW (language_trainer.hpp LanguageTrainerOptions.optimizer): β₂ is 0.98 there.
const [BETA1, BETA2, EPSILON, MAX_GRAD_NORM] = [0.9, 0.98, 1e-8, 1];

/**
 * The frozen inputs the core builds from the embedding asset (corpus.cpp frozen_rows, embeddings.cpp):
 * rows 0 … W − 1 the words (scale × int8, in float32), row W [MASK] (the mean word vector, summed in
 * float64 in row order); and for a tied output the input id of each output word (<unk>: W + 1).
 * @param {Uint8Array} asset  the bytes of embeddings.bin (format: scripts/embedding-asset.mjs)
 * @param {readonly string[]} vocabulary  the trainer's output words, <unk> last
 * @returns {{ table: Float32Array, frozenRows: number, dModel: number, outputRows: Int32Array }}
 */
export function frozenInputs(asset, vocabulary) {
  const bytes = Buffer.from(asset.buffer, asset.byteOffset, asset.length);
  if (bytes.toString('ascii', 0, 4) !== 'AEMB' || bytes.readUInt32LE(4) !== 1)
    throw new Error('not an AEMB version 1 embedding asset');
  const [W, d, wordBytes] = [bytes.readUInt32LE(8), bytes.readUInt32LE(12), bytes.readUInt32LE(16)];
  const words = bytes
    .toString('utf8', 24, 24 + wordBytes)
    .split('\n')
    .slice(0, W);
  const scalesAt = 24 + Math.ceil(wordBytes / 4) * 4;
  const vectorsAt = scalesAt + 4 * W;
  const table = new Float32Array((W + 1) * d);
  const sum = new Float64Array(d);
  for (let r = 0; r < W; r++) {
    const scale = bytes.readFloatLE(scalesAt + 4 * r);
    for (let c = 0; c < d; c++) {
      const x = Math.fround(scale * bytes.readInt8(vectorsAt + r * d + c)); // float × float, rounded to float
      table[r * d + c] = x;
      sum[c] += x;
    }
  }
  for (let c = 0; c < d; c++) table[W * d + c] = sum[c] / W;
  const rowOf = new Map(words.map((w, i) => [w, i]));
  const outputRows = Int32Array.from(vocabulary, (w, i) => (i === vocabulary.length - 1 ? W + 1 : rowOf.get(w)));
  if (outputRows.some((r) => r === undefined)) throw new Error('an output word is not in the embedding asset');
  return { table, frozenRows: W + 1, dModel: d, outputRows };
}

/** Sinusoidal P [T, d] as positional.cpp: angle i · 10000^(−2⌊j/2⌋/d) in float64, sine on even columns. */
function sinusoidal(T, d) {
  const p = new Float32Array(T * d);
  for (let j = 0; j < d; j++) {
    const inverseFrequency = 10000 ** (-(j - (j % 2)) / d);
    for (let i = 0; i < T; i++)
      p[i * d + j] = j % 2 === 0 ? Math.sin(i * inverseFrequency) : Math.cos(i * inverseFrequency);
  }
  return p;
}

/** adamw.hpp scheduled_learning_rate: linear warm-up, then cosine decay to 0.1 α at totalSteps (0: α throughout). */
function scheduledRate(alpha, warmup, total, t) {
  if (total === 0) return alpha;
  if (t <= warmup) return (alpha * t) / warmup;
  if (t >= total) return alpha * 0.1;
  return alpha * (0.1 + 0.9 * 0.5 * (1 + Math.cos((Math.PI * (t - warmup)) / (total - warmup))));
}

/** The permutation that swaps a tensor's last two axes. */
const swapLast = (rank) => Array.from({ length: rank }, (_, i) => (i < rank - 2 ? i : 2 * rank - 3 - i));

/**
 * A TF.js model holding `parameters` (languageTrainer.parameters(): { [C++ name]: { data, shape } }) as variables.
 * @param options  languageTrainer.options  @param frozen  frozenInputs(asset, trainer.vocabulary)
 * @param {{ explicitTransposes?: boolean }} [form]  products transposed before multiplying (see above)
 * @returns {{ lossAndGradients(batch): { loss: number, gradients: { [name]: { data, shape } } },
 *   step(batch): number (one AdamW step; the loss before it), parameters(), dispose() }}
 */
export function tfjsLanguageModel(tf, options, parameters, frozen, { explicitTransposes = false } = {}) {
  const { numHeads: H, numLayers: L, dFF, layerNorm, tiedOutput, objective, seqLen } = options;
  const { frozenRows: F, dModel: d } = frozen;
  const dk = d / H;
  const names = Object.keys(parameters);
  // (in tidy: the initial values are released once the variables hold their data)
  const vars = tf.tidy(() =>
    Object.fromEntries(names.map((n) => [n, tf.variable(tf.tensor(parameters[n].data, parameters[n].shape))])),
  );
  const list = names.map((n) => vars[n]);
  const R = vars.embedding ? vars.embedding.shape[0] : 0; // learned input rows (<unk>), ids F … F + R − 1
  const V = parameters.output_bias.shape[0];

  // Constants: the frozen rows with a zero row F (which learned ids read, their row added after), P,
  // the causal mask, and for a tied output the frozen part of U and the columns of the learned rows.
  const constants = tf.tidy(() => {
    const c = {
      table: tf.concat([tf.tensor2d(frozen.table, [F, d]), tf.zeros([1, d])]),
      P: tf.tensor2d(sinusoidal(seqLen, d), [seqLen, d]),
      mask: tf.mul(tf.sub(tf.linalg.bandPart(tf.ones([seqLen, seqLen]), -1, 0), 1), 1e9), // −1e9 above the diagonal
    };
    if (tiedOutput) {
      const u = new Float32Array(d * V),
        pick = new Float32Array(R * V);
      frozen.outputRows.forEach((id, o) => {
        if (id >= F) pick[(id - F) * V + o] = 1;
        else for (let j = 0; j < d; j++) u[j * V + o] = frozen.table[id * d + j];
      });
      c.uFrozen = tf.tensor2d(u, [d, V]);
      c.uLearned = tf.tensor2d(pick, [R, V]);
    }
    return c;
  });
  const { table, P, mask, uFrozen, uLearned } = constants;

  const swap = (t) => tf.transpose(t, swapLast(t.rank));
  // a · b and x W + b; with explicitTransposes, gradients dA = dY Bᵀ, dB = Aᵀ dY with Bᵀ, Aᵀ materialized
  const product = explicitTransposes
    ? tf.customGrad((a, b, save) => {
        save([a, b]);
        return {
          value: tf.matMul(a, b),
          gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, swap(sb)), tf.matMul(swap(sa), dy)],
        };
      })
    : (a, b) => tf.matMul(a, b);
  const linear = explicitTransposes
    ? tf.customGrad((x, w, bias, save) => {
        save([x, w]);
        return {
          value: tf.fused.matMul({ a: x, b: w, bias }),
          gradFunc: (dy, [sx, sw]) => [tf.matMul(dy, swap(sw)), tf.matMul(swap(sx), dy), tf.sum(dy, 0)],
        };
      })
    : (x, w, b) => tf.fused.matMul({ a: x, b: w, bias: b });
  function norm(x, gamma, beta) {
    const { mean, variance } = tf.moments(x, -1, true); // biased variance, as ops.cpp
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, LAYER_NORM_EPSILON))), gamma), beta);
  }

  function loss({ tokens, targets, scored, shape: [B, T] }) {
    const N = B * T;
    const learned = new Float32Array(N * R);
    const frozenIds = Int32Array.from(tokens, (id, r) => (id >= F ? ((learned[r * R + id - F] = 1), F) : id));
    let x0 = tf.gather(table, tf.tensor1d(frozenIds, 'int32'));
    if (R) x0 = tf.add(x0, product(tf.tensor2d(learned, [N, R]), vars.embedding));
    let x = tf.reshape(tf.add(tf.reshape(x0, [B, T, d]), tf.slice(P, [0, 0], [T, d])), [N, d]);
    const causalMask = objective === 'causal' ? tf.slice(mask, [0, 0], [T, T]) : null;
    const split = (m) => tf.transpose(tf.reshape(m, [B, T, H, dk]), [0, 2, 1, 3]);
    for (let l = 0; l < L; l++) {
      const p = (name) => vars[`layers.${l}.${name}`];
      const q = split(linear(x, p('attention.w_q'), p('attention.b_q')));
      const k = split(linear(x, p('attention.w_k'), p('attention.b_k')));
      const v = split(linear(x, p('attention.w_v'), p('attention.b_v')));
      let scores = tf.mul(explicitTransposes ? product(q, swap(k)) : tf.matMul(q, k, false, true), 1 / Math.sqrt(dk));
      if (causalMask) scores = tf.add(scores, causalMask);
      const z = tf.reshape(tf.transpose(product(tf.softmax(scores), v), [0, 2, 1, 3]), [N, d]);
      const h1 = tf.add(x, linear(z, p('attention.w_o'), p('attention.b_o')));
      const a = layerNorm ? norm(h1, p('norm1.gamma'), p('norm1.beta')) : h1;
      x = a;
      if (dFF) {
        const h2 = tf.add(
          a,
          linear(
            tf.relu(linear(a, p('feed_forward.w_1'), p('feed_forward.b_1'))),
            p('feed_forward.w_2'),
            p('feed_forward.b_2'),
          ),
        );
        x = layerNorm ? norm(h2, p('norm2.gamma'), p('norm2.beta')) : h2;
      }
    }
    const learnedColumns = () =>
      explicitTransposes ? product(swap(vars.embedding), uLearned) : tf.matMul(vars.embedding, uLearned, true, false);
    const u = tiedOutput ? (R ? tf.add(uFrozen, learnedColumns()) : uFrozen) : vars.unembedding;
    const logits = linear(x, u, vars.output_bias);
    // int32 one-hot (the wasm backend's OneHot writes int32 whatever dtype is asked); the loss casts it
    const labels = tf.oneHot(
      tf.tensor1d(
        Int32Array.from(targets, (t) => Math.max(t, 0)),
        'int32',
      ),
      V,
    );
    // Weighted by `scored`, divided by the number of scored positions (SUM_BY_NONZERO_WEIGHTS): the mean over them
    return tf.losses.softmaxCrossEntropy(labels, logits, tf.tensor1d(Float32Array.from(scored)));
  }

  const asRecord = (tensors) =>
    Object.fromEntries(names.map((n, i) => [n, { data: tensors[i].dataSync(), shape: tensors[i].shape }]));

  function lossAndGradients(batch) {
    return tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => loss(batch), list);
      return { loss: value.dataSync()[0], gradients: asRecord(list.map((v) => grads[v.name])) };
    });
  }

  // AdamW (adamw.hpp): clip by global norm 1, decoupled decay on the matrices only (parameters.hpp: the
  // tensors drawn with σ > 0: the learned input rows, W_*, U), not on biases, γ and β.
  const decays = names.map(
    (n) => n === 'embedding' || n === 'unembedding' || n === 'positional' || /\.w_[a-z0-9]+$/.test(n),
  );
  const moments = tf.tidy(() =>
    list.map((v) => ({ m: tf.variable(tf.zerosLike(v)), v: tf.variable(tf.zerosLike(v)) })),
  );
  let t = 0;
  function step(batch) {
    t++;
    const lr = scheduledRate(options.learningRate, options.warmupSteps, options.totalSteps, t);
    const c1 = 1 - BETA1 ** t,
      c2 = 1 - BETA2 ** t;
    return tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => loss(batch), list);
      const g = list.map((v) => grads[v.name]);
      const gradNorm = tf.sqrt(tf.addN(g.map((x) => tf.sum(tf.square(x)))));
      const shrink = tf.minimum(1, tf.div(MAX_GRAD_NORM, tf.maximum(gradNorm, 1e-30)));
      list.forEach((p, i) => {
        const gi = tf.mul(g[i], shrink);
        const { m, v } = moments[i];
        m.assign(tf.add(tf.mul(m, BETA1), tf.mul(gi, 1 - BETA1)));
        v.assign(tf.add(tf.mul(v, BETA2), tf.mul(tf.square(gi), 1 - BETA2)));
        const update = tf.mul(tf.div(tf.div(m, c1), tf.add(tf.sqrt(tf.div(v, c2)), EPSILON)), lr);
        p.assign(tf.sub(p, decays[i] ? tf.add(update, tf.mul(p, lr * options.weightDecay)) : update));
      });
      return value.dataSync()[0];
    });
  }

  return {
    lossAndGradients,
    step,
    parameters: () => asRecord(list),
    dispose() {
      [...list, ...moments.flatMap(({ m, v }) => [m, v]), ...Object.values(constants)].forEach((x) => x.dispose());
    },
  };
}
