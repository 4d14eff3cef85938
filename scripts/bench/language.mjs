// npm run bench (language models), Node, one thread:
//  1. training speed: tokens per second (batchSize · seqLen / median step time) of core.createLanguageTrainer
//     with the shipped recipe's defaults on the real corpus (build/lm/corpus), with the output matrix tied
//     and untied (the shipped causal model's), beside TF.js (tfjs-core + wasm backend) training the
//     identical model (scripts/bench/tfjs-language-model.js) from the same parameters on the same
//     batches, interleaved in rounds in this process so machine noise hits all alike. TF.js runs in two
//     forms: as it comes, and with its products transposed first (tfjs-language-model.js says why).
//     Before timing, each form is checked to be our model: equal loss and gradients on one batch, and
//     equal losses over the warm-up steps (so the AdamW updates agree too);
//  2. inference: median milliseconds of languageModel(kind).run() on a 32-token sentence, both models, with
//     the output layer at the one position a view shows and at every position.
// Writes bench-output/bench-language.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { createAttentionCore } from 'attention-explorer/core';
import { useTfjsWasmForTraining } from './tfjs-gradients.js';
import { frozenInputs, tfjsLanguageModel } from './tfjs-language-model.js';

const corpusFile = (name) => fileURLToPath(new URL(`../../build/lm/corpus/${name}`, import.meta.url));
const CORPUS = { text: corpusFile('train.raw.txt'), heldOutText: corpusFile('held-out.raw.txt') };
const missing = Object.values(CORPUS).filter((file) => !existsSync(file));
if (missing.length) {
  console.error(`${missing.join(', ')} missing: node scripts/lm/corpus-text.mjs builds the corpus text`);
  process.exit(1);
}

await useTfjsWasmForTraining(tf);
const core = await createAttentionCore({ kernels: 'simd128' });
// The files beside the package's core: the embedding asset the core loaded, the shipped models
const coreDir = new URL('.', import.meta.resolve('attention-explorer/core'));
const asset = readFileSync(new URL('embeddings.bin', coreDir));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = { start: loadavg()[0] };
const LOSS_TOLERANCE = 1e-4; // relative
const GRADIENT_TOLERANCE = 1e-3; // largest difference relative to the tensor's largest gradient
const STEP_TOLERANCE = 1e-3; // relative, the losses of the warm-up steps
// Tensors whose gradients are compared: the last ones backpropagation reaches first and the deepest
// (layer 0's W_Q, the <unk> row), so an error anywhere along the way shows. Not b_K: its gradient is
// 0 in exact arithmetic (softmax ignores a constant added to every score of a row), so only rounding is left.
const CHECKED = [
  'output_bias',
  'layers.1.norm2.gamma',
  'layers.1.feed_forward.w_1',
  'layers.0.attention.w_q',
  'embedding',
];
const WARMUP = 3,
  ROUNDS = 6,
  PER_ROUND = 3;

console.log(
  `Node ${process.version}, ours = the ${core.kernels} build, one thread; TF.js ${tf.version_core} wasm backend, one thread`,
);
if (load.start >= 1)
  console.log(
    `load average ${load.start.toFixed(2)}: another process is using the CPU, so the numbers below are taken under load`,
  );

const text = readFileSync(CORPUS.text, 'utf8'),
  heldOutText = readFileSync(CORPUS.heldOutText, 'utf8');

/** Loss and gradients of our trainer and of the TF.js model on one batch: their differences. */
function check(trainer, model, batch) {
  const ours = trainer.lossAndGradients(batch),
    theirs = model.lossAndGradients(batch);
  const lossDifference = Math.abs(theirs.loss - ours.loss) / Math.abs(ours.loss);
  const names = [...CHECKED, ...(trainer.options.tiedOutput ? [] : ['unembedding'])];
  const gradients = Object.fromEntries(
    names.map((name) => {
      const a = ours.gradients[name].data,
        b = theirs.gradients[name].data;
      let largest = 0,
        difference = 0;
      a.forEach((g, i) => {
        largest = Math.max(largest, Math.abs(g));
        difference = Math.max(difference, Math.abs(g - b[i]));
      });
      return [name, { largest, difference, relative: largest > 0 ? difference / largest : difference }]; // all 0: e.g. no <unk> in the batch
    }),
  );
  const ok =
    lossDifference <= LOSS_TOLERANCE && Object.values(gradients).every((g) => g.relative <= GRADIENT_TOLERANCE);
  return { ok, loss: ours.loss, tfjsLoss: theirs.loss, lossDifference, gradients };
}

