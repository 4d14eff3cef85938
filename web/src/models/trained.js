// A trained language model (core.languageModel: the causal decoder, the masked encoder) as a model of the
// Run interface: one languageModel run() per update gives every head's weights, the block outputs, the
// selected head followed through its block (the stepper and the mix read it) and the predictions the
// figures show (the output layer costs more than the blocks, so only at the positions shown).
import { attributeRun } from './attribution.js';
import { generate, outputAt, sampledBars, samplingOptions } from './output-layer.js';
import { readingOf, readsPieces, sameToken, shownToken } from './pieces.js';
import { repeatedWordsOf } from './repeated-words.js';
import { modelEntry } from './registry.js';
import { packAttention, resolveHead } from './run.js';

/** How many words a prediction figure lists. */
export const SHOWN_WORDS = 10;
/** How many pieces a checkpoint's run lists: the stepper's logits step names the 20 largest. */
const LOGIT_PIECES = 20;
/** How many the masked model ranks, to say where the hidden word stands (core.languageModelLimits.maxTopK). */
const RANKED_WORDS = 100;

/** A head no measurement is given for (a model trained in the page on too little held-out text). */
const NOT_MEASURED = { text: 'not measured', label: 'not measured', score: NaN };

/**
 * Each measured label: the score it was measured by (config.heads fields), how the page names it, and what that
 * score is, in one line (cpp/include/attn/train/head_statistics.hpp; Clark et al. 2019 §3, Olsson et al. 2022 §2).
 */
export const MEASURES = {
  previous: ['previous', 'previous word', 'the mean weight a word puts on the word just before it'],
  next: ['next', 'next word', 'the mean weight a word puts on the word just after it'],
  self: ['self', 'itself', 'the mean weight a word puts on itself'],
  first: ['first', 'first token', "the mean weight a word puts on the text's first token (a resting place)"],
  'same word': ['sameWord', 'same word', 'the mean weight a word puts on the other places where the same word occurs'],
  prefix: [
    'prefix',
    'prefix matching',
    'the mean weight on the word after an earlier copy of the current word (what an induction head does)',
  ],
  induction: [
    'induction',
    'induction',
    'on 12 random words said twice, the mean weight a word of the second copy puts on the word after its first copy',
  ],
};

/** The one-line definition of "mixed", for a threshold. */
export function mixedDefinition(threshold) {
  return `no score reaches ${threshold}: the head does no single one of these jobs`;
}

/**
 * A score as the label shows it: 2 decimals, or more where 2 would round a score below the threshold up to it (a
 * "mixed" head's 0.398 would read 0.40, as if it had reached 0.4), so label and number agree at the precision shown.
 * @param {number} score  a mean weight, in [0, 1]  @param {number} threshold  core.languageModelLimits.headLabelThreshold
 * @returns {string}  e.g. "0.45", "0.398"
 */
export function scoreText(score, threshold) {
  let digits = 2;
  while (score < threshold && Number(score.toFixed(digits)) >= threshold && digits < 6) digits += 1;
  return score.toFixed(digits);
}

/**
 * What a head was measured to do, in a few words: "previous word 0.45", or for a head with no single job (no
 * score reaches the threshold), "mixed (best: previous word 0.398)" with its largest score, given with enough
 * digits to stay below the threshold (scoreText).
 * @param {{ label: string, previous: number, next: number, self: number, first: number, sameWord: number, prefix: number, induction?: number }} [head]
 *   one of config.heads (none: not measured)
 * @param {number} threshold  the label rule's (core.languageModelLimits.headLabelThreshold, 0.4)
 * @param {string} [why]  why a head was not measured, for its definition line
 * @returns {{ text: string, label: string, score: number, definitions: string[] }}  label: the measured label; score:
 *   its score, or the largest one when mixed; definitions: what each name in text means, one line each ("name: meaning")
 */
export function measuredJob(head, threshold, why = 'the held-out text has no line of two words') {
  if (!head) return { ...NOT_MEASURED, definitions: [`not measured: ${why}`] };
  const define = ([, name, meaning]) => `${name}: ${meaning}`;
  if (head.label !== 'mixed') {
    const measure = MEASURES[head.label];
    return {
      text: `${measure[1]} ${scoreText(head[measure[0]], threshold)}`,
      label: head.label,
      score: head[measure[0]],
      definitions: [define(measure)],
    };
  }
  const best = Object.values(MEASURES).reduce((top, m) => (head[m[0]] > head[top[0]] ? m : top));
  return {
    text: `mixed (best: ${best[1]} ${scoreText(head[best[0]], threshold)})`,
    label: 'mixed',
    score: head[best[0]],
    definitions: [`mixed: ${mixedDefinition(threshold)}`, define(best)],
  };
}

