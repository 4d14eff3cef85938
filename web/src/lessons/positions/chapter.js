// Chapter "Positions": the sinusoidal encoding P (Vaswani et al. 2017 §3.5; d2l.ai §11.6.3) drawn
// once — the sentence's P, whose width, base and positions the learner can change — with its
// binary-counter bits and curves; relative position (similarity, the offset as a rotation); and why it
// matters for attention (shuffle, repeated words, score terms, lengths).
import { tour } from './tour.js';
import { coreLimits } from '../../settings/limits.js';
import { defaultsOf } from '../../settings/schema.js';
import { buildLabControls } from './lab-controls.js';
import { labSection } from './lab-section.js';
import { D2L_PRESET, labOptions, rotationPair } from './lab-data.js';
import { formula } from '../../views/formulas.js';
import { binaryPositions } from './binary-positions.js';
import { encodingCurves } from './encoding-curves.js';
import { labEncoding } from './lab-encoding.js';
import { normBars } from './norm-bars.js';
import { positionSimilarity } from './position-similarity.js';
import { repeatedWord } from './repeated-word.js';
import { rotationView } from './rotation-view.js';
import { scoreTerms } from './score-terms.js';
import { shuffleCheck } from './shuffle-check.js';
import { checkInputs, checkedHead } from './checked-head.js';
import { whenTrace } from '../../models/run-figures.js';
import { element } from '../../views/layout.js';
import { LEARNED_POSITIONS_NOTE, learnedPositions } from './learned-positions.js';

/** Said once, over the four checks, while a trained model is shown. */
const CHECKS_NOTE = 'These four checks follow the designed heads: choose “designed heads” above to see them.';

/** A check's figure with, first, which head it checks and why (checked-head.js). */
function withNote(figure, note) {
  const p = document.createElement('p');
  p.className = 'checked-head';
  p.textContent = note;
  figure.prepend(p);
  return figure;
}

/** The positional encoding the run's input added: the designed heads' setting; the trained models were trained with P. */
function positionalEncodingOf(run) {
  return run.trace?.options.positionalEncoding ?? 'sinusoidal';
}

