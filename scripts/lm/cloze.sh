#!/usr/bin/env bash
# npm run cloze: the cloze benchmark (docs/language-models.md, "A cloze benchmark") on the shipped models:
# builds the corpus and the native tools if needed, writes the items from the held-out text
# (build/lm/cloze.tsv) and the results (build/lm/cloze.json). Extra arguments go to attn_cloze
# (e.g. --show 20 prints the first 20 items with each model's five likeliest words).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f build/lm/corpus/held-out.raw.txt ] || node scripts/lm/corpus-text.mjs build/lm/corpus
[ -x build/train/attn_cloze ] || bash scripts/lm/build-trainer.sh
node scripts/lm/cloze-items.mjs
build/train/attn_cloze --items build/lm/cloze.tsv --masked web/assets/models/masked.safetensors \
  --causal web/assets/models/causal.safetensors --json build/lm/cloze.json "$@"