/** Where a designed head does a measured job by construction: the comparison in a sentence. */
const DESIGNED_TWIN = {
  previous: (score) =>
    `The designed “previous token” head does this job by construction: weight 1 one position back. This head learned it ` +
    `from text and puts ${score.toFixed(2)} there on average.`,
  next: (score) =>
    `The designed “next token” head does this by construction (weight 1 one position ahead); this one learned it: ${score.toFixed(2)}.`,
  first: (score) =>
    `The designed “first token” head rests on position 0 by construction; this one learned to: ${score.toFixed(2)} on average.`,
};

/** What a measured head learned, in a sentence or two, beside the designed head that does its job by construction. */
function learnedExplanation(job, measured, threshold) {
  if (DESIGNED_TWIN[job.label]) return DESIGNED_TWIN[job.label](job.score);
  if (job.label === 'mixed') {
    return (
      `No single job measured (${mixedDefinition(threshold)}): like most trained heads, it spreads its weight ` +
      `by what the words are, ${measured.entropyBits.toFixed(1)} bits on average.`
    );
  }
  if (job.label === 'induction') {
    // Measured where only copying helps; on text with nothing to copy such a head rests on the first token.
    return (
      `Measured on random words said twice (${job.text}): in the second copy, ${job.score.toFixed(2)} of its weight on ` +
      `the word after the current word's first occurrence — it copies from context. On held-out text it puts ` +
      `${measured.first.toFixed(2)} on the first token, its resting place when there is nothing to copy.`
    );
  }
  return `Measured on held-out text: ${job.text}.`;
}

/**
 * A trained model's heads as a Run lists them, layer-major, each named by what it was measured to do.
 * @param {{ numLayers: number, numHeads: number, heads: object[], dK?: number }} config
 * @param {number} threshold  the label rule's (core.languageModelLimits.headLabelThreshold)
 * @param {boolean} [causal]  the model's mask, for the heads' formula
 * @returns {import('./run.js').RunHead[]}
 */
export function measuredHeads({ numLayers, numHeads, heads, dK }, threshold, causal = false) {
  // A checkpoint an author brings comes without the measurements our models' files carry (config.heads).
  const why = heads
    ? undefined
    : 'a checkpoint comes without them: find its heads’ jobs in the heatmaps, or knock them out';
  return Array.from({ length: numLayers * numHeads }, (_, index) => {
    const job = measuredJob(heads?.[index], threshold, why);
    return {
      layer: Math.floor(index / numHeads),
      head: index % numHeads,
      label: job.text,
      kind: job.label,
      score: job.score,
      definitions: job.definitions,
      scores: heads?.[index] ?? null,
      formula: `softmax(q·k / √${dK ?? 'd_k'}) with its learned W_Q, W_K${causal ? ', causal mask' : ''}`,
      explanation: heads?.[index] ? learnedExplanation(job, heads[index], threshold) : 'Not measured.',
    };
  });
}

/**
 * The sentence as the trained model reads it: each token the learner masked (state.maskedPositions) written
 * as [MASK] in its place, the rest of the text as typed.
 * @param {string} sentence  @param {{ start: number, end: number }[]} tokens  the sentence's tokens (UTF-16 spans)
 * @param {number[]} masked  token positions
 * @returns {string}
 */
export function maskedText(sentence, tokens, masked) {
  const spans = [...new Set(masked)]
    .filter((i) => i < tokens.length)
    .map((i) => tokens[i])
    .sort((a, b) => b.start - a.start);
  return spans.reduce((text, { start, end }) => `${text.slice(0, start)}[MASK]${text.slice(end)}`, sentence);
}

/**
 * The encoder's blanks: per [MASK], its position, the sampling distribution's first words, p(<unk>), the hidden word,
 * whether it can output it, and its rank among the model's own (temperature 1) most likely words.
 */
function blanks(model, run, hidden, sampled) {
  return run.tokens
    .flatMap((token, position) => (token.mask ? [position] : []))
    .map((position, n) => {
      const rank = run.top[position].findIndex(({ word }) => word === hidden[n]);
      return {
        position,
        hidden: hidden[n],
        known: model.vocabulary.includes(hidden[n]),
        rank: rank < 0 ? null : rank + 1,
        top: (sampled ? run.sampling : run.top)[position].slice(0, SHOWN_WORDS),
        unk: run.unk[position],
      };
    });
}

