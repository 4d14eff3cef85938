// Reading the core's files (the .wasm, the embedding asset): fetched in browsers; in Node, file: URLs
// and plain file paths are read from disk.

/** Node's built-in module `name`, or undefined in a browser (no static import: the core is also a browser module). */
const nodeModule = (name) => (globalThis.window ? undefined : globalThis.process?.getBuiltinModule?.(name));

/** A scheme of two or more letters ("file:", "https:"); one letter would be a Windows drive ("C:\"). */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/**
 * `url` as a URL: relative ones resolved against the page in browsers; in Node a string without a
 * scheme is a file path (relative to the working directory).
 * @param {string | URL} url
 * @returns {URL} @throws TypeError for a string that is neither a URL nor (in Node) a path
 */
export function absolute(url) {
  if (url instanceof URL) return url;
  const path = nodeModule('url');
  if (path && !HAS_SCHEME.test(url)) return path.pathToFileURL(url);
  return new URL(url, globalThis.location?.href);
}

/** Why a file could not be read, in words (Node's error codes). */
const FILE_ERRORS = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'is a directory, not a file' };

/**
 * The bytes at `url` (a URL, or in Node a file path). `what` names the file in errors.
 * @param {string | URL} url
 * @param {string} what
 * @returns {Promise<Uint8Array>} rejects with an Error "<what> <url or path>: <reason>": the HTTP status,
 *   or the file error (no such file, permission denied, is a directory; Node's code in brackets)
 */
export async function readAsset(url, what) {
  const href = absolute(url);
  if (href.protocol === 'file:') {
    const file = nodeModule('url').fileURLToPath(href);
    try {
      return new Uint8Array(await nodeModule('fs').promises.readFile(file));
    } catch (error) {
      throw new Error(`${what} ${file}: ${FILE_ERRORS[error.code] ?? error.message} (${error.code ?? 'error'})`);
    }
  }
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${what} ${href}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}
