// core.languageModel({ url | bytes, architecture: 'gpt2' }): a GPT-2-family checkpoint an author brings (GPT-2 small,
// distilgpt2, …) in Hugging Face's safetensors layout, run by the core (cpp/include/attn/train/gpt2.hpp). The file is
// parsed here (safetensors.js) and streamed into wasm memory a block of rows at a time, so the weights are held once
// there; its text goes through GPT-2's byte-level BPE (gpt2-tokenizer.js).
import { absolute, readAsset, refuseWebPage } from './assets.js';
import * as check from './checks.js';
import { layerViews } from './layer-views.js';
import { gpt2AttributionMethods } from './gpt2-attribution.js';
import { checkAblate } from './knockout.js';
import { checkSampling } from './sampling-options.js';
import { decodeTensor, parseSafetensors } from './safetensors.js';
import { unwrap } from './wasm-module.js';

/** The scratch block a tensor streams through: 1 Mi floats (4 MB), a few rows of the largest matrix. */
const BLOCK_FLOATS = 1 << 20;

/** How long the loader works before it yields to the page (a progress bar paints between blocks), in ms. */
const YIELD_MS = 30;

/** config.json's keys that must agree with the tensors, by what the core calls them. */
const CONFIG_SIZES = { vocabSize: 'vocab_size', nPositions: 'n_positions', dModel: 'n_embd', numLayers: 'n_layer' };

/**
 * Checks config.json (Hugging Face's GPT2Config) for what the core runs and returns its head count (0 when it has none;
 * its sizes are checked against the tensors' in loadGpt2). A RangeError naming the file for another model type,
 * another activation than GPT-2's "gelu_new" (the tanh form), or another LayerNorm ε than 1e-5.
 */
function configHeads(json, fileName) {
  if (json === undefined) return 0;
  if (json === null || typeof json !== 'object') throw new TypeError(`${fileName}: config must be an object`);
  const fail = (problem) => new RangeError(`${fileName}: config.json ${problem}`);
  if (json.model_type !== undefined && json.model_type !== 'gpt2')
    throw fail(`is for a '${json.model_type}' model, not 'gpt2'`);
  if (json.activation_function !== undefined && json.activation_function !== 'gelu_new')
    throw fail(`says activation_function '${json.activation_function}': the core runs GPT-2's 'gelu_new' only`);
  if (json.layer_norm_epsilon !== undefined && json.layer_norm_epsilon !== 1e-5)
    throw fail(`says layer_norm_epsilon ${json.layer_norm_epsilon}: the core runs GPT-2's 1e-5 only`);
  return json.n_head ?? 0;
}

/** What config.json says beside `url`, or undefined when there is none (or it cannot be read as JSON). */
async function configBeside(url) {
  try {
    const bytes = await readAsset(new URL('config.json', absolute(url)), 'GPT-2 config');
    refuseWebPage(bytes, 'config.json'); // a site's fallback page: there is no config
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined; // the sizes come from the tensors; the head count then defaults to d_model / 64
  }
}

/**
 * The GPT-2 part of the language-model API over the module `wasm`; limits: core.languageModelLimits.
 * @returns {{ loadGpt2: (options: object) => Promise<object>, gpt2Limits: object }}
 */
