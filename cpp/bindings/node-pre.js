// Emscripten 3.1.6's ES-module loader tries fetch() on a file path under Node ≥ 18 and has no
// `require` or `__dirname`. Only when running in Node, provide them and read the .wasm beside this module
// from disk, unless the caller already passed wasmBinary or locateFile. Browsers and bundlers
// (Vite) take the normal path. `_scriptDir` is 3.1.6's copy of import.meta.url (a literal
// import.meta here would break its minifier). Newer Emscripten (4.x) loads in Node natively and
// `_scriptDir` no longer exists there, so the guard skips this block.
if (typeof process === 'object' && typeof process.getBuiltinModule === 'function' &&
    typeof window === 'undefined' && typeof _scriptDir === 'string' && _scriptDir.startsWith('file:')) {
  var nodeModule = process.getBuiltinModule('module');
  var require = nodeModule.createRequire(_scriptDir);
  var __dirname = require('path').dirname(require('url').fileURLToPath(_scriptDir));
  if (!Module['wasmBinary'] && !Module['locateFile']) {
    var wasmUrl = new URL('attn_core.wasm', _scriptDir);
    Module['wasmBinary'] = process.getBuiltinModule('fs').readFileSync(wasmUrl);
  }
}
