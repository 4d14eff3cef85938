// One attention core per page: every <attention-explorer> shares one loaded wasm module and one
// embedding asset (per assets location), however many elements the page holds.
import { createAttentionCore } from '../core/index.js';
import { setCoreLimits } from '../settings/limits.js';

const cores = new Map(); // assets base and models base ('' = bundled) → Promise<AttentionCore>

/** A folder named by an attribute, as a URL resolved against the page (with its trailing slash), or null for ''. */
const folder = (name) => (name ? new URL(name.endsWith('/') ? name : `${name}/`, document.baseURI) : null);

/**
 * The page's core for assets at `assetsBase` (a folder URL holding attn_core.wasm, attn_core.relaxed.wasm,
 * embeddings.bin and the language models' causal.safetensors and masked.safetensors, resolved against the page), or the
 * bundled assets when it is empty; the language models from `modelsBase` when it is given (the single file keeps its
 * inlined .wasm and word vectors and finds only the models there).
 * @param {string} [assetsBase]  @param {string} [modelsBase]
 * @returns {Promise<import('../core/index.js').AttentionCore>}
 */
export function sharedCore(assetsBase = '', modelsBase = '') {
  const key = `${assetsBase}\n${modelsBase}`;
  if (!cores.has(key)) {
    const base = folder(assetsBase);
    const options = base
      ? {
          wasmUrl: new URL('attn_core.wasm', base),
          relaxedWasmUrl: new URL('attn_core.relaxed.wasm', base),
          embeddingsUrl: new URL('embeddings.bin', base),
          languageModelsUrl: base,
        }
      : {};
    if (modelsBase) options.languageModelsUrl = folder(modelsBase);
    cores.set(
      key,
      createAttentionCore(options).then(
        (core) => {
          setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
          return core;
        },
        (error) => {
          cores.delete(key); // a later try (the files put in place, the attribute set again) loads anew
          throw error;
        },
      ),
    );
  }
  return cores.get(key);
}
