#!/usr/bin/env bash
# Native build with clang, AddressSanitizer + UndefinedBehaviorSanitizer, and the libFuzzer harnesses.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/sanitize/CMakeCache.txt ]; then
  CXX=clang++ cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTN_SANITIZE=ON -DATTN_FUZZ=ON >/dev/null
fi
cmake --build build/sanitize -j"$(nproc)"
