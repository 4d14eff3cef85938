#!/usr/bin/env bash
# Builds the wasm ES module (build/wasm/attn_core.mjs + .wasm, and attn_core.relaxed.wasm: the kernels with
# relaxed SIMD); with "all", the wasm Catch2 tests too; with "bench", the layer profile (npm run bench).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emscripten 3.1.6 needs its bundled node modules (acorn) at -O2 and above.
[ -d /usr/share/nodejs ] && export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
fi
case "${1:-}" in
  all) cmake --build build/wasm -j"$(nproc)" ;;
  bench) cmake --build build/wasm --target attn_module attn_module_relaxed attn_layer_profile -j"$(nproc)" ;;
  *) cmake --build build/wasm --target attn_module attn_module_relaxed -j"$(nproc)" ;;
esac
