#!/usr/bin/env bash
# Lints and format-checks the JS (ESLint, Prettier) and the C++ (clang-format), builds everything from a clean clone and runs every
# test: Catch2 natively, under ASan + UBSan and as wasm under Node; bounded fuzzing (FUZZ_SECONDS per target, default 20); node:test on the built
# module's JS API, the npm tarball and the TypeScript declarations; and end to end in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

step() { printf '\n== %s (at %d s)\n' "$1" "$SECONDS"; }
step "lint (ESLint) and format (Prettier, print width 120) of web/, scripts/ and tests/; clang-format of the C++"
npm run --silent lint
bash scripts/lint-cpp.sh

step "native build and Catch2 tests"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$(nproc)"
ctest --test-dir build/native --output-on-failure --no-tests=error

step "language models: the corpus, the Learn sample taken from it, and the first 50 training steps of each shipped model's recipe re-run bit for bit"
node scripts/lm/corpus-text.mjs build/lm/corpus
bash scripts/lm/build-trainer.sh >/dev/null
for objective in causal masked; do
  build/train/attn_train_lm --verify "web/assets/models/$objective.safetensors"
done
node scripts/lm/learn-sample.mjs --check build/lm/corpus

step "the same Catch2 tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang)"
bash scripts/build-sanitized.sh
ctest --test-dir build/sanitize --output-on-failure --no-tests=error

step "fuzzing: tokenizer, embedding asset, explain/attention, safetensors (${FUZZ_SECONDS:=20} s each)"
bash scripts/fuzz.sh "$FUZZ_SECONDS"

step "wasm build and the same Catch2 tests under Node"
bash scripts/build-wasm.sh all
ctest --test-dir build/wasm --output-on-failure --no-tests=error

step "dist/: the site, the embeddable element bundle and the single-file variant"
node scripts/build-web.mjs

step "JS API tests (node:test, including npm pack → install → import) and the TypeScript declarations"
node --test tests/js/
node_modules/.bin/tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext tests/js/types-usage.ts

step "end-to-end tests in headless Chromium (the site, embedding, export, accessibility)"
node --test tests/e2e/
printf '\n== all passed in %d s\n' "$SECONDS"
