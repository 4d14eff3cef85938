// Chapter "Other lenses": the choices inside attention seen from outside — context moving a word's
// vector (through the designed heads, or a trained model's layers), how queries and keys become scores
// (d2l.ai §11.3), the normalizer as a point on the simplex (Martins & Astudillo 2016; Peters et al. 2019),
// attention as a soft lookup table (d2l.ai §11.1), cross-attention (Vaswani et al. 2017 §3.2.3) and what
// a layer costs (Table 1).
import { tour } from './tour.js';
import { costData, costInputs, costSection } from './cost-section.js';
import { element, section, textBox } from '../../views/layout.js';
import { setHidden, setText } from '../../views/dom-update.js';
import { LOOKUP_DEFAULTS, lookupData, lookupInputs, lookupSection } from './lookup-section.js';
import { COMPARISON, DEFAULT_TRANSLATION } from '../../settings/sentences.js';
import { traceOptions } from '../../settings/trace.js';
import { scoreCostInputs, scoreCosts } from './score-costs.js';
import { formula } from '../../views/formulas.js';
import { costPlot } from './cost-plot.js';
import { costTable } from './cost-table.js';
import { crossAttentionView } from './cross-attention.js';
import { lookupBars } from './lookup-bars.js';
import { projectionView } from './projection-view.js';
import { enableScoreDrag } from './score-drag.js';
import { scoreFunctionView } from './score-function.js';
import { buildSimplexControls } from './simplex-controls.js';
import { SCORE_RANGE, simplexData, simplexInputs } from './simplex-data.js';
import { simplexView } from './simplex-view.js';
import { contextData, contextInputs } from './trained-context.js';
import { contextTrainedView } from './trained-context-view.js';
import { modelEntry } from '../../models/registry.js';
import { whenTrace } from '../../models/run-figures.js';
import { trainedModels } from '../../models/trained-models.js';
import { designedHead } from '../../settings/head.js';
import { coreLimits, names } from '../../settings/limits.js';
import { defaultsOf } from '../../settings/schema.js';

