#!/usr/bin/env bash
# Builds build/train/attn_train_lm: the native training tool, compiled with clang (its auto-vectorized
# kernels ran 2–5× faster than g++'s here) and, where the CPU has them, AVX2 and FMA. The flags decide
# the losses' last bits, so the shipped files' recipes record them ("kernels"). Also build/train/attn_cloze,
# the cloze benchmark (scripts/lm/cloze.cpp), with the same libraries.
set -euo pipefail
cd "$(dirname "$0")/../.."
flags=""
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo 2>/dev/null; then flags="-mavx2;-mfma"; fi
compiler=$(command -v clang++ || command -v c++)
CXX=$compiler cmake -S . -B build/train -DCMAKE_BUILD_TYPE=Release "-DATTN_TRAIN_KERNEL_FLAGS=$flags" >/dev/null
cmake --build build/train -j"$(nproc)" --target attn_train_lm attn_cloze
