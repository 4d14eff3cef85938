#!/usr/bin/env bash
# Builds the wasm ES module (build/wasm/attn_core.mjs + .wasm, and attn_core.relaxed.wasm: the kernels with
# relaxed SIMD); with "all", the wasm Catch2 tests too.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emscripten 3.1.6 needs its bundled node modules (acorn) at -O2 and above.
[ -d /usr/share/nodejs ] && export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
fi
if [ "${1:-}" = all ]; then
  cmake --build build/wasm -j"$(nproc)"
else
  cmake --build build/wasm --target attn_module attn_module_relaxed -j"$(nproc)"
fi
