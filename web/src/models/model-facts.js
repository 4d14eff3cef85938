// What a learner should know about a trained model before reading its figures: how small it is, what it read
// and how good it is against simple baselines, so they calibrate what it can know (word patterns) and what it
// cannot (facts, long-range sense). Numbers from the model file (core.languageModel config). Each number names the
// text it was measured on: the Learn chapter draws other baselines, counted on its own sample's held-out words over a
// smaller vocabulary, and a bigram's perplexity there is not this one.
import { format } from 'd3-format';

const millions = format('.2~s');
const count = (n) => n.toLocaleString('en-US');

/** "decoder" or "encoder": the name of a model's kind; "GPT-2 checkpoint" for one an author brought. */
export function modelKindName(config) {
  if (config.architecture) return 'GPT-2 checkpoint';
  return config.objective === 'causal' ? 'decoder' : 'encoder';
}

/** "3.3 M": the number of tokens a model's training text holds (config.trainTokens), as every text quotes it. */
export function trainingSize(config) {
  return millions(config.trainTokens).replace('M', ' M');
}

/**
 * One sentence: size, corpus, quality. E.g. "Our 4-layer decoder, trained on 3.3 M tokens of WordNet glosses, the World
 * English Bible and Jane Austen's novels. On the corpus's 220,980 held-out tokens (8,192 output words): perplexity 61.3,
 * against 121.5 for a bigram model counted on the same split (lower is better)."
 * @param {object} config  core.languageModel(kind).config
 * @returns {string}
 */
export function modelFacts(config) {
  if (config.architecture) return checkpointFacts(config);
  const about =
    `Our ${config.numLayers}-layer ${modelKindName(config)}, trained on ${trainingSize(config)} tokens ` +
    "of WordNet glosses, the World English Bible and Jane Austen's novels";
  const held = config.measured.heldOutTokens;
  if (config.objective === 'causal') {
    return (
      `${about}. On the corpus's ${count(held)} held-out tokens (${count(config.outputSize)} output words): perplexity ` +
      `${config.heldOutPerplexity.toFixed(1)}, against ${config.baselines.bigramPerplexity.toFixed(1)} for a bigram ` +
      'model counted on the same split (lower is better). It knows common word patterns, not facts.'
    );
  }
  return (
    `${about}: it fills a hidden word correctly ${(100 * config.maskedTop1).toFixed(0)} % of the time on the corpus's ` +
    `held-out text (${count(held)} blanks, ${count(config.outputSize)} output words; top 5: ` +
    `${(100 * config.maskedTop5).toFixed(0)} %). A weak model: it knows ` +
    'common word patterns, not facts.'
  );
}

/**
 * One sentence on a checkpoint an author brought: its size and where it came from; its quality is its authors' to
 * state (the page measured nothing on it). E.g. "A GPT-2 checkpoint: 12 layers × 12 heads, d_model = 768, 124 M
 * parameters (498 MB in memory), read from models/gpt2/model.safetensors."
 * @param {object} config  core.languageModel({ architecture }).config
 */
export function checkpointFacts(config) {
  return (
    `A GPT-2 checkpoint: ${config.numLayers} layers × ${config.numHeads} heads, d_model = ${config.dModel}, ` +
    `${format('.3~s')(config.parameters).replace('M', ' M')} parameters (${Math.round(config.memoryBytes / 1e6)} MB in ` +
    `memory), reading ${count(config.outputSize)} BPE pieces; from ${config.file}.`
  );
}
