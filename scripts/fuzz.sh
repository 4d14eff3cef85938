#!/usr/bin/env bash
# Fuzzes the tokenizer, the embedding-asset loader, explain()/attention and the safetensors reader
# with libFuzzer (clang, AddressSanitizer + UndefinedBehaviorSanitizer), each for SECONDS (default 60),
# starting from the seeds in tests/fuzz/corpus and replaying every saved crash in tests/fuzz/regressions first.
# A crash leaves its input in build/sanitize/fuzz-artifacts/: fix the bug, then copy the input into
# tests/fuzz/regressions/<target>/ so it is replayed forever.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
bash scripts/build-sanitized.sh
out=build/sanitize
mkdir -p "$out/fuzz-artifacts"
for target in tokenizer embeddings explain safetensors; do
  work="$out/fuzz-corpus/$target"
  mkdir -p "$work"
  cp -n tests/fuzz/corpus/"$target"/* "$work"/ 2>/dev/null || true
  echo "fuzz: $target for ${seconds}s"
  log="$out/fuzz-$target.log"
  # New inputs go to the working corpus (first folder); the regressions folder is only read.
  if ! "$out/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="$out/fuzz-artifacts/$target-" "$work" tests/fuzz/regressions/"$target" >"$log" 2>&1; then
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" || tail -n 20 "$log"
    echo "fuzz: $target FAILED (full log: $log)"
    exit 1
  fi
  grep -E "^Done" "$log"
done
