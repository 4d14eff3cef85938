// The attention chapter's data for a trained model (a lens: explorer/lens-data.js): the model run on the
// learner's sentence once per update — every head's weights, and its predictions at the one position a
// figure shows (the output layer costs more than the blocks: core.languageModel run()'s positions).
import { DESIGNED } from '../../settings/limits.js';
import { trainedHeadAt } from './trained-heads.js';

/** How many words a prediction figure lists. */
export const SHOWN_WORDS = 10;
/** How many the masked model ranks, to say where the hidden word stands (core.languageModelLimits.maxTopK). */
const RANKED_WORDS = 100;

/**
 * The sentence as the trained model reads it: each token the learner masked (state.maskedPositions) written
 * as [MASK] in its place, the rest of the text as typed.
 * @param {string} sentence  @param {{ start: number, end: number }[]} tokens  the trace's tokens (UTF-16 spans)
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
 * The lens's inputs: null while the designed heads are shown.
 * @param {object} state  @param {object} trace  core.explain()'s (its tokens and their spans)
 * @param {{ get: (kind: string) => object }} models  trained-models.js trainedModels(core)
 * @returns {{ kind: string, text: string, hidden: string[], selected: number, status: string } | null}  text: the sentence
 *   as the model reads it; hidden: the words behind its [MASK]s, in order (lower case); selected: the selected head,
 *   layer-major (state.trainedHead); status: 'ready', 'loading' or 'error: …' (so the lens computes again once the
 *   model has loaded)
 */
export function trainedInputs(state, trace, models) {
  if (state.model === DESIGNED) return null;
  const { model, error } = models.get(state.model);
  const masked =
    state.model === 'masked'
      ? [...new Set(state.maskedPositions)].filter((i) => i < trace.tokens.length).sort((a, b) => a - b)
      : [];
  return {
    kind: state.model,
    text: state.model === 'masked' ? maskedText(state.sentence, trace.tokens, masked) : state.sentence,
    hidden: masked.map((i) => trace.tokens[i].text.toLowerCase()),
    selected: state.trainedHead,
    status: model ? 'ready' : error ? `error: ${error}` : 'loading',
  };
}

/**
 * The loaded model trainedInputs() name, or what its figures show instead: { kind: 'designed' } for the designed heads
 * (no trained figure shows), { kind, loading } or { kind, error } while there is no model, { kind, config, empty } for an
 * empty sentence.
 * @param {{ get: (kind: string) => object }} models  trained-models.js trainedModels(core)
 * @returns {{ model: object } | { instead: object }}
 */
export function readyModel(models, inputs) {
  if (!inputs) return { instead: { kind: DESIGNED } };
  const { kind, text } = inputs;
  const { model, error } = models.get(kind);
  if (!model) return { instead: error ? { kind, error } : { kind, loading: true } };
  if (text.trim() === '') return { instead: { kind, config: model.config, empty: true } };
  return { model };
}

/**
 * The model's run on the text: { kind, config, run, predictions } — run with the selected head's block step by step
 * (run.activations: its value vectors for the mix); predictions: causal, the words after the last token; masked, for
 * each [MASK], its position, the top words, the hidden word, whether the model can output it at all (known: in its
 * output vocabulary) and its rank (1-based, null past RANKED_WORDS). Without a model or a sentence, readyModel()'s stand-in.
 * @throws RangeError from run() (text too long, [MASK] typed for the causal model): the section says it
 */
export function trainedData(models, inputs) {
  // models: trained-models.js trainedModels(core)
  const { model, instead } = readyModel(models, inputs);
  if (!model) return instead;
  const { kind, text, hidden } = inputs;
  const activations = trainedHeadAt(model.config, inputs.selected);
  if (kind === 'causal') {
    const run = model.run(text, { k: SHOWN_WORDS, positions: [-1], activations });
    return { kind, config: model.config, run, predictions: [{ position: run.tokens.length - 1, top: run.top.at(-1) }] };
  }
  const run = model.run(text, { k: RANKED_WORDS, positions: 'masks', activations });
  const predictions = run.tokens
    .flatMap((token, position) => (token.mask ? [position] : []))
    .map((position, n) => {
      const rank = run.top[position].findIndex(({ word }) => word === hidden[n]);
      return {
        position,
        hidden: hidden[n],
        known: model.vocabulary.includes(hidden[n]),
        rank: rank < 0 ? null : rank + 1,
        top: run.top[position].slice(0, SHOWN_WORDS),
      };
    });
  return { kind, config: model.config, run, predictions };
}

/**
 * What the decoder predicted at one position of the sentence (what came after its first position + 1 tokens), and how it
 * rated the word that actually came next: computed when the learner points at a row, not per keystroke (the output
 * layer at every position would cost a keystroke ~4× the blocks).
 * @param {object} model  core.languageModel('causal') @param {string} sentence  @param {number} position  0 … T − 1
 * @returns {{ tokens: string, position: number, context: string, top: { word: string, p: number }[], next?: string,
 *   known?: boolean, rank: number | null, p: number | null }}  next: the word that came (none after the last token);
 *   known: in its output vocabulary; tokens: the sentence's tokens, joined (whose prediction this is); rank (1-based) and p: where it stands among the RANKED_WORDS most likely, else null
 */
export function predictionAt(model, sentence, position) {
  const run = model.run(sentence, { k: RANKED_WORDS, positions: [position] });
  const next = run.tokens[position + 1]?.text.toLowerCase();
  const top = run.top[position];
  const at = next === undefined ? -1 : top.findIndex(({ word }) => word === next);
  return {
    tokens: run.tokens.map((t) => t.text).join(' '),
    position,
    context: run.tokens
      .slice(0, position + 1)
      .map((t) => t.text)
      .join(' '),
    top: top.slice(0, SHOWN_WORDS),
    next,
    known: next !== undefined && model.vocabulary.includes(next),
    rank: at < 0 ? null : at + 1,
    p: at < 0 ? null : top[at].p,
  };
}
