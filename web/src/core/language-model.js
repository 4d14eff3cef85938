// core.languageModel(): the explorer's own small transformer language models, trained by the core on
// public-domain English (npm run train:lm; cpp/include/attn/train/language_trainer.hpp) and shipped as
// safetensors files (web/assets/models/). The file is read here (safetensors.js, JSON.parse for the
// header and the metadata), checked, and handed to the core, which runs the model on any text.
import { readAsset, refuseWebPage } from './assets.js';
import * as check from './checks.js';
import { generateMethod } from './generate.js';
import { attributeMethod, checkAblate } from './knockout.js';
import { gpt2Api } from './gpt2.js';
import { layerViews } from './layer-views.js';
import { readSafetensors } from './safetensors.js';
import { checkSampling } from './sampling-options.js';
import { unwrap } from './wasm-module.js';

const DEFAULT_URLS = {
  causal: new URL('../../assets/models/causal.safetensors', import.meta.url),
  masked: new URL('../../assets/models/masked.safetensors', import.meta.url),
};
const FORMAT = 'attention-explorer-language-model';
const FORMAT_VERSION = '1';

/**
 * FNV-1a 64 over the float32 little-endian bytes of every tensor in file order, as the file's checksum records it:
 * h = (h ⊕ byte) × (2⁴⁰ + 435) mod 2⁶⁴, offset basis 14695981039346656037, in 32-bit halves (every intermediate below
 * 2⁵³, exact in a double; `>>> 0` takes a double mod 2³²).
 */
function checksum(tensors) {
  let hi = 0xcbf29ce4,
    lo = 0x84222325;
  const word = new Float32Array(1);
  const wordBytes = new Uint8Array(word.buffer);
  for (const { data } of tensors.values()) {
    // The float32 bytes little-endian: a view of the array on a little-endian machine, else each value written out.
    const bytes =
      new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
        : null;
    for (let i = 0, n = data.byteLength; i < n; ++i) {
      let byte;
      if (bytes) byte = bytes[i];
      else {
        if (i % 4 === 0) word[0] = data[i / 4];
        byte = wordBytes[3 - (i % 4)];
      }
      const x = (lo ^ byte) >>> 0;
      const low = x * 435;
      lo = low >>> 0;
      hi = (Math.imul(hi, 435) + (low - lo) / 0x100000000 + (x << 8)) >>> 0;
    }
  }
  return `fnv1a64:${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}`;
}

/** The metadata field `key` parsed as JSON; an Error naming the file when it is missing or not JSON. */
function metadataJson(metadata, key, fileName) {
  if (typeof metadata[key] !== 'string')
    throw new RangeError(`${fileName}: no '${key}' in __metadata__: not a language model file`);
  try {
    return JSON.parse(metadata[key]);
  } catch (error) {
    throw new RangeError(`${fileName}: '${key}' in __metadata__ is not JSON (${error.message})`, { cause: error });
  }
}

/** Reads a language model file: { recipe, measured, words, tensors }, or a RangeError naming the file and what is wrong. */
export function readLanguageModelFile(bytes, fileName) {
  const { tensors, metadata } = readSafetensors(bytes, fileName);
  if (metadata.format !== FORMAT) throw new RangeError(`${fileName}: format is '${metadata.format}', not ${FORMAT}`);
  if (metadata.format_version !== FORMAT_VERSION) {
    throw new RangeError(
      `${fileName}: format version ${metadata.format_version} is not supported (this core reads version ${FORMAT_VERSION})`,
    );
  }
  if (metadata.checksum !== checksum(tensors))
    throw new RangeError(`${fileName}: the tensors do not match their checksum (the file is corrupted)`);
  const words = metadataJson(metadata, 'vocabulary', fileName);
  if (!Array.isArray(words) || !words.every((w) => typeof w === 'string'))
    throw new RangeError(`${fileName}: the vocabulary is not a list of words`);
  const heads = metadata.heads === undefined ? [] : metadataJson(metadata, 'heads', fileName);
  const asStored = metadata.measured_file === undefined ? undefined : metadataJson(metadata, 'measured_file', fileName);
  return {
    recipe: metadataJson(metadata, 'recipe', fileName),
    measured: metadataJson(metadata, 'measured', fileName),
    asStored,
    heads,
    words,
    tensors,
  };
}

