#!/usr/bin/env bash
# npm run train:lm: builds the corpus from its Debian packages and trains both language models natively
# (both cores), writing web/assets/models/{causal,masked}.safetensors. Nothing else trains: npm start,
# build and test only read the shipped files (npm test re-runs the first 50 steps of each recipe).
# TRAIN_LM_STEPS_CAUSAL / TRAIN_LM_STEPS_MASKED override the step counts (the recipe records them).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh
node scripts/lm/corpus-text.mjs build/lm/corpus
bash scripts/lm/build-trainer.sh
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
mkdir -p web/assets/models
# The recipes (the files' __metadata__ records every option). The causal model's output matrix is learned
# (untied: lower held-out perplexity than tied at the same steps); the masked model's is tied to the frozen
# GloVe rows, which keeps both files within 3 MB (docs/language-models.md).
train() {
  local objective=$1; shift
  build/train/attn_train_lm --objective "$objective" --commit "$commit" --out "web/assets/models/$objective.safetensors" \
    --learning-rate 5e-3 --eval-every 500 "$@" ${TRAIN_LM_ARGS:-}
}
train causal --untied --steps "${TRAIN_LM_STEPS_CAUSAL:-4000}"
train masked --steps "${TRAIN_LM_STEPS_MASKED:-3000}"
# Then, into each file's metadata: the stored (float16) weights' held-out quality beside the float32 one
# and the most-frequent-words baseline ("measured_file"), and what each head does ("heads").
for objective in causal masked; do
  build/train/attn_train_lm --evaluate "web/assets/models/$objective.safetensors"
  build/train/attn_train_lm --measure-heads "web/assets/models/$objective.safetensors"
done