export const lensesChapter = {
  id: 'lenses',
  title: 'Other lenses',
  takeaway:
    'Dot products, softmax and self-attention are choices: see what context does to a word, the other score functions ' +
    'and normalizers, attention as a soft dictionary lookup, cross-attention, and what a layer costs.',
  views: ['projection', 'score-function', 'simplex', 'lookup', 'cross', 'cost'],
  /** Its slice of the state: entries of the state schema (settings/schema.js). */
  settings: [
    // The simplex figure's three scores (drawn clamped to SCORE_RANGE), its τ, and whose level sets it draws.
    { name: 'simplexScores', type: 'numbers', default: [1, 0.5, -0.5], length: 3 },
    {
      name: 'simplexTemperature',
      type: 'number',
      default: 1,
      range: () => [coreLimits().minExplorerTemperature, coreLimits().maxExplorerTemperature],
    },
    { name: 'simplexLevelSets', type: 'name', default: 'softmax', names: () => names('normalizers') },
    // The target sentence of cross-attention (the source is `sentence`).
    { name: 'crossTarget', type: 'text', default: DEFAULT_TRANSLATION, attribute: 'target-sentence' },
    // The soft-lookup section's table, query, τ and similarity.
    { name: 'lookupKeys', type: 'texts', default: LOOKUP_DEFAULTS.lookupKeys },
    { name: 'lookupValues', type: 'texts', default: LOOKUP_DEFAULTS.lookupValues },
    { name: 'lookupQuery', type: 'text', default: LOOKUP_DEFAULTS.lookupQuery },
    {
      name: 'lookupTemperature',
      type: 'number',
      default: LOOKUP_DEFAULTS.lookupTemperature,
      range: () => [coreLimits().minLookupTemperature, coreLimits().maxLookupTemperature],
    },
    {
      name: 'lookupSimilarity',
      type: 'name',
      default: LOOKUP_DEFAULTS.lookupSimilarity,
      names: () => coreLimits().lookupSimilarities,
    },
    // The cost section's convolution kernel size k.
    { name: 'costKernel', type: 'integer', default: 3, range: () => [2, coreLimits().maxCostKernel] },
  ],
  /** Its slice's defaults (a fresh object). */
  state() {
    return defaultsOf(this.settings);
  },
  /**
   * Data its figures need beyond the trace (explorer/lens-data.js): computed while one of them is on
   * screen, and again only when its inputs change. inputs(state, trace, core) → JSON-able inputs;
   * compute(core, inputs) → the data; a lens with `kept` says a failure in its section's message and
   * keeps the last data that worked.
   */
  lenses: {
    // A trained model's states of one word in the comparison's two sentences (computed only while comparing with one chosen).
    contextStates: {
      inputs: (state, run, core) => contextInputs(state, trainedModels(core)),
      compute: (core, inputs) => contextData(core, trainedModels(core), inputs),
      kept: 'The figure shows the last sentences the model could read.',
    },
    scoreCosts: {
      inputs: (state, run, core) => scoreCostInputs(state, run.tokens.length, core.dModel),
      compute: scoreCosts,
    },
    simplex: { inputs: (state) => simplexInputs(state), compute: simplexData },
    lookup: {
      inputs: (state) => lookupInputs(state),
      compute: lookupData,
      kept: 'The figure shows the last table that worked.',
    },
    cross: {
      inputs: (state) => [state.sentence, state.crossTarget, traceOptions(state)],
      compute: (core, [source, target, options]) => core.explainCross(source, target, options),
    },
    cost: {
      inputs: (state, run, core) => costInputs(state, run.totalTokens, core.dModel),
      compute: costData,
      kept: 'The figures show the last sizes that worked.',
    },
  },
  /**
   * Its figures (see explorer/figures.js). `needs`: the result's key holding the lens's own data
   * (explorer/lens-data.js), computed only while the figure is on screen; `key`: what its draw reads (drawn from that
   * data alone: redrawn only when it is new).
   */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    projection: {
      needs: 'projection',
      draw: whenTrace(({ projected }, _, __, { last }) => projectionView(projected, last)),
    },
    contextTrained: { needs: 'contextStates', draw: ({ contextStates }) => contextTrainedView(contextStates) },
    scoreFunction: {
      needs: 'scoreCosts',
      key: ({ scoreCosts }) => [scoreCosts],
      draw: ({ scoreCosts }) => scoreFunctionView(scoreCosts),
    },
    simplex: {
      needs: 'simplex',
      key: ({ simplex }) => [simplex],
      draw: ({ simplex }) => simplexView(simplex, { range: SCORE_RANGE }),
    },
    lookup: {
      needs: 'lookup',
      key: ({ lookup }) => [lookup],
      draw: ({ lookup }) => (lookup.result ? lookupBars(lookup.result, lookup.options) : document.createElement('div')),
    },
    cross: {
      needs: 'cross',
      draw: ({ cross }, _, { head, numHeads, colorMap }, { last }) =>
        crossAttentionView(cross, { head: designedHead(head, numHeads), colorMap, last }),
    },
    costTable: { needs: 'cost', key: ({ cost }) => [cost], draw: ({ cost }) => costTable(cost.costs, cost.sizes) },
    costPlot: { needs: 'cost', key: ({ cost }) => [cost], draw: ({ cost }) => costPlot(cost.costs, cost.sizes) },
  },
  /** @param {import('../chapters.js').ChapterParts} parts @returns {import('../chapters.js').BuiltChapter} */
  build({ slots, core, edit, state, refresh }) {
    const models = trainedModels(core);
    models.onSettled(refresh);
    const simplexControls = buildSimplexControls();
    const compareButton = element('button', 'compare-button');
    compareButton.type = 'button';
    const target = textBox('Target sentence (e.g. a translation)', (value) =>
      edit({ crossTarget: value }, { typing: true }),
    );
    simplexControls.form.addEventListener('input', () => edit(simplexControls.read()));
    // A comparison is a view: it shows the two "bank" sentences with the settings that isolate context (no
    // positional encoding, identity projections; the section's text says so), and leaving it gives back
    // exactly the sentence and settings it replaced.
    let beforeComparison;
    compareButton.addEventListener('click', () => {
      if (state().compare) {
        edit({ compare: false, ...beforeComparison });
        beforeComparison = undefined;
        return;
      }
      const { sentence, positionalEncoding, projection, maskedPositions } = state();
      beforeComparison = { sentence, positionalEncoding, projection, maskedPositions };
      edit({
        compare: true,
        sentence: COMPARISON[0],
        compareSentence: COMPARISON[1],
        positionalEncoding: 'none',
        projection: 'identity',
        maskedPositions: [],
      });
    });
    // Dragging a bar of the simplex figure sets that score.
    enableScoreDrag(slots.simplex, SCORE_RANGE, (index, score) => {
      const scores = [...simplexInputs(state()).scores];
      scores[index] = score;
      edit({ simplexScores: scores });
    });
    const contextMessage = element('p', 'status error');
    contextMessage.setAttribute('role', 'alert');
    const context = section(
      'Context moves meaning',
      '',
      compareButton,
      contextMessage,
      slots.projection,
      slots.contextTrained,
    );
    const contextIntro = context.insertBefore(element('p', 'intro'), compareButton);
    const scores = section(
      'Score functions: how a query meets a key',
      'The selected score function (in More settings) for your sentence, ' + 'and what each one costs per head.',
      formula('attention'),
      slots.scoreFunction,
    );
    const simplex = section(
      'Normalizers: softmax is one choice',
      'Attention weights are the point p of the simplex (all weight vectors) that ' +
        'maximizes ⟨p, s⟩/τ − Ω(p): Shannon entropy for Ω gives softmax, the squared norm sparsemax, Tsallis entropy 1.5-entmax, ' +
        'no Ω hardmax. Here for three keys.',
      simplexControls.form,
      slots.simplex,
    );
    const lookup = lookupSection(core, edit, slots.lookup);
    const cross = section(
      'Cross-attention: the decoder reads the source',
      'In an encoder–decoder Transformer the target (a translation, say; here the sentence in the box below, which you ' +
        "can edit: it does not follow yours) first attends to itself causally, then its queries attend to the source's keys " +
        'and values. Your sentence above is the source.',
      target.parentElement,
      slots.cross,
    );
    const cost = costSection(edit, [slots.costTable, slots.costPlot]);
    return {
      content: [context, scores, simplex, lookup.element, cross, cost.element],
      views: {
        projection: [context],
        'score-function': [scores],
        simplex: [simplex],
        lookup: [lookup.element],
        cross: [cross],
        cost: [cost.element],
      },
      figureControls: [simplexControls.form, ...lookup.forms, ...cost.forms],
      sync: (current, context) => {
        for (const part of [lookup, cost]) part.sync(current, context);
        // Written only when they change (dom-update.js): this runs at every keystroke.
        setText(
          compareButton,
          current.compare ? 'Back to one sentence' : `Compare “bank”: “${COMPARISON[0]}” vs. “${COMPARISON[1]}”`,
        );
        // With a trained model, its own states of the word (its settings are its own); with the designed heads, theirs.
        const designed = modelEntry(current.model).can.designedControls;
        if (!designed) models.load(current.model);
        setHidden(slots.projection, !designed);
        setHidden(slots.contextTrained, designed);
        setText(
          contextIntro,
          designed
            ? 'The same word starts at the same point; attention pulls it toward its context. ' +
                'The comparison uses identity projections and no positional encoding, so the arrows show word-vector context alone; ' +
                'leaving it gives back your sentence and settings.'
            : 'The same word starts as the same vector in both sentences; each layer of the trained model mixes in its context. ' +
                'Leaving the comparison gives back your sentence and settings.',
        );
        if (compareButton.disabled !== context.readonly) compareButton.disabled = context.readonly;
        target.readOnly = context.readonly;
        // Never written back into the box while it is being typed in (it already shows the text).
        if (target.value !== current.crossTarget && target.getRootNode().activeElement !== target)
          target.value = current.crossTarget;
        if (!context.readonly) simplexControls.sync(simplexInputs(current));
      },
      messages: { lookup: lookup.message, cost: cost.message, contextStates: contextMessage },
    };
  },
};