// TF.js in two forms (tfjs-language-model.js): as it comes, and with every product transposed first,
// which sidesteps its wasm backend's slow products with a transposed operand
const FORMS = { tfjs: { explicitTransposes: false }, tfjsTransposed: { explicitTransposes: true } };
const FORM_NAMES = { tfjs: 'TF.js', tfjsTransposed: 'TF.js, transposes first' };

const training = [];
for (const tiedOutput of [true, false]) {
  let t0 = performance.now();
  const trainer = core.createLanguageTrainer({ tiedOutput, text, heldOutText });
  const buildSeconds = (performance.now() - t0) / 1000;
  const o = trainer.options;
  const name = `${o.objective} L${o.numLayers} H${o.numHeads} dFF${o.dFF} T${o.seqLen} B${o.batchSize} V${trainer.vocabulary.length} ${tiedOutput ? 'tied' : 'untied'}`;
  console.log(
    `\n${name}: ${trainer.trainTokens} training tokens, ${trainer.heldOutTokens} held-out; trainer built in ${buildSeconds.toFixed(1)} s`,
  );
  const frozen = frozenInputs(asset, trainer.vocabulary);
  const models = Object.fromEntries(
    Object.entries(FORMS).map(([form, f]) => [form, tfjsLanguageModel(tf, o, trainer.parameters(), frozen, f)]),
  );

  // Correctness: the same model, before any step, on the batch the first step will train on; then the
  // warm-up on the same batches, whose losses before each update agree only if the updates do
  const first = trainer.sample();
  const checks = Object.fromEntries(
    Object.entries(models).map(([form, model]) => [form, check(trainer, model, first)]),
  );
  const warmup = [];
  for (let i = 0; i < WARMUP; i++) {
    const batch = trainer.sample();
    warmup.push({
      ours: trainer.step(1).loss,
      ...Object.fromEntries(Object.entries(models).map(([form, model]) => [form, model.step(batch)])),
    });
  }
  for (const [form, checked] of Object.entries(checks)) {
    const stepDifference = Math.max(...warmup.map((s) => Math.abs(s[form] - s.ours) / Math.abs(s.ours)));
    checked.warmup = {
      losses: warmup.map((s) => ({ ours: s.ours, tfjs: s[form] })),
      relativeDifference: stepDifference,
    };
    checked.ok &&= stepDifference <= STEP_TOLERANCE;
    console.log(
      `  check against ${FORM_NAMES[form]}: loss ${checked.loss.toFixed(6)} vs ${checked.tfjsLoss.toFixed(6)} (relative difference ${checked.lossDifference.toExponential(1)}, tolerance ${LOSS_TOLERANCE})`,
    );
    for (const [tensor, g] of Object.entries(checked.gradients)) {
      console.log(
        `    ∂loss/∂${tensor.padEnd(26)} largest difference ${g.difference.toExponential(2)} = ${g.relative.toExponential(1)} × the largest gradient (tolerance ${GRADIENT_TOLERANCE})`,
      );
    }
    console.log(
      `    warm-up losses (${WARMUP} AdamW steps): ${checked.warmup.losses.map((l) => `${l.ours.toFixed(4)} vs ${l.tfjs.toFixed(4)}`).join(', ')}; largest relative difference ${stepDifference.toExponential(1)} (tolerance ${STEP_TOLERANCE})`,
    );
    if (!checked.ok) {
      console.error(
        `  ${FORM_NAMES[form]} is not the same model as ours: timing them side by side would compare different work`,
      );
      process.exit(1);
    }
  }

  // Timing: each of our steps trains on the batch sample() shows it; each TF.js form then steps on the same batches
  const times = { ours: [], ...Object.fromEntries(Object.keys(models).map((form) => [form, []])) };
  for (let round = 0; round < ROUNDS; round++) {
    const batches = [];
    for (let i = 0; i < PER_ROUND; i++) {
      batches.push(trainer.sample());
      t0 = performance.now();
      trainer.step(1);
      times.ours.push(performance.now() - t0);
    }
    for (const [form, model] of Object.entries(models)) {
      for (const batch of batches) {
        t0 = performance.now();
        model.step(batch);
        times[form].push(performance.now() - t0);
      }
    }
  }
  Object.values(models).forEach((model) => model.dispose());
  const tokens = o.batchSize * o.seqLen;
  const speed = (ms) => ({ medianMs: ms, tokensPerSecond: tokens / (ms / 1000) });
  const row = {
    model: name,
    options: o,
    tiedOutput,
    tokensPerStep: tokens,
    steps: times.ours.length,
    ours: speed(median(times.ours)),
  };
  for (const form of Object.keys(models)) {
    row[form] = { ...speed(median(times[form])), check: checks[form] };
    row[form].ratio = row.ours.tokensPerSecond / row[form].tokensPerSecond;
  }
  training.push(row);
}

