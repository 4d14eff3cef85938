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

/** The first four bytes of every WebAssembly binary, "\0asm" (WebAssembly Core Specification §5.5.16). */
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/** Why a browser could not fetch a file at all (no HTTP status): what to check. */
const FETCH_HINT =
  "check that a server serves it (a page opened from file:// cannot fetch it) and that the page's " +
  'Content-Security-Policy lets it (connect-src)';

/**
 * The module at `href` compiled and instantiated with the glue's imports. Fetched here rather than by the
 * glue, so that a failure names the URL, the HTTP status and what to check; compiled while it streams in
 * where the server sends application/wasm; read as bytes (not fetched) from file: and data: URLs, which a
 * strict Content-Security-Policy's connect-src would refuse.
 */
async function instantiate(href, imports) {
  let bytes;
  if (href.protocol === 'file:' || href.protocol === 'data:') {
    bytes = await readAsset(href, 'file');
  } else {
    const response = await fetch(href).catch((error) => {
      throw new Error(`${error.message}: ${FETCH_HINT}`);
    });
    if (!response.ok)
      throw new Error(
        `HTTP ${response.status} ${response.statusText}: check the path (the element's assets-base, or wasmUrl)`,
      );
    if (response.headers.get('content-type')?.startsWith('application/wasm'))
      return wasmCall(() => WebAssembly.instantiateStreaming(response, imports));
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  if (!WASM_MAGIC.every((byte, i) => bytes[i] === byte)) {
    const start = new TextDecoder().decode(bytes.subarray(0, 24)).replace(/\s+/g, ' ');
    throw new Error(
      `not a WebAssembly file (it starts with "${start}": a server that answers a missing file with a page, ` +
        "such as its index.html, sends this): check the path (the element's assets-base, or wasmUrl)",
    );
  }
  return wasmCall(() => WebAssembly.instantiate(bytes, imports));
}

/** A WebAssembly compile call; a Content-Security-Policy that forbids compiling is named with the fix. */
async function wasmCall(compile) {
  try {
    return await compile();
  } catch (error) {
    if (/unsafe-eval|Content.Security.Policy/i.test(error.message)) {
      throw new Error(
        `the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to script-src (${error.message})`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The glue started on the .wasm at `url` (instantiated by instantiate(), whose errors reject the start). */
function start(url) {
  const href = absolute(url);
  return new Promise((resolve, reject) => {
    const instantiateWasm = (imports, receive) => {
      instantiate(href, imports).then(({ instance, module }) => receive(instance, module), reject);
      return {}; // the exports arrive later, through receive
    };
    createAttnModule({ instantiateWasm }).then(resolve, reject);
  });
}

/** Which build to load, and from where: the relaxed one where asked for or (auto) where it runs. */
async function choose(kernels, wasmUrl, relaxedWasmUrl) {
  const relaxedUrl = relaxedWasmUrl ?? (wasmUrl === undefined ? RELAXED_WASM_URL : null);
  if (kernels === 'simd128' || (kernels === 'auto' && !(relaxedUrl && (await relaxedSimd())))) {
    if (!(wasmUrl ?? WASM_URL)) throw new Error('no attn_core.wasm here: give wasmUrl');
    return { kernels: 'simd128', file: 'attn_core.wasm', url: wasmUrl ?? WASM_URL };
  }
  if (!relaxedUrl) throw new Error('no attn_core.relaxed.wasm here (give relaxedWasmUrl, or kernels: "simd128")');
  if (!(await relaxedSimd())) {
    throw new Error(
      'this engine does not run relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd); use kernels: "simd128"',
    );
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
    throw new Error(
      `WebAssembly module ${chosen.file} could not be loaded from ${shortUrl(chosen.url)}: ${error?.message ?? error}`,
      { cause: error },
    );
  }
}

/** A URL as errors name it: a data: URL (a bundle's inlined file) by its kind, not its thousands of characters. */
function shortUrl(url) {
  const href = absolute(url);
  return href.protocol === 'data:' ? 'the data: URL inlined in this bundle' : href.href;
}

/**
 * Unwraps a binding result: { value } or { error: { name, message } } (the core never throws across wasm).
 * where: the JS function called, which starts the message once: a core message that already starts with it keeps its
 * own start, and one that starts with a part of it only — the object ("languageModel: …" from languageModel.sample;
 * "trainer: …" from languageTrainer.step) or the method ("setParameters: …" from trainer.setParameters) — has that
 * name replaced by `where`.
 */
export function unwrap(result, where) {
  if (!result.error) return result.value;
  const ErrorClass = result.error.name === 'RangeError' ? RangeError : Error;
  throw new ErrorClass(prefixOnce(result.error.message, where));
}

/** `message` starting with `where: ` exactly once (see unwrap). */
export function prefixOnce(message, where) {
  if (!where || message.startsWith(where)) return message;
  const named = /^([A-Za-z]\w*): /.exec(message);
  const part = named?.[1].toLowerCase();
  if (part && where.split('.').some((p) => p.toLowerCase().endsWith(part)))
    return `${where}: ${message.slice(named[0].length)}`;
  return `${where}: ${message}`;
}
