// A typed use of the core, checked (not run) by `tsc --noEmit` in npm test against
// web/src/core/index.d.ts. The @ts-expect-error lines must stay errors: they prove the types reject them.
import { createAttentionCore, type Matrix, type Trace } from 'attention-explorer/core';

const core = await createAttentionCore({ embeddingsUrl: new URL('file:///tmp/embeddings.bin') });
const x: Matrix = core.embed('the river bank');
const [seqLen, dModel] = x.shape;
const identity: Matrix = { data: new Float32Array(dModel * dModel), shape: [dModel, dModel] };
const result = core.multiHeadAttention({
  input: x,
  numHeads: 4,
  wQ: identity,
  wK: identity,
  wV: identity,
  wO: identity,
  causal: true,
  positionalEncoding: 'rope',
});
const firstWeight: number = result.heads[0].weights.data[0];
const trace: Trace = core.explain('the dog chased the cat', {
  numHeads: 2,
  positionChecks: true,
  heads: ['previous', { kind: 'offset', offset: 2 }],
});
const repeated = trace.positionChecks?.repeated[0]?.maxDifference.queries ?? 0;
const lab = core.positionalEncodingLab({ positions: seqLen + 10, dModel: 32 });
const error: number = lab.rotation.float64Angles.maxError;
const layer = core.multiHeadLayer({ numHeads: 2, wQ: identity, wK: identity, wV: identity, wO: identity });
const out: Matrix = layer.forward(x, { returnWeights: true }).output;
const sparse: Matrix = core.normalize(x, { method: 'sparsemax', temperature: 0.5 });
const decoder = core.explainCross('the cat sat', 'die Katze', {
  numHeads: 2,
  scoreFunction: 'additive',
  additiveHidden: 8,
});
const crossWeight: number = decoder.cross?.weights.data[0] ?? 0;
const f = core.simplexObjective({ data: Float32Array.of(1, 0, 0), shape: [1, 3] }, [1, 0.5, -0.5], {
  method: 'entmax15',
});
const additions: number = core.scoreCost({ scoreFunction: 'additive', queries: 8, keys: 8, dK: 25 }).additions;
// @ts-expect-error score functions are a fixed set
core.explain('a', { scoreFunction: 'cosine' });
const lookup = core.softLookup('Luk', {
  keys: ['Luke', 'Puke'],
  values: ['Sprangers', 'Skywalker'],
  temperature: 0.1,
  similarity: 'wordVectors',
  normalizer: 'entmax15',
});
const luke: number = lookup.mixture[lookup.valueIndex[0]];
const costs = core.layerCosts({ n: seqLen, kernelSize: 3, curveN: [1, 10, 100] });
const cheaper: boolean = costs.selfAttention.operations < costs.recurrent.operations;

// @ts-expect-error positionalEncoding names are a fixed set
core.explain('a', { positionalEncoding: 'relative' });
// @ts-expect-error tensors are Float32Array, not number[]
core.layerNorm({ data: [1, 2], shape: [1, 2] });
// @ts-expect-error unknown option
core.attention({ queries: x, keys: x, values: x, mask: 'causal' });
// @ts-expect-error normalizer names are a fixed set
core.normalize(x, { method: 'entmax' });
// @ts-expect-error similarity names are a fixed set
core.softLookup('a', { keys: ['a'], values: ['b'], similarity: 'glove' });

const firstOffset: number = trace.options.heads[0].offset;

export const used = [
  firstWeight,
  repeated,
  error,
  out,
  sparse,
  trace.tokens[0].oov,
  firstOffset,
  crossWeight,
  f,
  additions,
];

