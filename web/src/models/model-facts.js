// What a learner should know about a trained model before reading its figures: how small it is, what it read
// and how good it is against simple baselines, so they calibrate what it can know (word patterns) and what it
// cannot (facts, long-range sense). Numbers from the model file (core.languageModel config).
import { format } from 'd3-format';

const millions = format('.2~s');

/** "decoder" or "encoder": the name of a model's kind. */
export function modelKindName(config) {
  return config.objective === 'causal' ? 'decoder' : 'encoder';
}

/**
 * One sentence: size, corpus, quality. E.g. "Our 2-layer decoder, trained on 3.3 M tokens of WordNet glosses, the World
 * English Bible and Jane Austen's novels: held-out perplexity 66.8, against 121.5 for a bigram model (lower is better)."
 * @param {object} config  core.languageModel(kind).config
 * @returns {string}
 */
export function modelFacts(config) {
  const about =
    `Our ${config.numLayers}-layer ${modelKindName(config)}, trained on ${millions(config.trainTokens).replace('M', ' M')} tokens ` +
    "of WordNet glosses, the World English Bible and Jane Austen's novels";
  if (config.objective === 'causal') {
    return (
      `${about}: held-out perplexity ${config.heldOutPerplexity.toFixed(1)}, against ${config.baselines.bigramPerplexity.toFixed(1)} ` +
      'for a bigram model (lower is better). It knows common word patterns, not facts.'
    );
  }
  return (
    `${about}: it fills a hidden word correctly ${(100 * config.maskedTop1).toFixed(0)} % of the time on held-out text ` +
    `(top 5: ${(100 * config.maskedTop5).toFixed(0)} %). A weak model: it knows common word patterns, not facts.`
  );
}
