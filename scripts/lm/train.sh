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
for objective in causal masked; do
  steps_var="TRAIN_LM_STEPS_${objective^^}"
  default_steps=$([ "$objective" = causal ] && echo 5000 || echo 3500)
  build/train/attn_train_lm --objective "$objective" --steps "${!steps_var:-$default_steps}" --commit "$commit" \
    --out "web/assets/models/$objective.safetensors" ${TRAIN_LM_ARGS:-}
done