// Training an attention-only transformer
const trainer = core.createTrainer({ task: 'induction', numLayers: 2, seed: 1 });
const { loss } = trainer.step(10);
const scores: Matrix = trainer.evaluate().headScores.prefixMatching;
const batch = trainer.sample(4);
const grads = trainer.lossAndGradients(batch).gradients['layers.0.attention.w_q'];
trainer.ablate({ layer: 1, head: 0 });
console.log(
  loss,
  scores.shape,
  grads.shape,
  trainer.attention([1, 2, 3]).weights.shape,
  core.trainerLimits.tasks.includes(trainer.options.task),
);
// @ts-expect-error task names are a fixed set
core.createTrainer({ task: 'copy' });

// The element (types only: it needs a browser).
import type { AttentionExplorer, ExplorerState } from 'attention-explorer/element';

export function configure(el: AttentionExplorer): number {
  el.sentence = 'the cat sat';
  el.addEventListener('change', (event) => {
    const state: ExplorerState = event.detail;
    const changed: readonly string[] = event.changed;
    console.log(state.temperature.toFixed(2), state.positionalEncoding, changed.includes('temperature'));
  });
  el.change({ numHeads: 4, mask: 'causal' });
  el.tour = 3; // the guided tour at step 3 (or a step id); reading it gives the step's id
  const step: string = el.tour;
  el.tour = null;
  console.log(step.length);
  // @ts-expect-error mask names are a fixed set
  el.change({ mask: 'sideways' });
  el.change({ chapter: 'learn', trainTask: 'sort', trainLayers: null, trainSpeed: 400 }); // the Learn chapter
  // @ts-expect-error training tasks are a fixed set
  el.change({ trainTask: 'copy' });
  el.change({ model: 'causal', head: { layer: 1, head: 2 } }); // one head for every model, from 0
  // @ts-expect-error a head is { layer, head }
  el.change({ head: 'L2 H3' });
  const run = el.getRun();
  const heads: number = run ? run.attention.shape[0] * run.attention.shape[1] : 0;
  const explorer = document.querySelector('attention-explorer');
  return (explorer?.getTrace()?.tokens.length ?? 0) + (el.state?.numHeads ?? 0) + heads + (el.state?.head.layer ?? 0);
}

// Where the running build's .wasm came from (a Worker starts the same build from it).
const started: string = core.wasmUrl;
console.log(started.length);

// core.limits: typed and read-only.
const maxLab: number = core.limits.maxLabPositions;
const methods: readonly ('softmax' | 'sparsemax' | 'entmax15' | 'hardmax')[] = core.limits.normalizers;
const previousOffset: number = core.limits.headKindAliases.previous;
// @ts-expect-error core.limits is read-only
core.limits.maxTokens = 1;
console.log(maxLab, methods, previousOffset);