/**
 * The model run on the state's sentence: its one core call.
 * @param {object} model  a loaded core.languageModel(kind)
 * @param {{ sentence: string, maskedPositions: number[], head: import('./run.js').HeadRef, outputTemperature: number,
 *   topK: number, knockout?: import('./run.js').HeadRef[] }} state  knockout: heads switched off (run()'s ablate)
 * @param {{ tokens?: { text: string, start: number, end: number }[], labelThreshold: number }} sentenceTokens  tokens: the
 *   sentence's own tokens, needed only to write the encoder's [MASK]s in (maskedText); labelThreshold: the head label
 *   rule's (core.languageModelLimits.headLabelThreshold)
 * @returns {import('./run.js').Run}  predictions: the decoder's words after the last token, { position, top, unk }; the
 *   encoder's per [MASK] (blanks above); top: the first words of the sampling distribution (state.outputTemperature,
 *   state.topK), unk: the model's p(<unk>) there; output: the output layer after the last token or at the first blank
 *   (output-layer.js outputAt), null for the encoder without a blank
 * @throws RangeError from run() (text too long, [MASK] typed for the decoder)
 */
export function runTrained(model, state, sentenceTokens) {
  const { config } = model;
  const kind = config.kind;
  const causal = config.objective === 'causal';
  const masked =
    !causal && sentenceTokens.tokens
      ? [...new Set(state.maskedPositions)].filter((i) => i < sentenceTokens.tokens.length).sort((a, b) => a - b)
      : [];
  const text = masked.length ? maskedText(state.sentence, sentenceTokens.tokens, masked) : state.sentence;
  const selected = resolveHead(config, state.head);
  const base = {
    model: kind,
    status: 'ready',
    config,
    heads: measuredHeads(config, sentenceTokens.labelThreshold, causal),
    labelThreshold: sentenceTokens.labelThreshold,
    causal,
  };
  if (text.trim() === '') {
    const shape = [config.numLayers, config.numHeads, 0, 0];
    return {
      ...base,
      tokens: [],
      totalTokens: 0,
      truncated: false,
      validLength: 0,
      attention: { data: new Float32Array(0), shape },
      predictions: [],
      hidden: [],
    };
  }
  const knockout = state.knockout ?? [];
  const sampled = sampledBars(state);
  const run = model.run(text, {
    // a checkpoint's stepper names the 20 largest logits' pieces from this list (checkpoint-output-steps.js)
    k: causal ? (readsPieces(config) ? LOGIT_PIECES : SHOWN_WORDS) : RANKED_WORDS,
    positions: causal ? [-1] : 'masks',
    activations: selected,
    ablate: knockout,
    sampling: sampled ? samplingOptions(state) : undefined,
  });
  const T = run.tokens.length;
  const outputPosition = causal ? T - 1 : run.tokens.findIndex((token) => token.mask);
  // With [MASK]s written in, the tokens' spans are the masked text's: the sentence's own spans say where each word is.
  const spans = masked.length ? sentenceTokens.tokens : run.tokens;
  const tokens = run.tokens.map((token, i) => ({
    text: shownToken(token.text, config),
    start: spans[i]?.start ?? token.start,
    end: spans[i]?.end ?? token.end,
    oov: token.oov,
    masked: token.mask,
  }));
  const hidden = masked.map((i) => sentenceTokens.tokens[i].text.toLowerCase());
  const shown = {
    ...base,
    tokens,
    totalTokens: T,
    truncated: false,
    validLength: T,
    attention: packAttention(run.attention, T),
    hidden: run.hidden,
    block: run.activations,
    reading: readingOf(run.tokens, config),
    knockout,
    text,
    // The bars: the model's probabilities, or the sampling distribution where the learner set one (output temperature,
    // top-k); <unk>'s probability apart.
    predictions: causal
      ? [
          {
            position: T - 1,
            top: shownWords((sampled ? run.sampling : run.top).at(-1).slice(0, SHOWN_WORDS), config),
            unk: run.unk?.at(-1) ?? null,
          },
        ]
      : blanks(model, run, hidden, sampled),
    // The stepper's output-layer steps: after the last token, or at the first blank (none without one).
    output: outputPosition === -1 ? null : outputAt(model, run, outputPosition),
  };
  // What a chapter measures on demand, asked of the Run on screen (the model stays behind it): the prediction at a
  // pointed row, each head's and word's effect on a predicted word, a generated word.
  shown.ask = {
    predictionAt: (position, sampling) => predictionAt(model, state.sentence, position, sampling, knockout),
    generate: (current) => generate(model, current),
    repeatedWords: () => repeatedWordsOf(model),
    // Measured for every head and word (L·H + T forward passes): a generator of the passes (attribution.js)
    attribute: (pick) => attributeRun(model, shown, pick),
    // A checkpoint's: every layer read through its output layer ((L + 1) · T output layers: on request)
    ...(model.logitLens && { logitLens: () => model.logitLens(text, { k: 1 }) }),
  };
  return shown;
}

