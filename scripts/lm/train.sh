#!/usr/bin/env bash
# npm run train:lm: builds the corpus from its Debian packages and trains both language models natively
# (both cores), writing web/assets/models/{causal,masked}.safetensors, then measures them (held-out texts,
# heads, the cloze benchmark). Nothing else trains: npm start, build and test only read the shipped files
# (npm test re-runs the first 50 steps of each recipe and checks their losses bit for bit).
#
#   bash scripts/lm/train.sh [causal] [masked]     (default both; the order does not change a bit)
#
# TRAIN_LM_STEPS_CAUSAL / TRAIN_LM_STEPS_MASKED override the step counts (the files' recipes record them).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh
node scripts/lm/corpus-text.mjs build/lm/corpus
bash scripts/lm/build-trainer.sh
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
mkdir -p web/assets/models
# The recipes, chosen by held-out loss in the study of docs/language-models.md ("How the recipes were
# chosen"; scripts/lm/study.sh); each file's __metadata__ records every option. Both output matrices are
# learned (untied): at these budgets they beat the tied GloVe rows, and two untied files fit in 5 MB.
# The decoder has 4 layers with twice the default feed-forward width (d_ff 800) and reads windows of 64 tokens, every
# one holding a repeated span of its own text for the first 4,000 steps and half of them after (the curriculum that
# grows an induction head: docs/language-models.md, "Copying from context"); its output matrix starts at the GloVe
# rows. At d_ff 800 its induction head forms during the repeats at α 2.5e-3, not at 5e-3.
# The masked model scores 40 % of the positions (Wettig et al. 2023), not BERT's 15 %; it has 4 layers and its output
# matrix starts at the GloVe rows, as the decoder's (0.18 nats better on the held-out blanks than 2 layers from random).
# It names the 16,383 commonest words, twice the decoder's: 0.018 nats better on the same held-out blanks than 8,191,
# and fewer everyday answers left as <unk> (docs/language-models.md, "How the recipes were chosen").
declare -A RECIPE=(
  [causal]="--layers 4 --d-ff 800 --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 1 \
--repeat-steps 4000 --repeat-share-after 0.5 --learning-rate 2.5e-3 --steps ${TRAIN_LM_STEPS_CAUSAL:-24000}"
  [masked]="--layers 4 --untied --output-init glove --output-words 16383 --mask-rate 0.4 --learning-rate 2.5e-3 \
--steps ${TRAIN_LM_STEPS_MASKED:-10000}"
)
train() {
  local objective=$1
  # shellcheck disable=SC2086 # the recipe is a list of options
  build/train/attn_train_lm --objective "$objective" --commit "$commit" --out "web/assets/models/$objective.safetensors" \
    --eval-every 1000 ${RECIPE[$objective]} ${TRAIN_LM_ARGS:-}
}
# Into each file's metadata: the stored (float16) weights' quality on the held-out text ("measured_file"),
# on its two parts (today's WordNet and Bible text, and the Austen chapters), and what each head does.
measure() {
  local file=web/assets/models/$1.safetensors
  build/train/attn_train_lm --evaluate "$file"
  build/train/attn_train_lm --evaluate "$file" --held-out build/lm/corpus/held-out.wordnet-bible.raw.txt --key measured_wordnet_bible
  build/train/attn_train_lm --evaluate "$file" --held-out build/lm/corpus/held-out.austen.raw.txt --key measured_austen
  build/train/attn_train_lm --measure-heads "$file"
}
for objective in "${@:-causal masked}"; do
  for one in $objective; do
    train "$one"
    measure "$one"
  done
done
# The cloze benchmark, once, on the files as shipped (docs/language-models.md, "A cloze benchmark")
bash scripts/lm/cloze.sh
