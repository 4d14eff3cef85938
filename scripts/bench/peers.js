// The implementations compared, each prepared once per case (weights fixed) and then called with
// fresh inputs: prepare(benchCase) → async (input: Float32Array) → Float32Array output; the runner's
// optional dispose() frees what prepare() made, so no case runs beside the leftovers of the last.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Ours: the C++ core's MultiHeadLayer through its JS API. */
export function ours(core, name = 'ours') {
  return {
    name,
    prepare({ n, d, heads, causal, weights }) {
      const tensor = (data) => ({ data, shape: [d, d] });
      const layer = core.multiHeadLayer({
        numHeads: heads,
        wQ: tensor(weights[0]),
        wK: tensor(weights[1]),
        wV: tensor(weights[2]),
        wO: tensor(weights[3]),
      });
      return (x) => layer.forward({ data: x, shape: [n, d] }, { causal }).output.data;
    },
  };
}

/** Ours through the everyday call, core.multiHeadAttention() with default options (weights packed per call). */
export function oursMultiHeadAttention(core) {
  return {
    name: 'ours multiHeadAttention',
    prepare({ n, d, heads, causal, weights }) {
      const [wQ, wK, wV, wO] = weights.map((data) => ({ data, shape: [d, d] }));
      return (x) =>
        core.multiHeadAttention({ input: { data: x, shape: [n, d] }, numHeads: heads, wQ, wK, wV, wO, causal }).output
          .data;
    },
  };
}

/** Ours for one head (cases.js ONE_HEAD): core.attention() with default options. */
export function oursAttention(core) {
  return {
    name: 'ours attention',
    prepare({ n, dk, causal }) {
      const part = (qkv, k) => ({ data: qkv.subarray(k * n * dk, (k + 1) * n * dk), shape: [n, dk] });
      return (qkv) =>
        core.attention({ queries: part(qkv, 0), keys: part(qkv, 1), values: part(qkv, 2), causal }).output.data;
    },
  };
}

/**
 * Ours as users get it (createAttentionCore's default: the relaxed-SIMD build where the engine runs it)
 * and, where that is the relaxed build, the SIMD128 build too, as "ours simd128", to show what FMA gives.
 * Then the everyday call, multiHeadAttention(), on the default build.
 * @returns {Promise<{ kernels: string, core: object, peers: object[] }>} kernels: the default build's; core: that core
 */
export async function ourBuilds(createAttentionCore) {
  const core = await createAttentionCore();
  const peers = [ours(core)];
  if (core.kernels !== 'simd128') peers.push(ours(await createAttentionCore({ kernels: 'simd128' }), 'ours simd128'));
  peers.push(oursMultiHeadAttention(core));
  return { kernels: core.kernels, core, peers };
}

