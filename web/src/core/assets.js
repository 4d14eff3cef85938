// Reading the core's files (the .wasm, the embedding asset): fetched in browsers; in Node, file: URLs
// and plain file paths are read from disk; data: URLs (files a bundle inlines) are decoded, never fetched.

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

/** `url` resolved against the page, as text (a path in Node stays as given: readAsset reads it from disk). */
export function pageUrl(url) {
  try {
    return new URL(url, globalThis.location?.href).href;
  } catch {
    return String(url);
  }
}

/** Why a file could not be read, in words (Node's error codes). */
const FILE_ERRORS = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'is a directory, not a file' };

/**
 * The bytes at `url` (a URL, or in Node a file path). `what` names the file in errors.
 * @param {string | URL} url
 * @param {string} what
 * @param {(loaded: number, total: number) => void} [onProgress] called as an HTTP body arrives (bytes so far, and of
 *   the whole: NaN when unknown)
 * @returns {Promise<Uint8Array>} rejects with an Error "<what> <url or path>: <reason>": the HTTP status,
 *   or the file error (no such file, permission denied, is a directory; Node's code in brackets)
 */
export async function readAsset(url, what, onProgress) {
  const href = absolute(url);
  if (href.protocol === 'file:') {
    const file = nodeModule('url').fileURLToPath(href);
    try {
      return new Uint8Array(await nodeModule('fs').promises.readFile(file));
    } catch (error) {
      throw new Error(`${what} ${file}: ${FILE_ERRORS[error.code] ?? error.message} (${error.code ?? 'error'})`, {
        cause: error,
      });
    }
  }
  if (href.protocol === 'data:') return dataUrlBytes(href.href, what);
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${what} ${href}: HTTP ${response.status} ${response.statusText}: check the path`);
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  return readWithProgress(response, onProgress);
}

/**
 * Throws an Error when `bytes` begin as a web page: a server that answers a missing file with its site's page (a
 * single-page app's fallback) sends HTML, which would otherwise be read as a file of the wrong size.
 * @param {Uint8Array} bytes  @param {string} what  names the file in the message, with its address
 */
export function refuseWebPage(bytes, what) {
  if (/^\s*</.test(new TextDecoder().decode(bytes.subarray(0, 64))))
    throw new Error(`${what}: the server sent a web page, not the file (is the file there?)`);
}

/**
 * A response's body read a chunk at a time, onProgress(loaded, total) after each (total: Content-Length, or NaN when
 * the server sends none or compresses): a file of hundreds of MB shows its progress while it comes.
 */
async function readWithProgress(response, onProgress) {
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = response.headers.get('content-encoding') ? NaN : length;
  const chunks = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    chunks.push(part.value);
    loaded += part.value.length;
    onProgress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * The bytes of a data: URL (RFC 2397), decoded here rather than fetched: a bundle that inlines its files
 * must load under a Content-Security-Policy whose connect-src does not list data:.
 */
function dataUrlBytes(url, what) {
  const comma = url.indexOf(',');
  if (comma < 0) throw new Error(`${what}: a data: URL without a comma`);
  const header = url.slice(5, comma),
    body = url.slice(comma + 1);
  if (/;base64$/i.test(header)) {
    const binary = atob(body);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  return new TextEncoder().encode(decodeURIComponent(body));
}
