// The models the page can show, one entry each: its id (the state's `model`, the URL's and the attribute's value), its
// label, its objective (the core's name for what its output layer learned to predict; null for the designed heads), its
// first head, and what it can do. Chapters, tours and controls ask an entry (or a Run's `can`) what a model can do —
// generate, fill in blanks, show an output layer, take the designed heads' settings — and never compare a model's id:
// a new kind of model is a new entry here (and its run in this folder), not a branch in every chapter.
import { firstHead } from '../settings/head.js';
import { DESIGNED, labelled, modelNames } from '../settings/limits.js';

/**
 * What each model can do: the designed heads, and a trained model of each objective the core knows (its id is its
 * objective). A trained objective the core lists without an entry here is an error (modelRegistry), so a model the core
 * adds cannot reach the page with abilities guessed.
 */
const ABILITIES = {
  [DESIGNED]: {
    generate: false,
    fillBlanks: false,
    outputLayer: false,
    designedControls: true,
    ourModel: false,
    checkpoint: false,
  },
  // The decoder predicts the next word: Generate appends one, and a row of its weights has a prediction there.
  causal: {
    generate: true,
    fillBlanks: false,
    outputLayer: true,
    designedControls: false,
    ourModel: true,
    checkpoint: false,
  },
  // The encoder fills in [MASK]: a clicked word becomes its blank.
  masked: {
    generate: false,
    fillBlanks: true,
    outputLayer: true,
    designedControls: false,
    ourModel: true,
    checkpoint: false,
  },
  // A GPT-2 checkpoint an author brings: a decoder over BPE pieces. Why this word? (L·H + T forward passes, 160 of
  // GPT-2 small's on 16 tokens, seconds in all) is measured when a word is chosen, not pointed at.
  gpt2: {
    generate: true,
    fillBlanks: false,
    outputLayer: true,
    designedControls: false,
    ourModel: false,
    checkpoint: true,
  },
};

/** The objective of each model that is not its own id: a GPT-2 checkpoint predicts the next token, as the decoder. */
const OBJECTIVES = { gpt2: 'causal' };

/**
 * What a model can do.
 * @typedef {object} Abilities
 * @property {boolean} generate  predicts the next word: Generate, and a prediction at each row it reads
 * @property {boolean} fillBlanks  fills in [MASK]: the learner's clicked words become blanks
 * @property {boolean} outputLayer  has an output layer over words (predictions, "Why this word?", knockout, the stepper's
 *   last steps)
 * @property {boolean} designedControls  the designed heads' settings apply (head kinds, projections, mask, score
 *   function, normalizer, positional encoding); a trained model fixes them
 * @property {boolean} checkpoint  reads a checkpoint the page is given (state.checkpoint, the checkpoint attribute): the
 *   choice offers it only once one is named
 * @property {boolean} ourModel  one of our own trained models (post-LN blocks over GloVe words, measured heads, small
 *   enough to run once per head and word whenever a word is pointed at: Why this word?), not a checkpoint an author
 *   brings
 */

/**
 * One model the page can show.
 * @typedef {object} ModelEntry
 * @property {string} id  the state's `model`
 * @property {string} label  as the model choice shows it
 * @property {string | null} objective  the core's objective (core.languageModelLimits.objectives), null for the
 *   designed heads
 * @property {Abilities} can
 * @property {{ layer: number, head: number }} firstHead  the head selected when the model is chosen
 */

let cached = null;

/**
 * Every model the page can show, the designed heads first, then the core's trained models in its order.
 * @returns {readonly ModelEntry[]}
 * @throws {Error} before the core has loaded, or for an objective of the core with no abilities here
 */
export function modelRegistry() {
  const ids = modelNames();
  if (cached && cached.ids.join() === ids.join()) return cached.entries;
  const labels = new Map(labelled('models'));
  const entries = ids.map((id) => {
    if (!Object.hasOwn(ABILITIES, id))
      throw new Error(`The page does not know what a '${id}' model can do (models/registry.js).`);
    return Object.freeze({
      id,
      label: labels.get(id),
      objective: id === DESIGNED ? null : (OBJECTIVES[id] ?? id),
      can: Object.freeze({ ...ABILITIES[id] }),
      firstHead: Object.freeze(firstHead(id)),
    });
  });
  cached = { ids, entries: Object.freeze(entries) };
  return cached.entries;
}

/**
 * @param {string} id  a model's id (the state's `model`)
 * @returns {ModelEntry}
 * @throws {RangeError} for an id no model has, naming the ids
 */
export function modelEntry(id) {
  const entry = modelRegistry().find((m) => m.id === id);
  if (!entry) {
    const ids = modelRegistry().map((m) => `'${m.id}'`);
    throw new RangeError(`No model '${id}': the models are ${ids.join(', ')}.`);
  }
  return entry;
}

/**
 * The first model that can do `ability` (the tours' and the preload's pick: "a model that generates").
 * @param {keyof Abilities} ability
 * @returns {ModelEntry}
 * @throws {RangeError} for an ability no entry has, or none has it
 */
export function modelThat(ability) {
  return modelEntry(modelIdThat(ability));
}

/**
 * The id of the first model that can do `ability`: the decoder for 'generate', the encoder for 'fillBlanks'. Read from
 * the table alone, so that data written before the core loads (a tour step's state) can name a model by what it does.
 * @throws {RangeError} for an ability no entry has, or none has it
 */
export function modelIdThat(ability) {
  if (!Object.hasOwn(ABILITIES[DESIGNED], ability))
    throw new RangeError(`No ability '${ability}' (models/registry.js).`);
  const id = Object.keys(ABILITIES).find((key) => ABILITIES[key][ability]);
  if (id === undefined) throw new RangeError(`No model can ${ability}.`);
  return id;
}

/**
 * Whether a clicked word becomes [MASK]: for the designed heads (the mean word vector in its place) and a model that
 * fills blanks; a model that writes the next word never read [MASK] in training (core languageModel run() refuses it).
 * @param {Abilities} can
 * @returns {boolean}
 */
export function masksWords(can) {
  return can.designedControls || can.fillBlanks;
}

/**
 * Whether a state's model masks later words (the causal mask: each word sees itself and the words before it): a model
 * that writes the next word always does (it was trained so), the designed heads when their mask is 'causal'.
 * @param {{ model: string, mask: string }} state
 * @returns {boolean}
 */
export function masksLaterWords(state) {
  const { can } = modelEntry(state.model);
  return can.generate || (can.designedControls && state.mask === 'causal');
}
