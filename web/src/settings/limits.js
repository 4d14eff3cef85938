// The core's limits and name lists (core.limits: each defined once in C++ and exported by the
// bindings), for the explorer's attribute parser, state and every control, with the labels the page
// shows for each name. Set when the page's core has loaded (explorer/shared-core.js); every explorer on a page uses
// the same core build, so one copy serves them all. A name the core lists without a label here is an
// error, so a name added in C++ cannot reach the page unlabelled.
import { headKindNames } from '../core/limits.js';

let loaded = null;
let loadedTrainer = null;
let loadedLanguage = null;

/**
 * Called once the core has loaded.
 * @param {object} limits  core.limits @param {object} [trainer]  core.trainerLimits
 * @param {object} [language]  core.languageModelLimits (the trained models' kinds)
 */
export function setCoreLimits(limits, trainer = null, language = null) {
  loaded = limits;
  loadedTrainer = trainer;
  loadedLanguage = language;
}

/** The model the explorer shows that is not a trained one: the designed heads (and random or identity projections). */
export const DESIGNED = 'designed';

/**
 * The models the explorer can show: 'designed', then the core's trained language models (core.languageModelLimits.objectives:
 * 'causal', the decoder; 'masked', the encoder), then the checkpoints an author brings (its architectures: 'gpt2').
 * @returns {string[]}
 * @throws {Error} before the core has loaded
 */
export function modelNames() {
  if (!loadedLanguage) throw new Error('The attention core has not loaded yet: its language models are not known.');
  return [DESIGNED, ...loadedLanguage.objectives, ...loadedLanguage.architectures];
}

/**
 * @returns {object} core.languageModelLimits (the trained models' kinds, k, the output temperature and top-k ranges)
 * @throws {Error} before the core has loaded
 */
export function languageLimits() {
  if (!loadedLanguage)
    throw new Error("The attention core has not loaded yet: the language models' limits are not known.");
  return loadedLanguage;
}

/**
 * @returns {object} core.limits
 * @throws {Error} before the core has loaded
 */
export function coreLimits() {
  if (!loaded) throw new Error('The attention core has not loaded yet: its limits are not known.');
  return loaded;
}

/**
 * @returns {object} core.trainerLimits (the trainer's tasks and size limits)
 * @throws {Error} before the core has loaded
 */
export function trainerLimits() {
  if (!loadedTrainer) throw new Error("The attention core has not loaded yet: the trainer's limits are not known.");
  return loadedTrainer;
}

const LABELS = {
  positionalEncodings: {
    sinusoidal: 'sinusoidal P added (Vaswani)',
    none: 'none',
    learned: 'learned table (untrained)',
    rope: 'RoPE: rotate Q, K',
    alibi: 'ALiBi: −m·|i−j| on scores',
    t5: 'T5 relative buckets',
  },
  scoreFunctions: { scaledDot: 'scaled dot product (Vaswani)', dot: 'dot product', additive: 'additive (Bahdanau)' },
  normalizers: {
    softmax: 'softmax (dense)',
    sparsemax: 'sparsemax (sparse)',
    entmax15: '1.5-entmax (sparse)',
    hardmax: 'hardmax (one-hot)',
  },
  projections: { identity: 'identity (raw word-vector similarity)', random: 'random (Glorot, seeded)' },
  models: {
    designed: 'designed heads',
    causal: 'trained decoder',
    masked: 'trained encoder',
    gpt2: 'GPT-2 (your checkpoint)',
  },
  headKinds: {
    projected: 'projected (W_Q, W_K)',
    semantic: 'semantic: similar words',
    previous: 'previous token',
    next: 'next token',
    offset: 'offset δ',
    first: 'first token',
    uniform: 'uniform',
  },
};

/** The order a select lists names in: the core's, the sinusoidal encoding first (the page's default). */
const FIRST = { positionalEncodings: 'sinusoidal' };

/**
 * A name list of the core with its labels, for a select.
 * @param {'positionalEncodings' | 'scoreFunctions' | 'normalizers' | 'projections' | 'headKinds' | 'models'} list
 * @returns {[string, string][]} [name, label] pairs
 * @throws {Error} naming a name that has no label
 */
export function labelled(list) {
  const limits = coreLimits();
  const names = list === 'headKinds' ? headKindNames(limits) : list === 'models' ? modelNames() : [...limits[list]];
  if (FIRST[list]) names.sort((a, b) => (b === FIRST[list]) - (a === FIRST[list]));
  return names.map((name) => [name, label(list, name)]);
}

/**
 * The label the page shows for a name of one of the core's lists.
 * @param {'positionalEncodings' | 'scoreFunctions' | 'normalizers' | 'projections' | 'headKinds' | 'models'} list
 * @param {string} name
 * @returns {string}
 * @throws {Error} for a name that has no label
 */
export function label(list, name) {
  if (!Object.hasOwn(LABELS[list], name)) throw new Error(`The page has no label for ${list} "${name}".`);
  return LABELS[list][name];
}

/** The names of a list (as labelled() orders them). */
export function names(list) {
  return labelled(list).map(([name]) => name);
}

/** What each model is, in a sentence (the model choice's tooltips). */
const MODEL_DESCRIPTIONS = {
  designed:
    'Heads designed by hand (semantic, previous, next, first token) or projected: every setting is yours to change.',
  causal:
    'Our small GPT-style language model: each word attends to itself and earlier words only; it predicts the next word.',
  masked: 'Our small BERT-style language model: each word attends to every word; it fills in a hidden word ([MASK]).',
  gpt2:
    'A GPT-2 checkpoint the page was given (its checkpoint attribute, or checkpoint= in the link): OpenAI’s ' +
    'architecture, 12 layers of 12 heads for GPT-2 small, reading byte-level BPE pieces.',
};

/**
 * @param {string} name  a name of modelNames()
 * @returns {string} what that model is, in a sentence
 * @throws {Error} for a name without a description (a model added in C++ must be described here)
 */
export function modelDescription(name) {
  if (!Object.hasOwn(MODEL_DESCRIPTIONS, name)) throw new Error(`The page has no description of the model "${name}".`);
  return MODEL_DESCRIPTIONS[name];
}
