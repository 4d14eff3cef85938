// One attention core per page: every <attention-explorer> shares one loaded wasm module and one
// embedding asset (per assets location), however many elements the page holds.
import { createAttentionCore } from '../core/index.js';
import { setCoreLimits } from '../settings/limits.js';

const cores = new Map(); // assets base ('' = bundled) → Promise<AttentionCore>

/**
 * The page's core for assets at `assetsBase` (a folder URL holding attn_core.wasm, attn_core.relaxed.wasm,
 * embeddings.bin and the language models' causal.safetensors and masked.safetensors, resolved against the page), or the
 * bundled assets when it is empty.
 * @param {string} [assetsBase]
 * @returns {Promise<import('../core/index.js').AttentionCore>}
 */
export function sharedCore(assetsBase = '') {
  if (!cores.has(assetsBase)) {
    const base = assetsBase && new URL(assetsBase.endsWith('/') ? assetsBase : `${assetsBase}/`, document.baseURI);
    cores.set(
      assetsBase,
      createAttentionCore(
        base
          ? {
              wasmUrl: new URL('attn_core.wasm', base),
              relaxedWasmUrl: new URL('attn_core.relaxed.wasm', base),
              embeddingsUrl: new URL('embeddings.bin', base),
              languageModelsUrl: base,
            }
          : {},
      ).then(
        (core) => {
          setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
          return core;
        },
        (error) => {
          cores.delete(assetsBase); // a later try (the files put in place, the attribute set again) loads anew
          throw error;
        },
      ),
    );
  }
  return cores.get(assetsBase);
}