/** The same computation as an ONNX graph of standard operators (opset 17), built here. */
function attentionModel({ n, d, heads, causal, weights }) {
  const dk = d / heads;
  const FLOAT = onnx.TensorProto.DataType.FLOAT,
    INT64 = onnx.TensorProto.DataType.INT64;
  const floats = (name, dims, data) => ({
    name,
    dims,
    dataType: FLOAT,
    rawData: new Uint8Array(Float32Array.from(data).buffer),
  });
  const ints = (name, values) => ({
    name,
    dims: [values.length],
    dataType: INT64,
    rawData: new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer),
  });
  const node = (opType, input, output, attribute = []) => ({ opType, input, output, attribute });
  const perm = (values) => ({ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: values });
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mask[i * n + j] = -1e30;
  const nodes = [
    node('MatMul', ['X', 'WQ'], ['Q']),
    node('MatMul', ['X', 'WK'], ['K']),
    node('MatMul', ['X', 'WV'], ['V']),
    node('Reshape', ['Q', 'split'], ['Qr']),
    node('Transpose', ['Qr'], ['Qt'], [perm([1, 0, 2])]),
    node('Reshape', ['K', 'split'], ['Kr']),
    node('Transpose', ['Kr'], ['Kt'], [perm([1, 2, 0])]),
    node('Reshape', ['V', 'split'], ['Vr']),
    node('Transpose', ['Vr'], ['Vt'], [perm([1, 0, 2])]),
    node('MatMul', ['Qt', 'Kt'], ['S']),
    node('Mul', ['S', 'scale'], ['Ss']),
    ...(causal ? [node('Add', ['Ss', 'mask'], ['Sm'])] : []),
    node(
      'Softmax',
      [causal ? 'Sm' : 'Ss'],
      ['A'],
      [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }],
    ),
    node('MatMul', ['A', 'Vt'], ['O']),
    node('Transpose', ['O'], ['Ot'], [perm([1, 0, 2])]),
    node('Reshape', ['Ot', 'merge'], ['Oc']),
    node('MatMul', ['Oc', 'WO'], ['Y']),
  ];
  const valueInfo = (name, dims) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'multi_head_self_attention',
      node: nodes,
      initializer: [
        floats('WQ', [d, d], weights[0]),
        floats('WK', [d, d], weights[1]),
        floats('WV', [d, d], weights[2]),
        floats('WO', [d, d], weights[3]),
        floats('scale', [1], [1 / Math.sqrt(dk)]),
        ints('split', [n, heads, dk]),
        ints('merge', [n, d]),
        ...(causal ? [floats('mask', [n, n], mask)] : []),
      ],
      input: [valueInfo('X', [n, d])],
      output: [valueInfo('Y', [n, d])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** One head as an ONNX graph (opset 17): Softmax(Q · Transpose(K) · 1/√d_k (+ causal mask)) · V, all three inputs. */
function headModel({ n, dk, causal }) {
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const floats = (name, dims, data) => ({
    name,
    dims,
    dataType: FLOAT,
    rawData: new Uint8Array(Float32Array.from(data).buffer),
  });
  const node = (opType, input, output, attribute = []) => ({ opType, input, output, attribute });
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mask[i * n + j] = -1e30;
  const valueInfo = (name) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: [n, dk].map((dimValue) => ({ dimValue })) } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'one_head_attention',
      node: [
        node(
          'Transpose',
          ['K'],
          ['Kt'],
          [{ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: [1, 0] }],
        ),
        node('MatMul', ['Q', 'Kt'], ['S']),
        node('Mul', ['S', 'scale'], ['Ss']),
        ...(causal ? [node('Add', ['Ss', 'mask'], ['Sm'])] : []),
        node(
          'Softmax',
          [causal ? 'Sm' : 'Ss'],
          ['A'],
          [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }],
        ),
        node('MatMul', ['A', 'V'], ['Y']),
      ],
      initializer: [floats('scale', [1], [1 / Math.sqrt(dk)]), ...(causal ? [floats('mask', [n, n], mask)] : [])],
      input: [valueInfo('Q'), valueInfo('K'), valueInfo('V')],
      output: [valueInfo('Y')],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * onnxruntime-web (WebAssembly backend, SIMD, one thread) running `model(benchCase)`, whose output is Y;
 * `feeds(benchCase)` maps an input array to the session's inputs.
 */
function onnxruntimePeer(ort, model, feeds) {
  return {
    name: 'onnxruntime-web',
    async prepare(benchCase) {
      const session = await ort.InferenceSession.create(model(benchCase), { executionProviders: ['wasm'] });
      const feed = feeds(benchCase);
      const run = async (x) => (await session.run(feed(x))).Y.data;
      run.dispose = () => session.release();
      return run;
    },
  };
}

/** onnxruntime-web on multi-head self-attention (cases.js MULTI_HEAD). */
export const onnxruntime = (ort) =>
  onnxruntimePeer(ort, attentionModel, ({ n, d }) => (x) => ({ X: new ort.Tensor('float32', x, [n, d]) }));

