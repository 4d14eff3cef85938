// The explorer's state: what the learner has chosen. Here its part that every chapter reads (the
// sentence, the heads and their settings, where the page is), as entries of the state schema (schema.js);
// each chapter adds its own slice (lessons/<chapter>/chapter.js `settings`), and lessons/chapters.js puts
// the two together. The trace is computed from the state (trace.js); views draw the trace.
import { asHead, designedHead, firstHead } from './head.js';
import { COMPARISON, DEFAULT_SENTENCE } from './sentences.js';
import { coreLimits, label, names } from './limits.js';
import { headKindNames } from '../core/limits.js';

/** Hidden units the additive score offers (its limit is core.limits.maxAdditiveHidden). */
export const ADDITIVE_HIDDEN_SIZES = [4, 8, 16, 32, 64];

/** The masks a designed head can use (explain()'s `causal` and `validLength`, as one choice). */
export const MASKS = ['bidirectional', 'causal', 'padding'];

/** Each mask as the settings form names it: by the model that uses it, or by what it needs. */
const MASK_LABELS = {
  bidirectional: 'bidirectional (BERT)',
  causal: 'causal (GPT)',
  padding: 'padding (valid length)',
};

/** The weights' colour maps (views/colors.js draws them; a test checks the two lists agree). */
export const COLOR_MAPS = ['viridis', 'cividis'];

/**
 * The settings every chapter reads, and where the page is (chapter, tour), in the order the element's attributes
 * are read and written (explorer/attributes.js): each a Setting of schema.js. Those with a `control` make the
 * explorer's settings form: at most six in view, the rest under "More settings".
 * @type {import('./schema.js').Setting[]}
 */