/**
 * The language-model API over the module `wasm` (index.d.ts documents each member); modelsUrl: the folder the model files
 * are loaded from (createAttentionCore's languageModelsUrl), else the package's.
 */
export function languageModelApi(wasm, modelsUrl) {
  const limits = Object.freeze(wasm.languageModelLimits());
  const released = new FinalizationRegistry((id) => wasm.languageModelRelease(id));
  const gpt2 = gpt2Api(wasm, limits);

  /**
   * The LanguageModel object over the core's model `id`: kind, the recipe and measurements it was made with (a file's
   * metadata, or a trainer's options), its output words (without <unk>), its measured heads, d_model, and what to do
   * when it is released.
   */
  function makeModel({ kind, recipe, measured, words, heads = [], asStored, dModel, onRelease = () => {} }, id) {
    const vocabulary = [...words, '<unk>'];
    const [numLayers, numHeads] = [recipe.numLayers, recipe.numHeads];
    const wordOf = (ids, p, at) => ({ word: vocabulary[ids[at]], p: p[at] });
    /**
     * run()'s output-layer fields at the positions computed: unk (p of <unk>), logits (a copy of the V_out row) and,
     * with `sampling`, the first k of the sampling distribution (the core's sampling_distribution: sampling.hpp), which
     * the same core call computed.
     */
    const outputsAt = (r, T, sampling) => {
      const V = vocabulary.length;
      const unk = new Array(T).fill(null);
      const logits = new Array(T).fill(null);
      const outputInput = new Array(T).fill(null);
      const sampled = new Array(T).fill(null);
      r.positions.forEach((t, n) => {
        unk[t] = r.unk[n];
        logits[t] = r.logits.slice(n * V, (n + 1) * V);
        outputInput[t] = r.outputInput.slice(n * dModel, (n + 1) * dModel);
        if (!sampling) return;
        const q = r.sampling[n];
        sampled[t] = Array.from(q.ids, (o, i) => ({ word: vocabulary[o], p: q.q[i] }));
      });
      return sampling ? { unk, logits, outputInput, sampling: sampled } : { unk, logits, outputInput };
    };
    const model = {
      config: Object.freeze({
        kind,
        objective: recipe.objective,
        numLayers,
        numHeads,
        dModel,
        dK: dModel / numHeads,
        dFF: recipe.dFF,
        seqLen: recipe.seqLen,
        outputSize: vocabulary.length,
        tiedOutput: recipe.tiedOutput,
        outputHead: recipe.outputHead ?? false, // files from before the option have no head
        corpus: recipe.corpus,
        trainTokens: measured.trainTokens,
        steps: recipe.steps,
        heldOutPerplexity: kind === 'causal' ? measured.heldOutPerplexity : undefined,
        maskedTop1: kind === 'masked' ? measured.heldOutTop1 : undefined,
        maskedTop5: kind === 'masked' ? measured.heldOutTop5 : undefined,
        baselines: measured.baselines,
        recipe,
        measured,
        heads: Object.freeze(heads.map((h) => Object.freeze(h))),
        asStored: asStored && Object.freeze(asStored),
      }),
      vocabulary: Object.freeze(vocabulary),
      run(text, options = {}) {
        const where = 'languageModel.run';
        check.knownOptions(options, where, ['k', 'positions', 'activations', 'ablate', 'sampling']);
        const { k = 10, positions = 'all', activations, sampling } = options;
        const ablate = checkAblate(options.ablate ?? [], where, numLayers, numHeads);
        if (sampling !== undefined) checkSampling(sampling, where, ['temperature', 'topK'], limits);
        check.integerIn(k, where, 'k', 1, limits.maxTopK);
        if (Array.isArray(positions)) {
          if (positions.length > limits.maxTokens)
            throw new RangeError(`${where}: at most ${limits.maxTokens} positions, got ${positions.length}`);
          positions.forEach((p, i) =>
            check.integerIn(p, where, `positions[${i}]`, -limits.maxTokens, limits.maxTokens - 1),
          );
        } else {
          check.oneOf(positions, where, 'positions', limits.outputPositions);
        }
        if (activations !== undefined) {
          check.knownOptions(activations, `${where} activations`, ['layer', 'head']);
          check.integerIn(activations.layer, where, 'activations.layer', 0, numLayers - 1);
          check.integerIn(activations.head, where, 'activations.head', 0, numHeads - 1);
        }
        const r = unwrap(
          wasm.languageModelRun(
            id,
            check.text(text, where),
            k,
            positions,
            activations && { layer: activations.layer, head: activations.head },
            ablate,
            sampling && { temperature: sampling.temperature ?? 1, topK: sampling.topK ?? 0 },
          ),
          where,
        );
        const T = r.tokens.length;
        const { attention, hidden } = layerViews(r, { numLayers, numHeads, dModel }, T);
        const embeddings = { shape: [T, dModel], data: r.embeddings };
        const input = { shape: [T, dModel], data: r.input };
        const top = new Array(T).fill(null);
        r.positions.forEach((t, n) => {
          top[t] = Array.from({ length: k }, (_, i) => wordOf(r.topIds, r.topP, n * k + i));
        });
        const output = outputsAt(r, T, sampling);
        return activations
          ? { tokens: r.tokens, embeddings, input, attention, hidden, top, ...output, activations: r.activations }
          : { tokens: r.tokens, embeddings, input, attention, hidden, top, ...output };
      },
      sample(text, options = {}) {
        const where = 'languageModel.sample';
        const { ablate: heads = [], ...sampling } = options;
        checkSampling(sampling, where, ['temperature', 'topK', 'seed'], limits);
        const ablate = checkAblate(heads, where, numLayers, numHeads);
        const { temperature = 1, topK = 0, seed = 0 } = sampling;
        const s = unwrap(wasm.languageModelSample(id, check.text(text, where), temperature, topK, seed, ablate), where);
        return { word: s.word, id: s.id, p: s.q, position: s.position };
      },
      generate(text, options = {}) {
        if (kind !== 'causal')
          throw new RangeError("languageModel.generate: only the 'causal' model writes on after a text");
        return writeOn(text, options);
      },
      score(text) {
        if (kind !== 'causal')
          throw new RangeError("languageModel.score: only the 'causal' model scores text (it predicts the next word)");
        const where = 'languageModel.score';
        return unwrap(wasm.languageModelScore(id, check.text(text, where)), where);
      },
      fillMask(text, k = 10) {
        const where = 'languageModel.fillMask';
        if (kind !== 'masked')
          throw new RangeError(`${where}: only the 'masked' model fills in [MASK] (the causal one was never shown it)`);
        const r = model.run(text, { k: check.integerIn(k, where, 'k', 1, limits.maxTopK), positions: 'masks' });
        const blanks = r.tokens.flatMap((token, position) => (token.mask ? [{ position, top: r.top[position] }] : []));
        if (blanks.length === 0) throw new RangeError(`${where}: the text has no [MASK] to fill in`);
        return blanks;
      },
      attribute: attributeMethod(wasm, id, vocabulary, numLayers, numHeads, limits.maxTokens),
      parameters() {
        return unwrap(wasm.languageModelParameters(id), 'languageModel.parameters');
      },
      release() {
        released.unregister(model);
        wasm.languageModelRelease(id);
        onRelease(model);
      },
      measureHeads(text, { maxWindows = 2000 } = {}) {
        const where = 'languageModel.measureHeads';
        return unwrap(
          wasm.languageModelHeads(
            id,
            check.text(text, where),
            check.integerIn(maxWindows, where, 'maxWindows', 1, 1e6),
          ),
          where,
        );
      },
      repeatedWords(options = {}) {
        const where = 'languageModel.repeatedWords';
        check.knownOptions(options, where, ['repeat', 'sequences', 'seed']);
        const { repeat = limits.repeatedWords, sequences = limits.repeatedSequences, seed = 0 } = options;
        check.integerIn(repeat, where, 'repeat', limits.minRepeatedWords, limits.maxRepeatedWords);
        check.integerIn(sequences, where, 'sequences', 1, limits.maxRepeatedSequences);
        check.integerIn(seed, where, 'seed', 0, limits.maxSampleSeed);
        return unwrap(wasm.languageModelRepeatedWords(id, repeat, sequences, seed), where);
      },
    };
    const writeOn = generateMethod(wasm, model.sample, limits);
    released.register(model, id, model);
    return model;
  }

  /** The file's bytes; where the file was looked for by default, a failure says where it ships and how to point at it. */
  async function readModelFile(kind, url, byDefault) {
    try {
      const bytes = await readAsset(url, `${kind} language model`);
      refuseWebPage(bytes, `${kind} language model ${url}`);
      return bytes;
    } catch (error) {
      if (!byDefault) throw error;
      throw new Error(
        `${error.message}. ${kind}.safetensors ships in the npm package's dist/core/: put it at that address, or name the folder ` +
          "that holds it (createAttentionCore's languageModelsUrl; the element's models-base attribute)",
        { cause: error },
      );
    }
  }

  const loaded = new Map();
  /**
   * @param {'causal' | 'masked' | { architecture: 'gpt2', url?: string | URL, bytes?: Uint8Array }} kind
   *   one of our models, or a checkpoint an author brings (gpt2.js)
   * @param {{ url?: string | URL, bytes?: Uint8Array }} [options] where the file is (default: <kind>.safetensors in the
   *   core's languageModelsUrl, else web/assets/models/ beside the core), or its bytes
   */
  function languageModel(kind, options = {}) {
    // A function that returns a promise reports every error through it, bad arguments too (the WHATWG's "Writing
    // Promise-Using Specifications", §3.2): `await core.languageModel('gpt2')` and `.catch()` both see it.
    try {
      if (kind !== null && typeof kind === 'object') {
        // A checkpoint of another architecture: { url | bytes, architecture, config, onProgress } (gpt2.js).
        check.oneOf(kind.architecture, 'languageModel', 'architecture', limits.architectures);
        return gpt2.loadGpt2(kind);
      }
      return load(kind, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function load(kind, options) {
    const where = 'languageModel';
    check.oneOf(kind, where, 'kind', limits.objectives);
    check.knownOptions(options, where, ['url', 'bytes']);
    if (options.bytes === undefined && options.url === undefined && loaded.has(kind)) return loaded.get(kind);
    const url = options.url ?? (modelsUrl ? new URL(`${kind}.safetensors`, modelsUrl) : DEFAULT_URLS[kind]);
    if (!url && !options.bytes) {
      throw new RangeError(
        `${where}: this build carries no language model files (the training worker leaves them out): ` +
          `pass { url } of ${kind}.safetensors (in the package's dist/core/)`,
      );
    }
    const promise = (async () => {
      const bytes = options.bytes ?? (await readModelFile(kind, url, options.url === undefined));
      const fileName = options.bytes ? `${kind} model bytes` : String(url);
      const file = readLanguageModelFile(bytes, fileName);
      if (file.recipe.objective !== kind)
        throw new RangeError(`${fileName}: holds the ${file.recipe.objective} model, not the ${kind} one`);
      const tensors = Object.fromEntries([...file.tensors].map(([name, t]) => [name, t.data]));
      const created = wasm.languageModelCreate({ recipe: file.recipe, words: file.words, tensors });
      if (created.error) throw new RangeError(`${fileName}: ${created.error.message}`);
      // The one loaded per kind is loaded again after a release.
      const onRelease = () => {
        if (loaded.get(kind) === promise) loaded.delete(kind);
      };
      return makeModel(
        { kind, ...file, dModel: file.tensors.get('layers.0.attention.w_q').shape[0], onRelease },
        created.value,
      );
    })();
    if (options.bytes === undefined && options.url === undefined) {
      loaded.set(kind, promise);
      promise.catch(() => loaded.delete(kind)); // a failed load may be retried
    }
    return promise;
  }

  return { languageModel, languageModelLimits: limits, gpt2Limits: gpt2.gpt2Limits, makeModel };
}
