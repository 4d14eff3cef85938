// The JavaScript face of the C++ attention core (compiled to WebAssembly). Works unchanged in
// Node ≥ 20 and in browsers. Every tensor in and out is a plain { data: Float32Array, shape }, row-major:
// element [i, j] of a [rows, cols] tensor is data[i * cols + j]. Outputs are copies the caller owns;
// there is nothing to free. Invalid arguments throw TypeError (wrong type) or RangeError (value out
// of range, shape mismatch), with a message naming the argument and the allowed values.
import createAttnModule from '../../../build/wasm/attn_core.mjs';
import * as check from './checks.js';

const DEFAULT_EMBEDDINGS_URL = new URL('../../assets/embeddings.bin', import.meta.url);
const MAX_SEQ_LEN = 65536;
const MAX_D_MODEL = 4096;
const MAX_SEED = 2 ** 32 - 1;

/** Unwraps a binding result: { value } or { error: { name, message } } (the core never throws across wasm). */
function unwrap(result) {
  if (!result.error) return result.value;
  const ErrorClass = result.error.name === 'RangeError' ? RangeError : Error;
  throw new ErrorClass(result.error.message);
}

async function readAsset(url) {
  const href = url instanceof URL ? url : new URL(url, globalThis.location?.href);
  if (href.protocol === 'file:') {
    const fs = globalThis.process.getBuiltinModule('fs');
    return new Uint8Array(await fs.promises.readFile(href));
  }
  const response = await fetch(href);
  if (!response.ok) throw new Error(`embeddings asset ${href}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

function attentionOptions(options, where) {
  const { causal = false, validLength, temperature = 1 } = options;
  return {
    causal: check.boolean(causal, where, 'causal'),
    validLength: validLength === undefined ? undefined : check.integerIn(validLength, where, 'validLength', 0, MAX_SEQ_LEN),
    temperature: check.finiteIn(temperature, where, 'temperature', { above: 0 }),
  };
}

/**
 * Loads the wasm module and the word vectors.
 * @param {{ embeddingsUrl?: string | URL, embeddings?: Uint8Array }} [options]
 *   embeddingsUrl: where to fetch the embedding asset (default: web/assets/embeddings.bin beside this
 *   package; file: URLs are read from disk in Node); embeddings: the asset's bytes, to skip loading.
 * @returns {Promise<AttentionCore>} rejects with an Error naming the file and the reason (HTTP status,
 *   wrong magic, unsupported version, truncated, checksum mismatch).
 */
export async function createAttentionCore(options = {}) {
  check.knownOptions(options, 'createAttentionCore', ['embeddingsUrl', 'embeddings']);
  const url = options.embeddingsUrl ?? DEFAULT_EMBEDDINGS_URL;
  const [wasm, bytes] = await Promise.all([createAttnModule(), options.embeddings ?? readAsset(url)]);
  const loaded = wasm.loadEmbeddings(bytes);
  if (loaded.error) throw new Error(`${options.embeddings ? 'embeddings bytes' : String(url)}: ${loaded.error.message}`);
  return makeCore(wasm, loaded.value);
}

function makeCore(wasm, { vocabSize, dModel }) {
  return {
    /** Vocabulary size of the loaded word vectors (20,000 for the shipped asset). */
    vocabSize,
    /** Width of a word vector, d_model (100 for the shipped GloVe-derived vectors). */
    dModel,
    /** Longest token sequence explain() traces; longer text is cut (trace.truncated). */
    maxTokens: wasm.maxTokens,

    /**
     * Words and punctuation of `text`. start/end are UTF-16 offsets: text.slice(start, end) is the
     * token. oov: the word has no pretrained vector (it gets a deterministic hashed one).
     * @param {string} text @returns {{ text: string, start: number, end: number, oov: boolean }[]}
     */
    tokenize(text) {
      return unwrap(wasm.tokenize(check.text(text, 'tokenize')));
    },

    /** Word vectors X of the tokens of `text`: { data, shape: [seqLen, dModel] }. */
    embed(text) {
      return unwrap(wasm.embed(check.text(text, 'embed')));
    },

    /**
     * Sinusoidal positional encoding P (Vaswani et al. 2017 §3.5): P[i, 2j] = sin(i / base^(2j/dModel)),
     * P[i, 2j+1] = cos(…), positions from 0; an odd dModel ends on a sine column.
     * @returns {{ data: Float32Array, shape: [seqLen, dModel] }}
     * @throws RangeError unless 0 ≤ seqLen ≤ 65536, 1 ≤ dModel ≤ 4096, seqLen · dModel ≤ 2²⁴ and base > 1.
     */
    sinusoidalEncoding(seqLen, dModel, options = {}) {
      const where = 'sinusoidalEncoding';
      check.knownOptions(options, where, ['base']);
      const { base = 10000 } = options;
      return unwrap(wasm.sinusoidalEncoding(check.integerIn(seqLen, where, 'seqLen', 0, MAX_SEQ_LEN),
        check.integerIn(dModel, where, 'dModel', 1, MAX_D_MODEL), check.finiteIn(base, where, 'base', { above: 1 })));
    },

    /**
     * Scaled dot-product attention for one head (Vaswani et al. 2017 eq. 1):
     * scores = Q Kᵀ / (√d_k · temperature), masked cells −∞; weights = row softmax (rows sum to 1,
     * a row with every key masked is all 0); output = weights · V.
     * queries [n, d_k], keys [m, d_k], values [m, d_v] → scores, weights [n, m], output [n, d_v].
     * causal hides keys j > i; validLength hides keys j ≥ validLength (padding).
     */
    attention({ queries, keys, values, ...options } = {}) {
      const where = 'attention';
      check.knownOptions(options, where, ['causal', 'validLength', 'temperature']);
      return unwrap(wasm.attention({
        queries: check.matrix(queries, where, 'queries'),
        keys: check.matrix(keys, where, 'keys'),
        values: check.matrix(values, where, 'values'),
        ...attentionOptions(options, where),
      }));
    },

    /**
     * Multi-head self-attention (Vaswani et al. 2017 §3.2.2): Q = input·wQ, K = input·wK, V = input·wV;
     * head h uses columns h·d_k … (h+1)·d_k − 1 with d_k = dModel / numHeads; output = concat(heads)·wO.
     * input [seqLen, dModel]; wQ, wK, wV, wO [dModel, dModel].
     * @returns {{ weights, output }} and every intermediate: queries, keys, values, headOutputs
     *   [numHeads, seqLen, d_k]; scores (masked cells −∞), weights [numHeads, seqLen, seqLen];
     *   concat, output [seqLen, dModel].
     * @throws RangeError if numHeads does not divide dModel or a weight is not [dModel, dModel].
     */
    multiHeadAttention({ input, numHeads, wQ, wK, wV, wO, ...options } = {}) {
      const where = 'multiHeadAttention';
      check.knownOptions(options, where, ['causal', 'validLength', 'temperature']);
      return unwrap(wasm.multiHeadAttention({
        input: check.matrix(input, where, 'input'),
        numHeads: check.integerIn(numHeads, where, 'numHeads', 1, MAX_D_MODEL),
        wQ: check.matrix(wQ, where, 'wQ'),
        wK: check.matrix(wK, where, 'wK'),
        wV: check.matrix(wV, where, 'wV'),
        wO: check.matrix(wO, where, 'wO'),
        ...attentionOptions(options, where),
      }));
    },

    /**
     * One explorer update: tokens → X (word vectors) → X + P → multi-head self-attention, every step
     * returned (one wasm call). Options: numHeads (divisor of dModel, default 1), projection
     * ('identity' | 'random', default 'identity'), seed (0 … 2³²−1, random projections), positionalEncoding
     * (default true), base (default 10000), causal, validLength (clamped to the sentence), temperature,
     * maxTokens (1 … core.maxTokens).
     * @returns trace: { tokens: [{ text, start, end, id, oov }], totalTokens, truncated,
     *   embeddings, positional, input: [seqLen, dModel], queries, keys, values, headOutputs:
     *   [numHeads, seqLen, d_k], scores, weights: [numHeads, seqLen, seqLen], concat, output:
     *   [seqLen, dModel], options: the options used }
     */
    explain(text, options = {}) {
      const where = 'explain';
      check.knownOptions(options, where, ['numHeads', 'projection', 'seed', 'positionalEncoding', 'base',
        'causal', 'validLength', 'temperature', 'maxTokens']);
      const { numHeads = 1, projection = 'identity', seed = 0, positionalEncoding = true, base = 10000,
        maxTokens = wasm.maxTokens } = options;
      const normalized = {
        numHeads: check.integerIn(numHeads, where, 'numHeads', 1, dModel),
        projection: check.oneOf(projection, where, 'projection', ['identity', 'random']),
        seed: check.integerIn(seed, where, 'seed', 0, MAX_SEED),
        positionalEncoding: check.boolean(positionalEncoding, where, 'positionalEncoding'),
        base: check.finiteIn(base, where, 'base', { above: 1 }),
        maxTokens: check.integerIn(maxTokens, where, 'maxTokens', 1, wasm.maxTokens),
        ...attentionOptions(options, where),
      };
      const trace = unwrap(wasm.explain(check.text(text, where), normalized));
      return { ...trace, options: normalized };
    },

    /** Bytes currently allocated on the wasm heap: for leak checks (it must not grow over repeated calls). */
    heapInUse() {
      return wasm.heapInUse();
    },
  };
}