export const BASE_SETTINGS = [
  { name: 'sentence', type: 'text', default: DEFAULT_SENTENCE, attribute: 'sentence' },
  // Show `sentence` and `compareSentence` together, on shared axes (context moves meaning).
  { name: 'compare', type: 'boolean', default: false },
  { name: 'compareSentence', type: 'text', default: COMPARISON[1] },
  // The chapter shown: an id of lessons/chapters.js (an unknown one shows the first).
  { name: 'chapter', type: 'text', default: 'attention' },
  // Four designed heads a learner can name at first sight (designed_heads.hpp). The `heads` attribute sets both
  // fields: a count ("4") or the kinds ("previous,semantic"); the count must also divide d_model.
  {
    name: 'numHeads',
    type: 'integer',
    default: 4,
    range: () => [1, coreLimits().maxHeads],
    attribute: 'heads',
    fixed: true,
    control: {
      label: 'Heads',
      widget: 'select',
      place: 'view',
      order: 1,
      // Each option names what every head shares, the value width d_v = d_model / heads; a designed head's d_k
      // can differ (its note and its line in the heads list say which it uses).
      values: ({ dModel }) => headCounts(dModel),
      optionLabel: (h, { dModel }) => `${h} (d_v = ${dModel / h})`,
      title:
        "Each head's values are d_model / heads wide (d_v). A projected head's queries and keys too (d_k = d_v); " +
        'a designed head uses its own d_k, shown beside it.',
    },
  },
  {
    name: 'headKinds', // per head: a head kind of core.limits (missing: 'projected')
    type: 'names',
    default: ['semantic', 'previous', 'next', 'first'],
    names: () => headKindNames(coreLimits()),
    emptyItems: true,
    attribute: 'heads',
    fixed: true,
    // One kind at a time: the selected head's.
    control: {
      label: 'Selected head is',
      widget: 'select',
      place: 'view',
      order: 2,
      name: 'headKind',
      shown: selectedHeadKind,
      optionLabel: (name) => label('headKinds', name),
    },
  },
  // Whose attention: 'designed' heads, or a trained model, 'causal' (decoder) or 'masked' (encoder).
  { name: 'model', type: 'name', default: 'designed', names: () => names('models'), attribute: 'model' },
  // A checkpoint an author brings (model 'gpt2'): the URL of a GPT-2 safetensors file in Hugging Face's layout, with
  // its config.json beside it (core.languageModel({ url, architecture })); '' when none is given.
  { name: 'checkpoint', type: 'text', default: '', attribute: 'checkpoint' },
  // The selected head: { layer, head }, both from 0, for every model (settings/head.js); choosing another model
  // starts at its first head (withBaseChange).
  {
    name: 'head',
    type: 'head',
    default: firstHead('designed'),
    // Its select lists the designed heads (a trained head is chosen in its own figures), so a trained model sets it
    // aside although every model has a selected head.
    control: {
      label: 'Selected head',
      widget: 'select',
      place: 'more',
      order: 1,
      shown: (state) => designedHead(state.head, state.numHeads),
      optionLabel: (h) => `head ${h + 1}`,
      inapplicable: (state) => state.numHeads === 1,
      designedOnly: true,
    },
  },
  // Heads switched off in the trained models ({ layer, head } from 0, each once): their outputs are 0 before W_O
  // (core languageModel run()'s ablate), so later layers and the predictions recompute without them. The designed
  // heads ignore it. A head the model does not have is the model's RangeError, shown on the page. URL: knockout=0,1;1,3.
  { name: 'knockout', type: 'heads', default: [], attribute: 'knockout' },
  {
    name: 'projection',
    type: 'name',
    default: 'identity',
    names: () => names('projections'),
    attribute: 'projection',
    fixed: true,
    control: {
      label: 'Projections W_Q, W_K, W_V, W_O',
      widget: 'select',
      place: 'more',
      order: 3,
      optionLabel: (name) => label('projections', name),
    },
  },
  // The random projections' (identity projections have no weights to draw).
  {
    name: 'seed',
    type: 'integer',
    default: 1,
    range: () => [0, coreLimits().maxSeed],
    attribute: 'seed',
    fixed: true,
    control: {
      label: 'Seed',
      widget: 'number',
      place: 'more',
      order: 4,
      inapplicable: (state) => state.projection !== 'random',
    },
  },
  // δ of 'offset' heads.
  {
    name: 'offset',
    type: 'integer',
    default: 2,
    range: () => [-coreLimits().maxHeadOffset, coreLimits().maxHeadOffset],
    fixed: true,
    control: {
      label: 'δ',
      widget: 'number',
      place: 'more',
      order: 2,
      inapplicable: (state) => selectedHeadKind(state) !== 'offset',
    },
  },
  {
    name: 'mask',
    type: 'name',
    default: 'bidirectional',
    names: () => MASKS,
    attribute: 'mask',
    fixed: true,
    control: { label: 'Mask', widget: 'select', place: 'view', order: 3, optionLabel: (name) => MASK_LABELS[name] },
  },
  // Keys at positions ≥ validLength are padding when mask = 'padding'; beside another mask its control goes.
  {
    name: 'validLength',
    type: 'integer',
    default: 4,
    range: () => [0, coreLimits().maxTokens],
    attribute: 'valid-length',
    fixed: true,
    control: {
      label: 'Valid length',
      widget: 'number',
      place: 'view',
      order: 4,
      inapplicable: (state) => state.mask !== 'padding',
      hideInapplicable: true,
    },
  },
  // Tokens replaced by [MASK].
  { name: 'maskedPositions', type: 'integers', default: [], range: () => [0, coreLimits().maxTokens - 1] },
  {
    name: 'positionalEncoding',
    type: 'name',
    default: 'sinusoidal',
    names: () => names('positionalEncodings'),
    attribute: 'positional-encoding',
    fixed: true,
    control: {
      label: 'Position information',
      widget: 'select',
      place: 'view',
      order: 6,
      optionLabel: (name) => label('positionalEncodings', name),
    },
  },
  {
    name: 'temperature',
    type: 'number',
    default: 1,
    range: () => [coreLimits().minExplorerTemperature, coreLimits().maxExplorerTemperature],
    attribute: 'temperature',
    fixed: true,
    control: { label: 'Temperature τ', widget: 'range', step: 0.05, place: 'view', order: 5 },
  },
  // How scores become weights.
  {
    name: 'normalizer',
    type: 'name',
    default: 'softmax',
    names: () => names('normalizers'),
    attribute: 'normalizer',
    fixed: true,
    control: {
      label: 'Normalizer',
      widget: 'select',
      place: 'more',
      order: 7,
      optionLabel: (name) => label('normalizers', name),
    },
  },
  // 'scaledDot' (Q Kᵀ / √d_k), 'dot' or 'additive' (Bahdanau).
  {
    name: 'scoreFunction',
    type: 'name',
    default: 'scaledDot',
    names: () => names('scoreFunctions'),
    attribute: 'score-function',
    fixed: true,
    control: {
      label: 'Score function',
      widget: 'select',
      place: 'more',
      order: 5,
      optionLabel: (name) => label('scoreFunctions', name),
    },
  },
  // Hidden units of the additive score (the other score functions have none).
  {
    name: 'additiveHidden',
    type: 'integer',
    default: 16,
    range: () => [1, coreLimits().maxAdditiveHidden],
    fixed: true,
    control: {
      label: 'Additive hidden units',
      widget: 'select',
      place: 'more',
      order: 6,
      values: () => ADDITIVE_HIDDEN_SIZES,
      inapplicable: (state) => state.scoreFunction !== 'additive',
    },
  },
  // The attention weights' colour map (both colour-blind safe).
  {
    name: 'colorMap',
    type: 'name',
    default: 'viridis',
    names: () => COLOR_MAPS,
    attribute: 'color-map',
    control: { label: 'Colour map', widget: 'select', place: 'more', order: 8 },
  },
  // The id of the guided tour's step shown (explorer/tour-steps.js); '' when the tour is closed. Its attribute
  // also takes a step number (explorer/attributes.js).
  { name: 'tour', type: 'text', default: '', attribute: 'tour' },
];

/** The kind of the designed heads' selected head (a missing item of headKinds is 'projected'). */
export function selectedHeadKind(state) {
  return state.headKinds[designedHead(state.head, state.numHeads)] ?? 'projected';
}

/** Divisors of dModel: the allowed head counts (d_k = dModel / numHeads must be whole). */
export function headCounts(dModel) {
  return Array.from({ length: dModel }, (_, i) => i + 1).filter((h) => dModel % h === 0);
}

/**
 * Applies a change to the settings every chapter reads and keeps them consistent: a head given as a number (the old
 * single field) is { layer: 0, head }; choosing another model starts at its first head; the designed heads' selected
 * head exists (a trained model's is resolved when its run knows its size: models/run.js headIndex).
 */
export function withBaseChange(state, change) {
  const next = { ...state, ...change };
  if ('head' in change) next.head = asHead(change.head) ?? state.head;
  else if (next.model !== state.model) next.head = firstHead(next.model);
  if (next.model === 'designed') next.head = { layer: 0, head: designedHead(next.head, next.numHeads) };
  return next;
}