const causalModel = await core.languageModel('causal');
const nextWord: string = causalModel.run('the river bank', { positions: [-1] }).top[2]?.[0].word ?? '';
// @ts-expect-error a position not computed is null
const unchecked: string = causalModel.run('the river bank', { positions: 'all' }).top[0][0].word;
// @ts-expect-error positions are 'all', 'masks' or a list
causalModel.run('the river bank', { positions: 'last' });
const perplexity: number = causalModel.score('the river bank was muddy').perplexity;
const knockedOut: number = causalModel.run('the river bank', { ablate: [{ layer: 1, head: 2 }] }).hidden[1].data[0];
const why = causalModel.attribute('the river bank', { position: -1, word: 'was', ablate: [{ layer: 0, head: 1 }] });
const headEffect: number = why.heads[0] + why.occlusion[why.position] + why.logProb;
// @ts-expect-error a head is { layer, head }
causalModel.run('the river bank', { ablate: [[1, 2]] });
// @ts-expect-error attribute() needs the word
causalModel.attribute('the river bank', { position: -1 });
console.log(knockedOut, headEffect);
const written = causalModel.generate('the river bank', { n: 3, temperature: 0.8, topK: 40, seed: 2 });
const writtenText: string = written.text + written.words[0].word + written.words[0].seed + written.nextSeed;
// @ts-expect-error generate() writes n words, not a length
causalModel.generate('the river bank', { length: 3 });
const designedHeads: readonly string[] = core.limits.designedHeads;
const designedTrace: Trace = core.explain('the river bank', { heads: 'designed' });
// @ts-expect-error heads is a list, or 'designed'
core.explain('the river bank', { heads: 'all' });
console.log(writtenText, designedHeads, designedTrace);
const blanks = (await core.languageModel('masked')).fillMask('the river [MASK] was muddy', 5);
const firstHeadWeight: number = causalModel.run('the bank').attention[0][0][0] + blanks[0].top[0].p;
const inputRow: number = causalModel.run('the bank').input.data[0] + causalModel.run('the bank').embeddings.shape[1];
const firstAxis: Float32Array = core.pca({ data: new Float32Array(4), shape: [2, 2] }, { k: 1 }).coordinates.data;
// @ts-expect-error pca takes k only
core.pca({ data: new Float32Array(4), shape: [2, 2] }, { components: 1 });
console.log(inputRow, firstAxis);
// @ts-expect-error the models are 'causal' and 'masked'; a checkpoint is { architecture, url | bytes }
core.languageModel('gpt2');
const gpt2 = await core.languageModel({
  url: 'gpt2/model.safetensors',
  architecture: 'gpt2',
  onProgress: (p) => p.loaded,
});
const piece: string = gpt2.run('The river bank', { positions: [-1] }).top[2]?.[0].word ?? '';
const lensNext: number | null = gpt2.logitLens('The river bank').layers[0][0].next;
const norm2: number =
  gpt2.run('The river bank', { activations: { layer: 0, head: 0 } }).activations?.norm2.data[0] ?? 0;
const gpt2Why = gpt2.attribute('The river bank', { position: -1, word: ' was' });
const whyDelta: number = gpt2Why.heads[0] + gpt2Why.occlusion[0] + gpt2Why.logProb + gpt2Why.id;
const pass = gpt2.attribution('The river bank', { position: 1, word: 373, ablate: [{ layer: 0, head: 1 }] }).next();
const passDone: number = pass.done ? pass.value.logProb : pass.value.total;
// @ts-expect-error word is a token id or a piece
gpt2.attribute('The river bank', { position: 1, word: true });
const wpeRows: number = gpt2.positionEmbeddings().shape[0] + gpt2.config.parameters + core.gpt2Limits.headDim;
// @ts-expect-error GPT-2 fills no blanks
gpt2.fillMask('the [MASK]');
// @ts-expect-error architectures are 'gpt2'
core.languageModel({ url: 'x.safetensors', architecture: 'llama' });
console.log(piece, lensNext, norm2, wpeRows, whyDelta, passDone);
const lmTrainer = core.createLanguageTrainer({
  objective: 'masked',
  numLayers: 1,
  text: 'the river bank\nthe money bank\n',
});
const lmLoss: number = lmTrainer.step(2).loss + lmTrainer.evaluate({ maxTokens: 100 }).perplexity;
// @ts-expect-error objectives are 'causal' and 'masked'
core.createLanguageTrainer({ objective: 'seq2seq' });
core.createLanguageTrainer({
  tiedOutput: false,
  outputInit: 'glove',
  repeatShare: 1,
  repeatSteps: 100,
  repeatShareAfter: 0.5,
});
core.createLanguageTrainer({ outputVocabulary: 'glove', outputWords: 20000 });
// @ts-expect-error outputInit is 'random' or 'glove'
core.createLanguageTrainer({ outputInit: 'zeros' });
const probe = causalModel.repeatedWords({ repeat: 12, sequences: 8, seed: 1 });
const copyGain: number = (probe.firstHalfLoss ?? 0) - (probe.secondHalfLoss ?? 0) + probe.heads[0].induction;
const inductionScore: number | undefined = causalModel.config.heads[0].induction;
const exampleText: string = probe.example.join(' ');
// @ts-expect-error repeatedWords takes repeat, sequences and seed
causalModel.repeatedWords({ length: 12 });
console.log(copyGain, inductionScore, exampleText);
