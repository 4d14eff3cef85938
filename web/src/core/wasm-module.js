// Starts the core's WebAssembly module, in one of two builds of the same C++ sharing one JS glue
// (attn_core.mjs):
//   'relaxed-simd'  attn_core.relaxed.wasm: the kernels use relaxed SIMD's fused multiply-add
//                   (f32x4.relaxed_madd), one instruction for a·b + c where the CPU has FMA (measured:
//                   multiHeadLayer 1.3× faster than the SIMD128 build in Chromium 156 from 16 tokens on);
//   'simd128'       attn_core.wasm: WebAssembly SIMD only, for engines without relaxed SIMD (Node 20
//                   without --experimental-wasm-relaxed-simd, Safari).
// Both agree with a float64 reference to 1e-5 (tests); relaxed results may differ between CPUs in
// the last bits, as relaxed_madd may or may not round between the multiply and the add.
import { relaxedSimd } from 'wasm-feature-detect';
import createAttnModule from '../../../build/wasm/attn_core.mjs';
import { absolute, readAsset } from './assets.js';

export const KERNELS = ['auto', 'relaxed-simd', 'simd128'];

/** The two builds in this package (the relaxed one null in bundles that ship only attn_core.wasm: the
 * single file). The glue is always told which file to start, so a bundle references each .wasm once. */
const WASM_URL = new URL('../../../build/wasm/attn_core.wasm', import.meta.url);
const RELAXED_WASM_URL = new URL('../../../build/wasm/attn_core.relaxed.wasm', import.meta.url);

/** The glue started on the .wasm at `url`. */
async function start(url) {
  const href = absolute(url);
  if (href.protocol === 'file:') return createAttnModule({ wasmBinary: await readAsset(href, 'WebAssembly module') });
  return createAttnModule({ locateFile: () => href.href });
}

/** Which build to load, and from where: the relaxed one where asked for or (auto) where it runs. */
async function choose(kernels, wasmUrl, relaxedWasmUrl) {
  const relaxedUrl = relaxedWasmUrl ?? (wasmUrl === undefined ? RELAXED_WASM_URL : null);
  if (kernels === 'simd128' || (kernels === 'auto' && !(relaxedUrl && await relaxedSimd()))) {
    if (!(wasmUrl ?? WASM_URL)) throw new Error('no attn_core.wasm here: give wasmUrl');
    return { kernels: 'simd128', file: 'attn_core.wasm', url: wasmUrl ?? WASM_URL };
  }
  if (!relaxedUrl) throw new Error('no attn_core.relaxed.wasm here (give relaxedWasmUrl, or kernels: "simd128")');
  if (!await relaxedSimd()) {
    throw new Error('this engine does not run relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd); use kernels: "simd128"');
  }
  return { kernels: 'relaxed-simd', file: 'attn_core.relaxed.wasm', url: relaxedUrl };
}

/**
 * Starts the module.
 * @param {{ kernels: 'auto' | 'relaxed-simd' | 'simd128', wasmUrl?: string | URL, relaxedWasmUrl?: string | URL }} options
 *   wasmUrl / relaxedWasmUrl: where attn_core.wasm / attn_core.relaxed.wasm are hosted (default: in the
 *   package). A wasmUrl without a relaxedWasmUrl means the caller hosts only attn_core.wasm: auto picks it.
 * @returns {Promise<{ wasm: object, kernels: 'relaxed-simd' | 'simd128', url: string }>} url: the .wasm started
 *   (a data: URL where a bundle inlines it); rejects with an Error naming the .wasm and why it could not be loaded
 */
export async function startModule({ kernels, wasmUrl, relaxedWasmUrl }) {
  const chosen = await choose(kernels, wasmUrl, relaxedWasmUrl).catch((error) => {
    throw new Error(`kernels "${kernels}": ${error.message}`);
  });
  try {
    return { wasm: await start(chosen.url), kernels: chosen.kernels, url: absolute(chosen.url).href };
  } catch (error) {
    throw new Error(`WebAssembly module ${chosen.file} could not be loaded: ${error?.message ?? error}`);
  }
}

/** Unwraps a binding result: { value } or { error: { name, message } } (the core never throws across wasm). */
export function unwrap(result) {
  if (!result.error) return result.value;
  const ErrorClass = result.error.name === 'RangeError' ? RangeError : Error;
  throw new ErrorClass(result.error.message);
}