/** The words of a prediction as the page labels them (pieces.js shownToken: a piece's leading space as "␣"). */
const shownWords = (top, config) => top.map((w) => ({ ...w, word: shownToken(w.word, config) }));

/**
 * A Run standing in while the model loads (or after it failed to): the sentence's tokens, no attention.
 * @param {string} kind  @param {{ loading?: boolean, error?: string, progress?: { stage: string, loaded: number,
 *   total: number } }} status  progress: how much of a checkpoint has come (trained-models.js)
 * @param {object[]} tokens  core.tokenize()'s
 * @returns {import('./run.js').Run}
 */
export function waitingRun(kind, { error, progress }, tokens) {
  return {
    model: kind,
    status: error ? 'error' : 'loading',
    error,
    progress,
    tokens: tokens.map((t) => ({ ...t, masked: false })),
    totalTokens: tokens.length,
    truncated: false,
    validLength: tokens.length,
    attention: { data: new Float32Array(0), shape: [0, 0, tokens.length, tokens.length] },
    heads: [],
    causal: modelEntry(kind).objective === 'causal',
  };
}

/**
 * What the decoder predicted at one position of the sentence (what came after its first position + 1 tokens), and how it
 * rated the word that actually came next: computed when the learner points at a row, not per keystroke (the output
 * layer at every position would cost a keystroke ~4× the blocks).
 * @param {object} model  core.languageModel('causal') @param {string} sentence  @param {number} position  0 … T − 1
 * @param {{ temperature: number, topK: number }} sampling  the bars' sampling distribution (output-layer.js samplingOptions)
 * @param {import('./run.js').HeadRef[]} [knockout]  heads switched off (state.knockout)
 * @returns {{ tokens: string, position: number, context: string, top: { word: string, p: number }[], unk: number, next?: string,
 *   known?: boolean, rank: number | null, p: number | null }}  top: the first words of the model's probabilities, or of
 *   the sampling distribution where one is set (output-layer.js sampledBars); unk: p(<unk>);
 *   next: the word that came (none after the last token);
 *   known: in its output vocabulary; tokens: the sentence's tokens, joined (whose prediction this is); rank (1-based)
 *   and p: where it stands among the RANKED_WORDS most likely, else null
 */
export function predictionAt(model, sentence, position, sampling, knockout = []) {
  const sampled = sampledBars({ outputTemperature: sampling.temperature, topK: sampling.topK });
  const run = model.run(sentence, {
    k: RANKED_WORDS,
    positions: [position],
    sampling: sampled ? sampling : undefined,
    ablate: knockout,
  });
  const came = run.tokens[position + 1]?.text;
  const { config } = model;
  const top = run.top[position];
  const at = came === undefined ? -1 : top.findIndex(({ word }) => sameToken(word, came, config));
  // the word that came, as the bars label it
  const next = came === undefined ? undefined : readsPieces(config) ? shownToken(came, config) : came.toLowerCase();
  return {
    tokens: readingOf(run.tokens, config),
    position,
    context: readingOf(run.tokens.slice(0, position + 1), config),
    top: shownWords((sampled ? run.sampling : run.top)[position].slice(0, SHOWN_WORDS), config),
    unk: run.unk?.[position] ?? null,
    next,
    // every piece is one a BPE model can output
    known: next !== undefined && (readsPieces(config) || model.vocabulary.includes(next)),
    rank: at < 0 ? null : at + 1,
    p: at < 0 ? null : top[at].p,
  };
}

/**
 * The Run of a model the learner is training in the Learn chapter, on the learner's sentence at one step (its worker
 * runs the model and sends the weights: lessons/learn/language-run.js probe).
 * @param {{ tokens: object[], weights: { data: Float32Array, shape: [number, number, number, number] } }} probe
 * @param {object[]} heads  what each head was measured to do on the held-out text (config.heads' format)
 * @param {{ objective: string, labelThreshold: number }} model  labelThreshold: the head label rule's
 *   (core.languageModelLimits.headLabelThreshold, sent with the worker's model message)
 * @returns {import('./run.js').Run}
 */
export function learnedRun({ tokens, weights }, heads, { objective, labelThreshold }) {
  const [numLayers, numHeads, T] = weights.shape;
  return {
    model: 'learned',
    status: 'ready',
    tokens: tokens.map((t) => ({ ...t, masked: Boolean(t.mask ?? t.masked) })),
    totalTokens: T,
    truncated: false,
    validLength: T,
    attention: weights,
    heads: measuredHeads({ numLayers, numHeads, heads }, labelThreshold),
    labelThreshold,
    causal: objective === 'causal',
  };
}