export function gpt2Api(wasm, limits) {
  const gpt2Limits = Object.freeze(wasm.gpt2Limits());
  const released = new FinalizationRegistry((id) => wasm.gpt2Release(id));
  let tokenizer = null;
  /** GPT-2's BPE, loaded with the first checkpoint (its tables are 0.5 MB the page needs only then). */
  const loadTokenizer = async () => (tokenizer ??= await import('./gpt2-tokenizer.js'));

  /** Streams the file's tensors into the core's model `id`, reporting progress; yields to the page between blocks. */
  async function stream(id, layout, entries, data, progress) {
    const total = layout.specs.reduce((n, s) => n + s.shape.reduce((a, b) => a * b, 1), 0);
    const address = unwrap(wasm.gpt2Scratch(id, BLOCK_FLOATS), 'languageModel');
    let done = 0;
    let since = performance.now();
    for (const [i, spec] of layout.specs.entries()) {
      const entry = entries[layout.tensorOfSpec[i]];
      const cols = spec.shape.at(-1);
      const rows = spec.shape.length === 1 ? 1 : spec.shape[0];
      const step = Math.max(1, Math.floor(BLOCK_FLOATS / cols));
      for (let first = 0; first < rows; first += step) {
        const count = Math.min(step, rows - first);
        // The heap's view is taken anew each block: wasm memory may have grown (and moved) since.
        const scratch = new Float32Array(wasm.HEAPF32.buffer, address, count * cols);
        decodeTensor(entry, data, scratch, first * cols, count * cols);
        unwrap(wasm.gpt2Load(id, i, first, count), 'languageModel');
        done += count * cols;
        if (performance.now() - since > YIELD_MS) {
          progress({ stage: 'load', loaded: done, total });
          await new Promise((resolve) => setTimeout(resolve, 0));
          since = performance.now();
        }
      }
    }
    unwrap(wasm.gpt2Finish(id), 'languageModel');
    progress({ stage: 'load', loaded: total, total });
  }

  /**
   * @param {{ url?: string | URL, bytes?: Uint8Array, config?: object, onProgress?: Function }} options
   * @returns {Promise<object>} the model (language-model.d.ts, Gpt2Model)
   */
  async function loadGpt2(options) {
    const where = 'languageModel';
    check.knownOptions(options, where, ['url', 'bytes', 'architecture', 'config', 'onProgress']);
    const { url, bytes: given, onProgress = () => {} } = options;
    if ((url === undefined) === (given === undefined))
      throw new TypeError(`${where}: a GPT-2 checkpoint needs { url } or { bytes } (one of them)`);
    if (typeof onProgress !== 'function') throw new TypeError(`${where}: onProgress must be a function`);
    const fileName = given ? 'GPT-2 checkpoint bytes' : String(url);
    const [bytes, json] = await Promise.all([
      given ?? readAsset(url, 'GPT-2 checkpoint', (loaded, total) => onProgress({ stage: 'fetch', loaded, total })),
      options.config ?? (url === undefined ? undefined : configBeside(url)),
      loadTokenizer(),
    ]);
    if (!given) refuseWebPage(bytes, `GPT-2 checkpoint ${url}`);
    const { entries, data } = parseSafetensors(bytes, fileName);
    const heads = configHeads(json, fileName);
    const layout = wasm.gpt2Layout(
      entries.map(({ name, shape }) => ({ name, shape })),
      heads,
    );
    if (layout.error) throw new RangeError(`${fileName}: ${layout.error.message}`);
    const { config, tensorOfSpec, specs } = layout.value;
    for (const [key, name] of Object.entries(CONFIG_SIZES)) {
      const said = json?.[name] ?? (name === 'n_positions' ? json?.n_ctx : undefined);
      if (said !== undefined && said !== config[key])
        throw new RangeError(`${fileName}: config.json says ${name} ${said}, the tensors ${config[key]}`);
    }
    const created = wasm.gpt2Create(config);
    if (created.error) throw new RangeError(`${fileName}: ${created.error.message}`);
    const { id, bytes: memoryBytes } = created.value;
    try {
      await stream(id, { tensorOfSpec, specs }, entries, data, onProgress);
    } catch (error) {
      wasm.gpt2Release(id); // a file that fails half-way leaves nothing behind
      throw new RangeError(`${fileName}: ${error.message.replace(/^languageModel: /, '')}`, { cause: error });
    }
    return makeGpt2(id, { ...config, memoryBytes, fileName });
  }

  /** run()'s and logitLens()'s `positions` as the core takes them: 'all' → [] (every token), or a checked list. */
  function outputPositions(positions, T, where) {
    if (positions === 'all') return [];
    if (!Array.isArray(positions) || positions.length === 0)
      throw new RangeError(`${where}: positions must be 'all' or a list of positions, got ${String(positions)}`);
    positions.forEach((p, i) => check.integerIn(p, where, `positions[${i}]`, -T, T - 1));
    return positions;
  }

  /** The model object over the core's GPT-2 `id` (language-model.d.ts documents each member). */
  function makeGpt2(id, sizes) {
    const { numLayers, numHeads, dModel, vocabSize } = sizes;
    const maxTokens = Math.min(limits.maxTokens, sizes.nPositions);
    const { encode, pieceText: piece, tokenEnds } = tokenizer;

    /** The text's BPE tokens: ids, and each piece with its leading space and its span in the text (gpt2-tokenizer.js). */
    function bpe(text, where) {
      const checked = check.text(text, where);
      const ids = encode(checked);
      const ends = tokenEnds(checked, ids);
      const tokens = ids.map((tokenId, i) => {
        const start = i ? ends[i - 1] : 0;
        // its span's text; a piece holding only the first bytes of a character spans nothing
        return { text: checked.slice(start, ends[i]), start, end: ends[i], id: tokenId, oov: false, mask: false };
      });
      return { ids: Int32Array.from(ids), tokens };
    }

    /** bpe(), for a text the model runs on: 1 … maxTokens tokens, else a RangeError. */
    function tokenize(text, where) {
      const out = bpe(text, where);
      if (out.ids.length < 1 || out.ids.length > maxTokens)
        throw new RangeError(`${where}: the text must hold 1 to ${maxTokens} tokens, got ${out.ids.length}`);
      return out;
    }

    const model = {
      config: Object.freeze({
        kind: 'gpt2',
        architecture: 'gpt2',
        objective: 'causal',
        numLayers,
        numHeads,
        dModel,
        dK: dModel / numHeads,
        dFF: sizes.dFF,
        seqLen: sizes.nPositions,
        maxTokens,
        outputSize: vocabSize,
        tiedOutput: true,
        parameters: sizes.parameters,
        memoryBytes: sizes.memoryBytes,
        file: sizes.fileName,
      }),
      tokenize: (text) => bpe(text, 'languageModel.tokenize').tokens,
      run(text, options = {}) {
        const where = 'languageModel.run';
        check.knownOptions(options, where, ['k', 'positions', 'ablate', 'sampling', 'activations']);
        const { k = 10, positions = 'all', sampling, activations } = options;
        if (activations !== undefined) {
          check.knownOptions(activations, `${where} activations`, ['layer', 'head']);
          check.integerIn(activations.layer, where, 'activations.layer', 0, numLayers - 1);
          check.integerIn(activations.head, where, 'activations.head', 0, numHeads - 1);
        }
        check.integerIn(k, where, 'k', 1, limits.maxTopK);
        const ablate = checkAblate(options.ablate ?? [], where, numLayers, numHeads);
        if (sampling !== undefined) checkSampling(sampling, where, ['temperature', 'topK'], limits);
        const { ids, tokens } = tokenize(text, where);
        const T = ids.length;
        const at = outputPositions(positions, T, where);
        const r = unwrap(
          wasm.gpt2Run(
            id,
            ids,
            k,
            at,
            ablate,
            sampling ? { temperature: sampling.temperature ?? 1, topK: sampling.topK ?? 0 } : null,
            activations ? { layer: activations.layer, head: activations.head } : null,
          ),
          where,
        );
        const { attention, hidden } = layerViews(r, { numLayers, numHeads, dModel }, T);
        const perPosition = () => new Array(T).fill(null); // null where the output layer was not asked for
        const [top, logits, outputInput, sampled] = [perPosition(), perPosition(), perPosition(), perPosition()];
        r.positions.forEach((t, n) => {
          top[t] = Array.from({ length: k }, (_, i) => ({
            word: piece(r.topIds[n * k + i]),
            id: r.topIds[n * k + i],
            p: r.topP[n * k + i],
          }));
          logits[t] = r.logits.slice(n * vocabSize, (n + 1) * vocabSize);
          outputInput[t] = r.outputInput.slice(n * dModel, (n + 1) * dModel);
          if (sampling)
            sampled[t] = Array.from(r.sampling[n].ids, (o, i) => ({ word: piece(o), id: o, p: r.sampling[n].q[i] }));
        });
        const out = {
          tokens,
          embeddings: { shape: [T, dModel], data: r.embeddings },
          input: { shape: [T, dModel], data: r.input },
          attention,
          hidden,
          top,
          unk: perPosition(), // no <unk>: the BPE pieces spell every text
          logits,
          outputInput,
        };
        if (sampling) out.sampling = sampled;
        if (activations) out.activations = r.activations;
        return out;
      },
      logitLens(text, options = {}) {
        const where = 'languageModel.logitLens';
        check.knownOptions(options, where, ['k', 'positions']);
        const { k = 1, positions = 'all' } = options;
        check.integerIn(k, where, 'k', 1, limits.maxTopK);
        const { ids, tokens } = tokenize(text, where);
        const at = outputPositions(positions, ids.length, where);
        const r = unwrap(wasm.gpt2LogitLens(id, ids, k, at), where);
        const P = r.positions.length;
        const rows = Array.from({ length: numLayers + 1 }, (_, layer) =>
          Array.from(r.positions, (position, i) => {
            const n = layer * P + i;
            const top = Array.from({ length: k }, (_, j) => {
              const tokenId = r.ids[n * k + j];
              return { word: piece(tokenId), id: tokenId, p: r.p[n * k + j] };
            });
            return { position, top, next: Number.isNaN(r.nextP[n]) ? null : r.nextP[n] };
          }),
        );
        return { tokens, positions: Array.from(r.positions), layers: rows };
      },
      repeatedWords(options = {}) {
        const where = 'languageModel.repeatedWords';
        check.knownOptions(options, where, ['repeat', 'sequences', 'seed']);
        const { repeat = limits.repeatedWords, sequences = limits.repeatedSequences, seed = 0 } = options;
        check.integerIn(repeat, where, 'repeat', limits.minRepeatedWords, Math.floor(maxTokens / 2));
        check.integerIn(sequences, where, 'sequences', 1, limits.maxRepeatedSequences);
        check.integerIn(seed, where, 'seed', 0, limits.maxSampleSeed);
        const r = unwrap(wasm.gpt2RepeatedWords(id, repeat, sequences, seed), where);
        return { ...r, example: Array.from(r.example, piece) };
      },
      positionEmbeddings() {
        return unwrap(wasm.gpt2PositionEmbeddings(id), 'languageModel.positionEmbeddings');
      },
      score(text, options = {}) {
        const where = 'languageModel.score';
        check.knownOptions(options, where, ['ablate']);
        const ablate = checkAblate(options.ablate ?? [], where, numLayers, numHeads);
        const { ids, tokens } = tokenize(text, where);
        if (ids.length < 2) throw new RangeError(`${where}: the text must hold at least 2 tokens, got ${ids.length}`);
        const logProb = unwrap(wasm.gpt2Score(id, ids, ablate), where);
        const mean = logProb.reduce((a, b) => a + b, 0) / logProb.length;
        return { tokens, logProb, perplexity: Math.exp(-mean) };
      },
      sample(text, options = {}) {
        const where = 'languageModel.sample';
        const { ablate: heads = [], ...drawing } = options;
        checkSampling(drawing, where, ['temperature', 'topK', 'seed'], limits);
        const ablate = checkAblate(heads, where, numLayers, numHeads);
        const { temperature = 1, topK = 0, seed = 0 } = drawing;
        const { ids } = tokenize(text, where);
        const s = unwrap(wasm.gpt2Sample(id, ids, temperature, topK, seed, ablate), where);
        return { word: piece(s.id), id: s.id, p: s.q, position: s.position };
      },
      generate(text, options = {}) {
        const where = 'languageModel.generate';
        check.knownOptions(options, where, ['n', 'temperature', 'topK', 'seed', 'ablate']);
        const { n = 1, seed = 0, ...drawing } = options;
        check.integerIn(n, where, 'n', 1, maxTokens);
        check.integerIn(seed, where, 'seed', 0, limits.maxSampleSeed);
        const T = tokenize(text, where).ids.length;
        if (T + n > maxTokens)
          throw new RangeError(
            `${where}: the text holds ${T} tokens; ${n} more would pass the ${maxTokens} the model reads at once`,
          );
        let written = text;
        let next = seed;
        const words = [];
        for (let i = 0; i < n; ++i) {
          const { word, id: tokenId, p } = model.sample(written, { ...drawing, seed: next });
          words.push({ word, id: tokenId, p, seed: next });
          written += word; // a BPE piece carries its own leading space
          next = next >= limits.maxSampleSeed ? 0 : next + 1;
        }
        return { text: written, words, nextSeed: next };
      },
      ...gpt2AttributionMethods(wasm, id, { numLayers, numHeads, vocabSize, tokenize, encode, piece }),
      release() {
        released.unregister(model);
        wasm.gpt2Release(id);
      },
    };
    released.register(model, id, model);
    return model;
  }

  return { loadGpt2, gpt2Limits };
}
