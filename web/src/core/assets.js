// Reading the core's files (the .wasm, the embedding asset) from a URL: fetched in browsers, read
// from disk for file: URLs in Node.

/** `url` as a URL, relative ones resolved against the page (in browsers). */
export function absolute(url) {
  return url instanceof URL ? url : new URL(url, globalThis.location?.href);
}

/**
 * The bytes at `url`. `what` names the file in errors.
 * @param {string | URL} url
 * @param {string} what
 * @returns {Promise<Uint8Array>} rejects with an Error naming the URL and the HTTP status or file error
 */
export async function readAsset(url, what) {
  const href = absolute(url);
  if (href.protocol === 'file:') {
    const fs = globalThis.process.getBuiltinModule('fs');
    return new Uint8Array(await fs.promises.readFile(href));
  }
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${what} ${href}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}