console.log(
  `\ntraining speed (${training[0].tokensPerStep} tokens a step; medians of ${ROUNDS * PER_ROUND} steps each, interleaved), tokens/s, ours vs TF.js wasm (ratio: ours ÷ TF.js, goal ≥ 3×)`,
);
console.log(
  `${'output matrix'.padEnd(25)}${'ours'.padStart(7)}${'TF.js'.padStart(8)}${'ratio'.padStart(8)}  ${'TF.js, transposes first'.padStart(24)}${'ratio'.padStart(8)}`,
);
const ratio = (r) => `${r.toFixed(2)}×${r >= 3 ? ' ' : '!'}`.padStart(8);
for (const r of training) {
  const label = r.tiedOutput ? 'tied' : 'untied (shipped causal)';
  console.log(
    `${label.padEnd(25)}${r.ours.tokensPerSecond.toFixed(0).padStart(7)}${r.tfjs.tokensPerSecond.toFixed(0).padStart(8)}${ratio(r.tfjs.ratio)}  ${r.tfjsTransposed.tokensPerSecond.toFixed(0).padStart(24)}${ratio(r.tfjsTransposed.ratio)}`,
  );
}
console.log(
  `(ms a step: ${training.map((r) => `${r.tiedOutput ? 'tied' : 'untied'} ours ${r.ours.medianMs.toFixed(0)}, TF.js ${r.tfjs.medianMs.toFixed(0)}, transposes first ${r.tfjsTransposed.medianMs.toFixed(0)}`).join('; ')}; ! below the goal)`,
);

// Inference: run() on a sentence of 32 tokens (the models' training window); the masked model reads one [MASK].
// Three calls: the output layer at the one position a view shows (the causal model's next word, the masked
// model's blank: what the page asks for on each keystroke), and at every position (32 × 8192 outputs).
const SENTENCE =
  'the old man walked slowly along the river bank in the early morning light and watched the small boats drift past the quiet town where he had lived for so many years';
const SENTENCES = { causal: SENTENCE, masked: SENTENCE.replace('river', '[MASK]') };
const CALLS = { causal: { positions: [-1] }, masked: { positions: 'masks' } };
const CALLS_EACH = 300,
  WARMUP_CALLS = 30;
const inference = [];
console.log(
  `\nlanguageModel(kind).run() at 32 tokens (median of ${CALLS_EACH} calls after ${WARMUP_CALLS} warm-up calls, interleaved)`,
);
console.log(
  `${'model'.padEnd(10)}${'output layer at'.padEnd(22)}${'median ms'.padStart(11)}${'p90 ms'.padStart(9)}  goal ≤ 2 ms`,
);
for (const kind of ['causal', 'masked']) {
  if (!existsSync(new URL(`${kind}.safetensors`, coreDir))) {
    console.log(`${kind.padEnd(10)}dist/core has no ${kind}.safetensors: not measured`);
    inference.push({ kind, missing: true });
    continue;
  }
  const model = await core.languageModel(kind);
  const tokens = model.run(SENTENCES[kind]).tokens.length;
  if (tokens !== 32) throw new Error(`the ${kind} sentence has ${tokens} tokens, not 32`);
  const variants = [
    { label: kind === 'causal' ? 'the last token' : 'the [MASK]', options: CALLS[kind] },
    { label: 'all 32 tokens', options: {} },
  ];
  const times = variants.map(() => []);
  for (const { options } of variants) for (let i = 0; i < WARMUP_CALLS; i++) model.run(SENTENCES[kind], options);
  for (let i = 0; i < CALLS_EACH; i++) {
    variants.forEach(({ options }, v) => {
      const t0 = performance.now();
      model.run(SENTENCES[kind], options);
      times[v].push(performance.now() - t0);
    });
  }
  variants.forEach(({ label, options }, v) => {
    const sorted = [...times[v]].sort((a, b) => a - b);
    const row = {
      kind,
      outputsAt: label,
      options,
      tokens,
      calls: CALLS_EACH,
      medianMs: median(times[v]),
      p90Ms: sorted[Math.floor(0.9 * sorted.length)],
    };
    inference.push(row);
    console.log(
      `${kind.padEnd(10)}${label.padEnd(22)}${row.medianMs.toFixed(3).padStart(11)}${row.p90Ms.toFixed(3).padStart(9)}  ${row.medianMs <= 2 ? 'met' : 'NOT met'}`,
    );
  });
}

load.end = loadavg()[0];
mkdirSync('bench-output', { recursive: true });
writeFileSync(
  join('bench-output', 'bench-language.json'),
  JSON.stringify(
    {
      runtime: `node ${process.version}`,
      kernels: core.kernels,
      tfjs: tf.version_core,
      loadAverage: load,
      training,
      inference,
    },
    null,
    2,
  ),
);