/** onnxruntime-web on one head (cases.js ONE_HEAD). */
export const onnxruntimeHead = (ort) =>
  onnxruntimePeer(ort, headModel, ({ n, dk }) => (qkv) => {
    const tensor = (k) => new ort.Tensor('float32', qkv.subarray(k * n * dk, (k + 1) * n * dk), [n, dk]);
    return { Q: tensor(0), K: tensor(1), V: tensor(2) };
  });

/** TF.js with its WebAssembly backend (SIMD). */
export function tensorflow(tf) {
  return {
    name: 'tfjs-wasm',
    prepare({ n, d, heads, causal, weights }) {
      const dk = d / heads;
      const [wq, wk, wv, wo] = weights.map((w) => tf.keep(tf.tensor2d(w, [d, d])));
      const mask = tf.keep(
        tf.tensor2d(
          Float32Array.from({ length: n * n }, (_, k) => (k % n > Math.floor(k / n) ? -1e30 : 0)),
          [n, n],
        ),
      );
      const run = (x) => {
        const y = tf.tidy(() => {
          const input = tf.tensor2d(x, [n, d]);
          const split = (w) => tf.transpose(tf.reshape(tf.matMul(input, w), [n, heads, dk]), [1, 0, 2]);
          let scores = tf.mul(tf.matMul(split(wq), split(wk), false, true), 1 / Math.sqrt(dk));
          if (causal) scores = tf.add(scores, mask);
          const heads_ = tf.matMul(tf.softmax(scores), split(wv));
          return tf.matMul(tf.reshape(tf.transpose(heads_, [1, 0, 2]), [n, d]), wo);
        });
        const out = y.dataSync();
        y.dispose();
        return out;
      };
      run.dispose = () => [wq, wk, wv, wo, mask].forEach((t) => t.dispose());
      return run;
    },
  };
}

/** Plain JavaScript, written for speed: i-p-j loops over Float32Arrays, preallocated buffers. */
export function plainJs() {
  return {
    name: 'plain JS',
    prepare({ n, d, heads, causal, weights: [wq, wk, wv, wo] }) {
      const dk = d / heads;
      const q = new Float32Array(n * d),
        k = new Float32Array(n * d),
        v = new Float32Array(n * d);
      const concat = new Float32Array(n * d),
        out = new Float32Array(n * d),
        row = new Float32Array(n);
      const matmul = (a, b, c, rows, inner, cols) => {
        c.fill(0);
        for (let i = 0; i < rows; i++)
          for (let p = 0; p < inner; p++) {
            const av = a[i * inner + p],
              bo = p * cols,
              co = i * cols;
            for (let j = 0; j < cols; j++) c[co + j] += av * b[bo + j];
          }
      };
      const scale = 1 / Math.sqrt(dk);
      return (x) => {
        matmul(x, wq, q, n, d, d);
        matmul(x, wk, k, n, d, d);
        matmul(x, wv, v, n, d, d);
        concat.fill(0);
        for (let h = 0; h < heads; h++) {
          const o = h * dk;
          for (let i = 0; i < n; i++) {
            const limit = causal ? i + 1 : n;
            let max = -Infinity;
            for (let j = 0; j < limit; j++) {
              let dot = 0;
              for (let c = 0; c < dk; c++) dot += q[i * d + o + c] * k[j * d + o + c];
              row[j] = dot * scale;
              if (row[j] > max) max = row[j];
            }
            let sum = 0;
            for (let j = 0; j < limit; j++) sum += row[j] = Math.exp(row[j] - max);
            for (let j = 0; j < limit; j++) {
              const w = row[j] / sum;
              for (let c = 0; c < dk; c++) concat[i * d + o + c] += w * v[j * d + o + c];
            }
          }
        }
        matmul(concat, wo, out, n, d, d);
        return out;
      };
    },
  };
}