export const positionsChapter = {
  id: 'positions',
  title: 'Positions',
  takeaway:
    'Attention by itself ignores word order: shuffle the words and each keeps its output. ' +
    'Adding a positional encoding P, a different vector for every position, is what lets it tell “dog bites man” from “man bites dog”.',
  views: ['positional', 'lab'],
  /**
   * Its slice of the state, entries of the state schema (settings/schema.js): the lab's own encoding, the rotation's
   * pair, and how loud P is in the model.
   */
  settings: [
    // P × this before it is added (the designed heads' input: a trained model's is its own).
    {
      name: 'positionalScale',
      type: 'number',
      default: 1,
      range: () => [0, coreLimits().maxInputScale],
      fixed: true,
    },
    // Word vectors × this (10 = √d_model, Vaswani §3.4).
    {
      name: 'embeddingScale',
      type: 'number',
      default: 1,
      range: () => [0, coreLimits().maxInputScale],
      aboveMin: true,
      fixed: true,
    },
    // The shuffled order of the shuffle check.
    { name: 'shuffleSeed', type: 'integer', default: 1, range: () => [0, coreLimits().maxSeed] },
    // The lab's encoding: its own width (the core also wants it even), base and positions.
    { name: 'labDModel', type: 'integer', default: 100, range: () => [2, coreLimits().maxLabDModel] },
    { name: 'labBase', type: 'number', default: 10000, range: () => [0, Infinity], aboveMin: true },
    // null: as many as the sentence has tokens.
    {
      name: 'labPositions',
      type: 'integer',
      default: null,
      nullable: true,
      range: () => [1, coreLimits().maxLabPositions],
    },
    // Curves of columns labFirstColumn … + 3.
    { name: 'labFirstColumn', type: 'integer', default: 6, range: () => [0, Infinity] },
    // Position similarity as cosine instead of P Pᵀ.
    { name: 'labCosine', type: 'boolean', default: false },
    // The token pair of the rotation check (past the sentence's last token: its last).
    { name: 'rotationFrom', type: 'integer', default: 1, range: () => [0, Infinity] },
    { name: 'rotationTo', type: 'integer', default: 4, range: () => [0, Infinity] },
  ],
  /** Its slice's defaults (a fresh object). */
  state() {
    return defaultsOf(this.settings);
  },
  /**
   * Data its figures need beyond the trace (explorer/lens-data.js): computed while one of them is on
   * screen, and again only when its inputs change. inputs(state, run, core) → JSON-able inputs;
   * compute(core, inputs) → the data.
   */
  lenses: {
    lab: {
      inputs: (state, run) => labOptions(state, run.tokens.length),
      compute: (core, options) => core.positionalEncodingLab(options),
    },
    // The position checks' own trace: on a head that reads P (checked-head.js).
    positionCheck: { inputs: (state) => checkInputs(state), compute: checkedHead },
  },
  /** Its figures (see explorer/figures.js); `needs`: the lab's data (which needs no sentence), or the trace's position checks. */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    labEncoding: {
      needs: 'lab',
      withoutSentence: true,
      draw: ({ run, lab }, _, { labBase }, { last }) =>
        labEncoding(lab, { tokens: run.tokens, base: labBase, used: positionalEncodingOf(run) }, last),
    },
    binaryPositions: {
      needs: 'lab',
      withoutSentence: true,
      draw: ({ run, lab }, _, __, { last }) => binaryPositions(lab, { tokens: run.tokens }, last),
    },
    encodingCurves: {
      needs: 'lab',
      withoutSentence: true,
      key: ({ lab }, { labFirstColumn, labBase }) => [lab, labFirstColumn, labBase],
      draw: ({ lab }, _, { labFirstColumn, labBase }) =>
        encodingCurves(lab, { firstColumn: labFirstColumn, base: labBase }),
    },
    // A checkpoint's learned positions (wpe) on their principal components, beside the sinusoids: the model's, not the
    // sentence's, so drawn again only for another model.
    learnedPositions: {
      withoutSentence: true,
      key: ({ run }) => [run.model, run.status, run.config?.file],
      draw: ({ run }) =>
        run.status === 'ready' && run.ask?.learnedPositions
          ? learnedPositions(run.ask.learnedPositions())
          : element('p', 'empty-figure', LEARNED_POSITIONS_NOTE),
    },
    positionSimilarity: {
      needs: 'lab',
      withoutSentence: true,
      draw: ({ run, lab }, _, { labCosine }) => positionSimilarity(lab, { cosine: labCosine, tokens: run.tokens }),
    },
    rotation: {
      needs: 'lab',
      withoutSentence: true,
      draw: ({ run, lab }, _, state) =>
        rotationView(lab, { ...rotationPair(state, run.tokens.length), tokens: run.tokens }),
    },
    // The four checks of "Why it matters for attention" (lab-section.js), one after another: with a trained model the
    // first says for all four that they follow the designed heads, and the others say nothing.
    shuffle: {
      needs: 'positionCheck',
      draw: whenTrace(
        ({ positionCheck: c }, _, { colorMap }) =>
          withNote(shuffleCheck(c.trace, { head: c.head, name: c.name, colorMap }), c.note),
        { note: CHECKS_NOTE },
      ),
    },
    repeated: {
      needs: 'positionCheck',
      draw: whenTrace(
        ({ positionCheck: c }) => withNote(repeatedWord(c.trace, { head: c.head, name: c.name }), c.note),
        { note: null },
      ),
    },
    scoreTerms: {
      needs: 'positionCheck',
      draw: whenTrace(({ positionCheck: c }) => withNote(scoreTerms(c.trace, { head: c.head }), c.note), {
        note: null,
      }),
    },
    norms: { needs: 'checks', draw: whenTrace(({ trace }) => normBars(trace), { note: null }) },
  },
  /** @param {import('../chapters.js').ChapterParts} parts @returns {import('../chapters.js').BuiltChapter} */
  build({ slots, edit, state }) {
    const labControls = buildLabControls();
    // The lab's controls change its slice of the state; its buttons apply the d2l.ai preset or shuffle again.
    for (const form of [labControls.encoding, labControls.rotation, labControls.input]) {
      form.addEventListener('input', () => edit(labControls.read()));
      form.addEventListener('click', (event) => {
        const action = event.target.closest('button')?.dataset.action;
        if (action === 'd2l-preset') edit(D2L_PRESET);
        else if (action === 'shuffle') edit({ shuffleSeed: state().shuffleSeed + 1 });
      });
    }
    const lab = labSection(slots, labControls);
    lab.encoding.insertBefore(formula('positional'), lab.encoding.querySelector('p.intro').nextSibling);
    // P is drawn once: the lab's encoding, which is the sentence's P until its settings change.
    return {
      content: [lab.encoding, lab.relative, lab.attention],
      views: { positional: [lab.encoding], lab: [lab.relative, lab.attention] },
      figureControls: [labControls.encoding, labControls.rotation, labControls.input],
      // The token selects follow the sentence, synced after each trace while one of the chapter's figures is on screen
      // (rebuilding hundreds of options per keystroke off screen would cost the frame).
      syncRun: (current, run, wants) => {
        if (wants(Object.keys(positionsChapter.figures))) labControls.sync(current, run.tokens);
      },
    };
  },
};
