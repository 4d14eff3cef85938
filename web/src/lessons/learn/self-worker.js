// How the single file (dist/single/attention-explorer.js) starts its training worker: it starts itself
// (build-web.mjs puts this in place of the worker file; train-worker.js, in the same bundle, takes over
// where the file runs as a worker). A Content-Security-Policy that lets the page run the file then lets
// it start the worker (script-src 'self'): no blob: or data: URL is needed.

/**
 * A module worker running the script at `url`.
 * @param {string | URL} url  the single file's own URL (import.meta.url)
 * @returns {Worker} on the page's origin, a worker of the file itself; on another origin (a CDN), where a
 *   page may not start a worker from a script directly, a worker of a blob: module importing it (needs
 *   worker-src blob: under a Content-Security-Policy, and CORS, as every cross-origin module does)
 * @throws {DOMException} SecurityError where the browser refuses to start the worker at all
 */
export function selfWorker(url) {
  const href = new URL(url);
  if (href.origin === globalThis.location.origin) return new Worker(href, { type: 'module' });
  const source = new Blob([`import ${JSON.stringify(href.href)};`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(source), { type: 'module' });
}
