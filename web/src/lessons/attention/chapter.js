// Chapter "Attention", the first screen: every head as a small multiple with what it does, the
// selected head's weights large, and the mix — the selected word's output built from the value
// vectors its row of weights picks (Vaswani et al. 2017 eq. 1). Below, who attends to whom as lines.
// With a trained model chosen (state.model), its learned heads on the sentence instead, each named by what
// it was measured to do, and its predictions.
import { tour } from './tour.js';
import { DESIGNED, coreLimits } from '../../settings/limits.js';
import { defaultsOf } from '../../settings/schema.js';
import { element, row } from '../../views/layout.js';
import { attentionHeatmap } from './attention-heatmap.js';
import { headGrid } from './head-grid.js';
import { buildLineControls } from './line-controls.js';
import { lineView } from './line-view.js';
import { designedMix, mixView, trainedMix } from './mix-view.js';
import { predictionsView } from './predictions-view.js';
import { predictionAt, trainedData, trainedInputs } from './trained-data.js';
import { trainedHeadGrid } from './trained-heads.js';
import { trainedModels } from './trained-models.js';
import { whenTrained } from './trained-placeholder.js';
import { trainedWeights } from './trained-weights.js';

/** The query the mix shows: the one hovered or pinned, else the third token (the default sentence's "bank"), clamped. */
function mixQuery(tokens, query) {
  return Math.max(0, Math.min(tokens.length - 1, query ?? 2));
}

