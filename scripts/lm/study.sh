#!/usr/bin/env bash
# The recipe study behind scripts/lm/train.sh's choices (docs/language-models.md, "How the recipes were
# chosen"): short runs of each variant on the same corpus, one after another on both cores, each chosen by
# its held-out loss (the corpus's held-out text; the cloze benchmark is measured once, on the shipped files).
#
#   bash scripts/lm/study.sh encoder|decoder|corpus|induction|vocabulary [steps [name …]]     logs: build/lm/study/<name>.log
# corpus: the decoder's recipe with and without Austen's novels in the training text, each measured on both
# held-out parts (the WordNet and Bible text, and the Austen chapters).
# (names: only those runs; STUDY_THREADS=1 runs one study a core, so that two can run side by side)
set -euo pipefail
cd "$(dirname "$0")/../.."
study=${1:?encoder or decoder}
steps=${2:-1500}
only=" ${*:3} "
mkdir -p build/lm/study
run() {
  local name=$1; shift
  if [ "$only" != "  " ] && [[ $only != *" $name "* ]]; then return; fi
  echo "== $name: $*"
  build/train/attn_train_lm --learning-rate 5e-3 --eval-every 250 --threads "${STUDY_THREADS:-2}" "$@" \
    >"build/lm/study/$name.log" 2>&1 || echo "failed: see build/lm/study/$name.log"
  grep -E "^step|^held-out" "build/lm/study/$name.log" | tail -2 || true
}
quarter=$((steps / 4))
if [ "$study" = encoder ]; then
  run masked-15-tied --objective masked --steps "$steps"
  run masked-40-tied --objective masked --mask-rate 0.4 --steps "$steps"
  run masked-40-untied --objective masked --mask-rate 0.4 --untied --steps "$steps"
  run masked-40-untied-b128 --objective masked --mask-rate 0.4 --untied --batch-size 128 --shards 4 --steps "$quarter" --warmup 50 --eval-every 60
  run masked-40-untied-lr1e-2 --objective masked --mask-rate 0.4 --untied --steps "$steps" --learning-rate 1e-2
  run masked-40-untied-lr2.5e-3 --objective masked --mask-rate 0.4 --untied --steps "$steps" --learning-rate 2.5e-3
  # BERT's output head (dense + GELU + LayerNorm before the output layer) on the best recipe, untied and tied
  run masked-40-untied-lr2.5e-3-head --objective masked --mask-rate 0.4 --untied --output-head --steps "$steps" --learning-rate 2.5e-3
  run masked-40-tied-lr2.5e-3-head --objective masked --mask-rate 0.4 --output-head --steps "$steps" --learning-rate 2.5e-3
  run masked-40-tied-lr2.5e-3 --objective masked --mask-rate 0.4 --steps "$steps" --learning-rate 2.5e-3
  # Warm-up (200 steps in every other run) and the initialisation's draw (seed 0 in every other run)
  run masked-40-untied-lr2.5e-3-warmup50 --objective masked --mask-rate 0.4 --untied --steps "$steps" --learning-rate 2.5e-3 --warmup 50
  run masked-40-untied-lr2.5e-3-warmup500 --objective masked --mask-rate 0.4 --untied --steps "$steps" --learning-rate 2.5e-3 --warmup 500
  run masked-40-untied-lr2.5e-3-seed1 --objective masked --mask-rate 0.4 --untied --steps "$steps" --learning-rate 2.5e-3 --seed 1
  run masked-40-untied-lr2.5e-3-seed2 --objective masked --mask-rate 0.4 --untied --steps "$steps" --learning-rate 2.5e-3 --seed 2
  # At the shipped budget: the tied output against the shipped (untied) recipe, which train.sh trains
  run masked-40-tied-lr2.5e-3-long --objective masked --mask-rate 0.4 --learning-rate 2.5e-3 --steps 10000 --eval-every 1000 \
    --out build/lm/study/masked-40-tied-long.safetensors
  # BERT's output head at the shipped budget, against the shipped (untied, headless) recipe
  run masked-40-untied-lr2.5e-3-head-long --objective masked --mask-rate 0.4 --untied --output-head --learning-rate 2.5e-3 \
    --steps 10000 --eval-every 1000 --out build/lm/study/masked-40-untied-head-long.safetensors
