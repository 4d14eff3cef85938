#!/usr/bin/env bash
# npm run cloze: the cloze benchmarks (docs/language-models.md, "A cloze benchmark") on the shipped models:
# builds the corpus and the native tools if needed, writes the items from the held-out text (build/lm/cloze.tsv)
# and from the Harvard sentences, everyday English no model trains on (build/lm/cloze-harvard.tsv), and the results
# (build/lm/cloze.json, build/lm/cloze-harvard.json). Extra arguments go to attn_cloze
# (e.g. --show 20 prints the first 20 items with each model's five likeliest words).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f build/lm/corpus/held-out.raw.txt ] || node scripts/lm/corpus-text.mjs build/lm/corpus
[ -x build/train/attn_cloze ] || bash scripts/lm/build-trainer.sh
node scripts/lm/cloze-items.mjs
node scripts/lm/harvard-text.mjs build/lm/harvard.raw.txt
node scripts/lm/cloze-items.mjs build/lm/corpus build/lm/cloze-harvard.tsv --lines build/lm/harvard.raw.txt
for set in cloze cloze-harvard; do
  echo "== $set"
  build/train/attn_cloze --items "build/lm/$set.tsv" --masked web/assets/models/masked.safetensors \
    --causal web/assets/models/causal.safetensors --json "build/lm/$set.json" "$@"
done