export const attentionChapter = {
  id: 'attention',
  title: 'Attention',
  takeaway:
    'A word’s new vector is a mix of every word’s value vector, weighted by its row of the heatmap: hover or tap a row to see the mix.',
  views: ['heads', 'attention', 'mix', 'lines', 'predictions'],
  /** Its slice of the state: entries of the state schema (settings/schema.js). */
  settings: [
    // Heads drawn in the line view.
    { name: 'lineHeads', type: 'integers', default: [0], range: () => [0, coreLimits().maxHeads - 1] },
    // The pinned query: of the line view, and the mix's when nothing is hovered (null: none).
    { name: 'lineQuery', type: 'integer', default: null, nullable: true, range: () => [0, Infinity] },
    // Weights under it are not drawn as lines.
    { name: 'lineThreshold', type: 'number', default: 0.05, range: () => [0, 1] },
    // A trained model's selected head, layer-major (layer · heads + head): the decoder's previous-word head. One past
    // its last head selects the last.
    { name: 'trainedHead', type: 'integer', default: 1, range: () => [0, Infinity] },
  ],
  /** Its slice's defaults (a fresh object). */
  state() {
    return defaultsOf(this.settings);
  },
  /**
   * Data its figures need beyond the trace (explorer/lens-data.js): a trained model's run on the sentence, while one of
   * its figures is on screen.
   */
  lenses: {
    trained: {
      inputs: (state, trace, core) => trainedInputs(state, trace, trainedModels(core)),
      compute: (core, inputs) => trainedData(trainedModels(core), inputs),
      kept: 'The figures show the last sentence the model could read.',
    },
  },
  /** The line view draws heads that exist, and at least one (the selected head when none is left). */
  consistent(state) {
    const lineHeads = state.lineHeads.filter((h) => h < state.numHeads);
    return { ...state, lineHeads: lineHeads.length ? lineHeads : [state.head] };
  },
  /** Its figures (see explorer/figures.js): each a pure function of (result, previous trace, state, env). */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    heads: {
      draw: ({ trace }, _, { head, colorMap }, { canvas, last }) => headGrid(trace, { head, colorMap, canvas, last }),
    },
    attention: {
      // In a box of fixed height the weights' cells shrink so that all their rows show under what is above them.
      fit: '.heatmap-plot canvas',
      draw: ({ trace }, previous, { head, colorMap }, { canvas, height, room, last }) =>
        attentionHeatmap(trace, {
          head,
          previous,
          colorMap,
          cellBudget: height ? Math.max(120, room ?? height - 340) : undefined,
          canvas: canvas('weights'),
          last,
        }),
    },
    mix: {
      draw: ({ trace }, _, { head, lineQuery, focusQuery }, { colors, canvas, last }) =>
        mixView(designedMix(trace, head), {
          query: mixQuery(trace.tokens, focusQuery ?? lineQuery),
          colors,
          canvas,
          last,
        }),
    },
    lines: {
      draw: ({ trace }, _, { lineHeads, lineQuery, lineThreshold }) =>
        lineView(trace, {
          heads: lineHeads,
          query: lineQuery !== null && lineQuery < trace.tokens.length ? lineQuery : null,
          threshold: lineThreshold,
        }),
    },
    trainedHeads: {
      needs: 'trained',
      draw: whenTrained((trained, { trainedHead, colorMap }, { canvas, last }) =>
        trainedHeadGrid(trained, { selected: trainedHead, colorMap, canvas, last }),
      ),
    },
    trainedWeights: {
      needs: 'trained',
      fit: '.heatmap-plot canvas',
      draw: whenTrained((trained, { trainedHead, colorMap }, { canvas, height, room, last }) =>
        trainedWeights(trained, {
          selected: trainedHead,
          colorMap,
          cellBudget: height ? Math.max(120, room ?? height - 340) : undefined,
          canvas: canvas('weights'),
          last,
        }),
      ),
    },
    predictions: { needs: 'trained', draw: whenTrained((trained, { focus }) => predictionsView(trained, { focus })) },
    trainedMix: {
      needs: 'trained',
      draw: whenTrained((trained, { lineQuery, focusQuery }, { colors, canvas, last }) =>
        mixView(trainedMix(trained), {
          query: mixQuery(trained.run.tokens, focusQuery ?? lineQuery),
          colors,
          canvas,
          last,
        }),
      ),
    },
  },
  /** @param {import('../chapters.js').ChapterParts} parts @returns {import('../chapters.js').BuiltChapter} */
  build({ core, state, slots, edit, redraw, refresh }) {
    const models = trainedModels(core);
    models.onSettled(refresh);
    const lineControls = buildLineControls();
    lineControls.form.addEventListener('input', () => edit(lineControls.read()));
    // Hovering or tapping a row of the weights shows that word's mix; it is not state (nor in the URL).
    let focused = null;
    slots.attention.addEventListener('focus-query', (event) => {
      if (focused === event.detail.row) return;
      focused = event.detail.row;
      redraw('mix', { focusQuery: focused });
    });
    // Pointing at a row of a trained head's weights shows that word's mix, and for the decoder what it predicted there
    // (computed then: one position's output layer).
    let trainedFocused = null;
    slots.trainedWeights.addEventListener('focus-query', (event) => {
      if (trainedFocused === event.detail.row) return;
      trainedFocused = event.detail.row;
      redraw('trainedMix', { focusQuery: trainedFocused });
      const { model } = models.get('causal');
      const { sentence, model: kind } = state();
      if (kind !== 'causal' || !model || event.detail.row === null || event.detail.row === undefined) return;
      try {
        redraw('predictions', { focus: predictionAt(model, sentence, event.detail.row) });
      } catch {
        // A sentence the model cannot read (its section says why); the pointer changes nothing.
      }
    });
    // Another view of the same weights, drawn only when opened (it is the costliest figure to redraw).
    const linePanel = element('details', 'line-panel');
    linePanel.append(
      element('summary', '', 'Who attends to whom, as lines (several heads at once)'),
      lineControls.form,
      slots.lines,
    );
    const first = row(slots.heads, slots.attention, slots.mix);
    first.classList.add('first-screen');
    // A trained model's first screen: its heads, the selected one's weights, its predictions; then the selected word's mix.
    const trainedMessage = element('p', 'status error');
    trainedMessage.setAttribute('role', 'alert');
    const trained = row(slots.trainedHeads, slots.trainedWeights, slots.predictions);
    const trainedMixBox = element('div', 'trained-mix'); // under the first screen: the mix needs its width
    trainedMixBox.append(slots.trainedMix);
    const lines = element('div', 'line-panel-box'); // shown with the designed heads (the `views` attribute shows or hides linePanel)
    lines.append(linePanel);
    trained.classList.add('first-screen', 'trained-screen');
    return {
      content: [trainedMessage, first, trained, trainedMixBox, lines],
      views: {
        heads: [slots.heads, slots.trainedHeads],
        attention: [slots.attention, slots.trainedWeights],
        mix: [slots.mix, slots.trainedMix],
        lines: [linePanel],
        predictions: [slots.predictions],
      },
      figureControls: [lineControls.form],
      sync: (state, { readonly, open, views }) => {
        const designed = state.model === DESIGNED;
        if (!designed) models.load(state.model);
        else if (open === 'attention' && views?.has('predictions')) models.preload('causal'); // the choice's likeliest pick
        first.hidden = !designed;
        lines.hidden = !designed; // the lines draw the designed heads' weights
        trained.hidden = designed;
        trainedMixBox.hidden = designed;
        if (!readonly) lineControls.sync(state);
      },
      messages: { trained: trainedMessage },
    };
  },
};