elif [ "$study" = vocabulary ]; then
  # The encoder's output layer over every word with a GloVe vector (25,477, tied to the frozen rows) against the shipped
  # untied 8,191 words, at the shipped masking and α; compared on the 8,191 words' events (--merge-into: the larger
  # vocabulary's extra words fall into the smaller one's <unk>), which the held-out loss of each alone is not
  encoder() { local name=$1; shift; run "$name" --objective masked --mask-rate 0.4 --out "build/lm/study/$name.safetensors" "$@"; }
  encoder m-untied-8k --untied --learning-rate 2.5e-3 --steps "$steps"
  encoder m-tied-glove --output-vocabulary glove --output-words 25477 --learning-rate 2.5e-3 --steps "$steps"
  encoder m-tied-glove-lr5e-3 --output-vocabulary glove --output-words 25477 --learning-rate 5e-3 --steps "$steps"
  # At the shipped encoder's budget (10,000 steps, 10.2 M tokens), against the shipped file (untied, 8,191 words)
  encoder m-tied-glove-lr5e-3-10k --output-vocabulary glove --output-words 25477 --learning-rate 5e-3 --steps 10000 \
    --eval-every 1000
  # What made the decoder better (four layers, the output matrix started at the GloVe rows), on the shipped encoder
  # recipe at its budget: the same 8,191 words, so its held-out loss compares with the shipped file's directly
  encoder m-l4-untied-glove-init --layers 4 --untied --output-init glove --learning-rate 2.5e-3 --steps 10000 \
    --eval-every 1000
  # … with twice the output words (16,383, each row started at its GloVe vector): fewer blanks whose answer is <unk>,
  # and rarer everyday words within reach; compared with the shipped file on its 8,191 words' events (below)
  encoder m-l4-untied-glove-init-16k --layers 4 --untied --output-init glove --output-words 16383 \
    --learning-rate 2.5e-3 --steps 10000 --eval-every 1000
  for name in m-tied-glove m-tied-glove-lr5e-3; do
    [ -f "build/lm/study/$name.safetensors" ] && build/train/attn_train_lm --evaluate "build/lm/study/$name.safetensors" \
      --merge-into build/lm/study/m-untied-8k.safetensors
  done
  for name in m-tied-glove-lr5e-3-10k m-l4-untied-glove-init m-l4-untied-glove-init-16k; do
    [ -f "build/lm/study/$name.safetensors" ] && build/train/attn_train_lm --evaluate "build/lm/study/$name.safetensors" \
      --merge-into web/assets/models/masked.safetensors
  done
elif [ "$study" = corpus ]; then
  # The corpus without Austen: the training lines of WordNet and the Bible, which open train.raw.txt
  without=build/lm/corpus-without-austen
  mkdir -p "$without"
  lines=$(node -e "const s = require('./build/lm/corpus/sources.json').sources;
    console.log(s.filter((x) => x.id !== 'austen').reduce((n, x) => n + x.train.lines, 0))")
  head -n "$lines" build/lm/corpus/train.raw.txt >"$without/train.raw.txt"
  cp build/lm/corpus/held-out.raw.txt "$without/held-out.raw.txt"
  for corpus in with without; do
    dir=build/lm/corpus; [ "$corpus" = without ] && dir=$without
    run "causal-$corpus-austen" --objective causal --untied --steps "$steps" --corpus "$dir" \
      --out "build/lm/study/causal-$corpus-austen.safetensors"
    for part in wordnet-bible austen; do
      build/train/attn_train_lm --corpus "$dir" --evaluate "build/lm/study/causal-$corpus-austen.safetensors" \
        --held-out "build/lm/corpus/held-out.$part.raw.txt" --key "measured_$part" | sed 's/;.*//'
    done
  done
elif [ "$study" = induction ]; then
  # The decoder's window length and the repeated-span curriculum (language_trainer.hpp repeat_share), each with the
  # same 1,024 tokens a step; the log's induction column is the best head's score on repeated random words. Each
  # file is kept, for --measure-heads and the repeated-words probe at other lengths (attn_train_lm --probe).
  decoder() { local name=$1; shift; run "$name" --objective causal --out "build/lm/study/$name.safetensors" "$@"; }
  decoder c64-glove-r50 --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 0.5 --steps "$steps"
  decoder c64-glove-r100-6k --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 1 --steps 6000
  decoder c64-glove-r100-then-r25 --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 1 --repeat-steps 2500 \
    --repeat-share-after 0.25 --steps 4000
  decoder c64-glove-r100-2.5k-then-r10-6k --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 1 \
    --repeat-steps 2500 --repeat-share-after 0.1 --steps 6000
  decoder c32-untied-6k --untied --steps 6000
  # At the shipped budget (24,000 steps, 24.6 M tokens): every window repeating for 4,000 steps, half of them after
  decoder c64-glove-r100-4k-then-r50-24k --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 1 \
    --repeat-steps 4000 --repeat-share-after 0.5 --steps 24000 --eval-every 1000
  # The same with four layers (twice the blocks, 25 % more work a token: the output layer dominates): does more
  # capacity keep the head without the perplexity the two-layer model paid for it?
  decoder l4-c64-glove-r100-4k-then-r50-24k --layers 4 --untied --output-init glove --seq-len 64 --batch-size 16 \
    --repeat-share 1 --repeat-steps 4000 --repeat-share-after 0.5 --steps 24000 --eval-every 1000
  # … and with a quarter of the windows repeating after the first 4,000 steps instead of half
  decoder l4-c64-glove-r100-4k-then-r25-24k --layers 4 --untied --output-init glove --seq-len 64 --batch-size 16 \
    --repeat-share 1 --repeat-steps 4000 --repeat-share-after 0.25 --steps 24000 --eval-every 1000
  # … and with about a third (0.35) for 32,000 steps (32.8 M tokens): between the two shares, and longer, since both
  # runs' losses and induction scores still moved at 24,000
  decoder l4-c64-glove-r100-4k-then-r35-32k --layers 4 --untied --output-init glove --seq-len 64 --batch-size 16 \
    --repeat-share 1 --repeat-steps 4000 --repeat-share-after 0.35 --steps 32000 --eval-every 1000
  # … and the shipped half share with twice the feed-forward width (d_ff 800: 320,000 more parameters, all in the
  # blocks): neither share nor length spared the perplexity at d_ff 400, so does the perplexity want capacity?
  decoder l4-ff800-c64-glove-r100-4k-then-r50-24k --layers 4 --d-ff 800 --untied --output-init glove --seq-len 64 \
    --batch-size 16 --repeat-share 1 --repeat-steps 4000 --repeat-share-after 0.5 --steps 24000 --eval-every 1000
  # (stopped at 13,000 steps: no induction head had formed) … so every window repeats for 8,000 steps, not 4,000
  decoder l4-ff800-c64-glove-r100-8k-then-r50-24k --layers 4 --d-ff 800 --untied --output-init glove --seq-len 64 \
    --batch-size 16 --repeat-share 1 --repeat-steps 8000 --repeat-share-after 0.5 --steps 24000 --eval-every 1000
  # … whose induction head copies in the probe's random repeats but looks at the first token on natural sentences.
  # Four 2,500–3,000-step starts side by side on 16 cores (each --shards 4 --threads 4; their scores are in
  # docs/language-models.md) put d_ff 800 at α 2.5e-3 as the one whose head formed while every window repeated (0.265
  # at step 2,500), as the d_ff 400 decoder's did at 5e-3. Shipped (train.sh):
  decoder l4-ff800-lr2.5e-3-c64-glove-r100-4k-then-r50-24k --layers 4 --d-ff 800 --learning-rate 2.5e-3 --untied \
    --output-init glove --seq-len 64 --batch-size 16 --repeat-share 1 --repeat-steps 4000 --repeat-share-after 0.5 \
    --steps 24000 --eval-every 1000
  decoder c64-glove-r25 --untied --output-init glove --seq-len 64 --batch-size 16 --repeat-share 0.25 --steps "$steps"
  decoder c64-untied-r50 --untied --seq-len 64 --batch-size 16 --repeat-share 0.5 --steps "$steps"
  decoder c64-glove --untied --output-init glove --seq-len 64 --batch-size 16 --steps "$steps"
  decoder c64-tied --seq-len 64 --batch-size 16 --steps "$steps"
  decoder c64-tied-r50 --seq-len 64 --batch-size 16 --repeat-share 0.5 --steps "$steps"
  decoder c32-untied --untied --steps "$steps"
  decoder c64-untied --untied --seq-len 64 --batch-size 16 --steps "$steps"
  decoder c128-untied --untied --seq-len 128 --batch-size 8 --steps "$steps"
  decoder c128-glove-r50 --untied --output-init glove --seq-len 128 --batch-size 8 --repeat-share 0.5 --steps "$steps"
else
  run causal-untied --objective causal --untied --steps "$steps"
  run causal-untied-lr1e-2 --objective causal --untied --steps "$steps" --learning-rate 1e-2
  run causal-untied-lr2.5e-3 --objective causal --untied --steps "$steps" --learning-rate 2.5e-3
fi
