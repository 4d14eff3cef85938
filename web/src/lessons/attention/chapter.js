// Chapter "Attention", the first screen: every head as a small multiple with what it does, the
// selected head's weights large, and the mix — the selected word's output built from the value
// vectors its row of weights picks (Vaswani et al. 2017 eq. 1). Below, who attends to whom as lines.
// With a trained model chosen (state.model), its learned heads on the sentence instead, each named by what
// it was measured to do, and its predictions. Every figure reads the update's Run (models/run.js).
import { tour } from './tour.js';
import { measuredOn, measurementKey } from '../../models/attribution.js';
import { whenOutputLayer, whenReady } from '../../models/run-figures.js';
import { masksLaterWords, modelEntry, modelIdThat, modelRegistry } from '../../models/registry.js';
import { headCounts, resolveHead } from '../../models/run.js';
import { modelKindName } from '../../models/model-facts.js';
import { trainedModels } from '../../models/trained-models.js';
import { coreLimits, languageLimits } from '../../settings/limits.js';
import { defaultsOf } from '../../settings/schema.js';
import { headThumbs } from '../../views/head-thumbs.js';
import { element, row } from '../../views/layout.js';
import { attentionWeights } from './attention-weights.js';
import { whyThisWordView } from './head-effects.js';
import { logitLensView } from './logit-lens.js';
import { buildLineControls } from './line-controls.js';
import { headDetector } from './head-detector.js';
import { lineHeadsShown, lineView } from './line-view.js';
import { mixView, runMix } from './mix-view.js';
import { predictionsView } from './predictions-view.js';
import { buildSamplingControls } from './sampling-controls.js';
import { setHidden } from '../../views/dom-update.js';
import { readablePercent } from '../../views/probability-bars.js';

/** The query the mix shows: the one hovered or pinned, else the third token (the default sentence's "bank"), clamped. */
function mixQuery(tokens, query) {
  return Math.max(0, Math.min(tokens.length - 1, query ?? 2));
}

/** The trained heads' caption: how many, and how they are named. */
function trainedHeadsCaption(config) {
  if (!config.heads) {
    return (
      `The ${config.numLayers * config.numHeads} heads of the checkpoint (${config.numLayers} layers × ${config.numHeads}, ` +
      `d_k = ${config.dK}) on your sentence. Click a head to follow it; “switch off” knocks it out (its output ` +
      'becomes 0), and the predictions and later layers recompute without it.'
    );
  }
  return (
    `The ${config.numLayers * config.numHeads} learned heads (${config.numLayers} layers × ${config.numHeads}, d_k = ${config.dK}) on your sentence, ` +
    'each named by what it did on held-out text (the mean weight it puts there). Click a head to follow it; ' +
    '“switch off” knocks it out (its output becomes 0), and the predictions and later layers recompute without it.'
  );
}

export const attentionChapter = {
  id: 'attention',
  title: 'Attention',
  /** Under a causal mask a word mixes only the words it may see (Vaswani et al. 2017 §3.2.3): the sentence says so. */
  takeaway: (state) =>
    `A word’s new vector is a mix of the value vectors of ${
      masksLaterWords(state) ? 'itself and the words before it (the causal mask)' : 'every word'
    }, weighted by its row of the heatmap: hover or tap a row to see the mix.`,
  views: ['heads', 'attention', 'mix', 'lines', 'predictions'],
  /** Its slice of the state: entries of the state schema (settings/schema.js). */
  settings: [
    // Heads drawn in the line view.
    { name: 'lineHeads', type: 'integers', default: [0], range: () => [0, coreLimits().maxHeads - 1] },
    // The pinned query: of the line view, and the mix's when nothing is hovered (null: none).
    { name: 'lineQuery', type: 'integer', default: null, nullable: true, range: () => [0, Infinity] },
    // Weights under it are not drawn as lines.
    { name: 'lineThreshold', type: 'number', default: 0.05, range: () => [0, 1] },
    // Sampling a trained model's next word (cpp/include/attn/train/sampling.hpp): the output softmax's temperature
    // (not the attention temperature), top-k (0: every word) and the seed of the next Generate (it advances after each).
    {
      name: 'outputTemperature',
      type: 'number',
      default: 1,
      range: () => [languageLimits().minOutputTemperature, languageLimits().maxOutputTemperature],
    },
    { name: 'topK', type: 'integer', default: 0, range: () => [0, languageLimits().maxSampleTopK] },
    { name: 'sampleSeed', type: 'integer', default: 0, range: () => [0, languageLimits().maxSampleSeed] },
  ],
  /** Its slice's defaults (a fresh object). */
  state() {
    return defaultsOf(this.settings);
  },
  /** Its figures (see explorer/figures.js): each a pure function of (result, previous Run, state, env). */
  /** Its steps of the guided tour (tour.js). */
  tour,
  figures: {
    // Every model's heads: a trained model's with their measured labels and knockout switches.
    heads: {
      draw: whenReady((run, { head, colorMap }, { canvas, last }) =>
        headThumbs(run, {
          selected: resolveHead(headCounts(run), head),
          colorMap,
          canvas,
          last,
          caption: run.config ? trainedHeadsCaption(run.config) : null,
          knockout: run.can.outputLayer ? run.knockout : undefined,
        }),
      ),
    },
    // Every model's selected head, large.
    attention: {
      // In a box of fixed height the weights' cells shrink so that all their rows show under what is above them.
      fit: '.heatmap-plot canvas',
      draw: whenReady((run, { head, colorMap }, { canvas, height, room, last }, previous) =>
        attentionWeights(run, {
          selected: head,
          previous,
          colorMap,
          cellBudget: height ? Math.max(120, room ?? height - 340) : undefined,
          canvas: canvas('weights'),
          last,
        }),
      ),
    },
    // Every model's: the selected head's block (a trained model's once its run followed that head through its layer).
    mix: {
      draw: whenReady(
        (run, { lineQuery, focusQuery }, { colors, canvas, last }) =>
          mixView(runMix(run), { query: mixQuery(run.tokens, focusQuery ?? lineQuery), colors, canvas, last }),
        { has: (run) => Boolean(run.block) },
      ),
    },
    // Every model's heads as lines: those chosen that it has, else its selected head.
    lines: {
      draw: whenReady((run, { head, lineHeads, lineQuery, lineThreshold }) =>
        lineView(run, {
          heads: lineHeadsShown(run, lineHeads, head),
          query: lineQuery !== null && lineQuery < run.tokens.length ? lineQuery : null,
          threshold: lineThreshold,
        }),
      ),
    },
    predictions: {
      draw: whenOutputLayer((run, { focus, outputTemperature, topK }, { last }) =>
        predictionsView(run, { focus, outputTemperature, topK }, last),
      ),
    },
    // Why this word: measured when the learner points at or chooses a predicted word (build below), not per keystroke.
    whyThisWord: {
      draw: whenOutputLayer((run, { why, measuring }, { last }) =>
        whyThisWordView(
          run,
          { why: measuredOn(why, run) ? why : null, measuring: measuredOn(measuring, run) ? measuring : null },
          last,
        ),
      ),
    },
    // A checkpoint's logit lens: read when the learner asks (build below), drawn as unread, read or stale.
    logitLens: {
      draw: whenOutputLayer((run, { lens = null, lensText = null }) =>
        run.ask?.logitLens
          ? logitLensView(run, { lens, text: lensText })
          : element('p', 'empty-figure', 'The logit lens reads a GPT-2 checkpoint’s layers.'),
      ),
    },
    // A trained model's heads on repeated random words: the model's, not the sentence's, so drawn again only for another
    // model or selected head.
    headDetector: {
      key: ({ run }, { head }) => [
        run.model,
        run.status,
        run.tokens.length > 0,
        run.labelThreshold,
        head.layer,
        head.head,
      ],
      draw: whenOutputLayer((run, { head }) =>
        headDetector(run.ask.repeatedWords(), {
          threshold: run.labelThreshold,
          selected: resolveHead(headCounts(run), head),
          model: modelKindName(run.config),
        }),
      ),
    },
  },
  /** @param {import('../chapters.js').ChapterParts} parts @returns {import('../chapters.js').BuiltChapter} */
  build({ core, state, slots, edit, redraw }) {
    const models = trainedModels(core);
    const lineControls = buildLineControls();
    lineControls.form.addEventListener('input', () => edit(lineControls.read()));
    // Hovering or tapping a row of the weights shows that word's mix (it is not state, nor in the URL), and for a model
    // that writes the next word what it predicted there (computed then: one position's output layer).
    let shownRun = null; // the Run on screen (syncRun): what the pointer and the buttons measure on
    let focused = null;
    slots.attention.addEventListener('focus-query', (event) => {
      if (focused === event.detail.row) return;
      focused = event.detail.row;
      redraw('mix', { focusQuery: focused });
      if (!shownRun?.can.generate || !shownRun.ask) return;
      // The pointer left the weights: the panel shows the next word after the sentence again.
      if (event.detail.row === null || event.detail.row === undefined) return redraw('predictions', { focus: null });
      try {
        const sampling = { temperature: state().outputTemperature, topK: state().topK };
        redraw('predictions', { focus: shownRun.ask.predictionAt(event.detail.row, sampling) });
      } catch {
        // A sentence the model cannot read (its section says why); the pointer changes nothing.
      }
    });
    // Why this word: pointing at (or clicking) a predicted word, or choosing one in the figure, measures it on the Run on
    // screen (L·H + T forward passes); the same word again measures nothing. Our models' passes take milliseconds, so
    // pointing measures; a checkpoint's take seconds in all, so only a click or a button does, and its passes run one
    // per task (the page paints and takes keys between them), given up when the sentence or the word changes.
    let measured = null;
    let measuring = null; // the measurement under way: { text, knockoutKey, position, word }
    const explainWord = (position, word, { pointed = false } = {}) => {
      const run = shownRun;
      if (!run || run.status !== 'ready' || !run.text || !Number.isInteger(position) || !word) return;
      if (measuredOn(measured, run) && measured.position === position && measured.word === word) return;
      if (measuredOn(measuring, run) && measuring.position === position && measuring.word === word) return;
      if (!run.ask?.attribute || (pointed && !run.can.ourModel)) return;
      const job = { ...measurementKey(run), position, word };
      const passes = run.ask.attribute({ position, word });
      measuring = job;
      const step = () => {
        if (measuring !== job) return; // another word or another sentence since
        let next;
        try {
          next = passes.next();
        } catch {
          measuring = null; // a word or position the model does not have: nothing to show
          redraw('whyThisWord', { measuring: null });
          return;
        }
        if (next.done) {
          measuring = null;
          measured = next.value;
          redraw('whyThisWord', { why: measured, measuring: null });
          return;
        }
        redraw('whyThisWord', { measuring: { ...job, ...next.value } });
        setTimeout(step, 0);
      };
      step();
    };
    // A redraw under a pointer at rest (a keystroke) makes the browser send pointerover again at the same place: that
    // is no pointing, and must not measure per keystroke.
    let pointedAt = null;
    const fromPrediction = (event) => {
      if (event.type === 'pointerover') {
        const at = `${event.clientX},${event.clientY}`;
        if (at === pointedAt) return;
        pointedAt = at;
      }
      const item = event.target.closest?.('li[data-word]');
      const at = item?.closest('section[data-position]');
      if (item && at)
        explainWord(Number(at.dataset.position), item.dataset.word, { pointed: event.type === 'pointerover' });
    };
    slots.predictions.addEventListener('pointerover', fromPrediction);
    slots.predictions.addEventListener('click', fromPrediction);
    slots.whyThisWord.addEventListener('why-word', (event) => explainWord(event.detail.position, event.detail.word));
    // Sampling: the bars follow the output temperature and top-k; Generate appends a sampled word (the seed advances).
    const sampling = buildSamplingControls();
    sampling.form.addEventListener('input', () => edit(sampling.read()));
    let saidFor = null; // the sentence the Generate line speaks of: it goes when the learner types another
    sampling.generate.addEventListener('click', () => {
      if (!shownRun?.can.generate || !shownRun.ask) return;
      try {
        const made = shownRun.ask.generate(state());
        sampling.said.value = `Generated “${made.word}” (p = ${readablePercent(made.p)} in the distribution it was drawn from).`;
        saidFor = made.change.sentence;
        edit(made.change);
      } catch (error) {
        sampling.said.value = error.message; // a sentence the model cannot read: the figures keep their last state
      }
    });
    const predictionsBox = element('div', 'predictions-box');
    predictionsBox.append(slots.predictions, sampling.form);
    // Another view of the same weights, drawn only when opened (it is the costliest figure to redraw).
    const linePanel = element('details', 'line-panel');
    linePanel.append(
      element('summary', '', 'Who attends to whom, as lines (several heads at once)'),
      lineControls.form,
      slots.lines,
    );
    const first = row(slots.heads, slots.attention, slots.mix);
    first.classList.add('first-screen');
    // Knockout switches heads of the trained models off (state.knockout); the designed heads are not switched off.
    const knockoutNote = element(
      'p',
      'hint head-grid-note',
      'Switching heads off (knockout) is for the trained models: choose the decoder or the encoder under Model.',
    );
    // A trained model's first screen: its heads, the selected one's weights, its predictions; then the selected word's mix.
    // "Why this word?" in the same row, under the heads and the weights, beside the predictions' column (trained.css): its
    // head bars and word chips need their width, and a row of its own left a band empty above it wherever the
    // predictions with their notes and sampling controls ran down past the weights.
    const whyBox = element('div', 'why-box');
    whyBox.append(slots.whyThisWord);
    const trained = row(predictionsBox, whyBox);
    // A model with an output layer shows its predictions beside its weights, and its mix under the first screen (it
    // needs the width); the designed heads show the mix there. One mix figure, moved between the two places.
    const trainedMixBox = element('div', 'trained-mix');
    const detectorBox = element('div', 'detector-box'); // a trained model's heads on repeated words, under its mix
    detectorBox.append(slots.headDetector);
    const lensBox = element('div', 'lens-box'); // a checkpoint's logit lens, read on request
    lensBox.append(slots.logitLens);
    slots.logitLens.addEventListener('read-lens', () => {
      if (!shownRun?.ask?.logitLens) return;
      try {
        redraw('logitLens', { lens: shownRun.ask.logitLens(), lensText: shownRun.text });
      } catch {
        // a sentence the model cannot read: its figures say why
      }
    });
    const lines = element('div', 'line-panel-box'); // every model's (the `views` attribute shows or hides linePanel)
    lines.append(linePanel);
    trained.classList.add('first-screen', 'trained-screen');
    return {
      content: [first, knockoutNote, trained, trainedMixBox, detectorBox, lensBox, lines],
      views: {
        heads: [slots.heads, detectorBox, lensBox],
        attention: [slots.attention],
        mix: [slots.mix],
        lines: [linePanel],
        predictions: [predictionsBox, slots.whyThisWord],
      },
      figureControls: [lineControls.form, sampling.form],
      syncRun: (current, run) => {
        shownRun = run;
        if (measuring && !measuredOn(measuring, run)) measuring = null; // its sentence, or its heads off, are gone
        setHidden(lensBox, !run.ask?.logitLens); // a checkpoint's figure
        lineControls.sync(current, run);
        if (saidFor !== null && current.sentence !== saidFor) {
          sampling.said.value = '';
          saidFor = null;
        }
      },
      sync: (state, { readonly, open, views }) => {
        const designed = modelEntry(state.model).can.designedControls;
        // The choice's likeliest pick, loaded while the page is idle: from the designed heads a model that writes the next
        // word; from a trained model, the other trained ones (a learner compares them).
        if (open === 'attention' && views?.has('predictions')) {
          const next = designed
            ? [modelIdThat('generate')]
            : modelRegistry()
                .filter((m) => m.can.ourModel && m.id !== state.model)
                .map((m) => m.id);
          for (const id of next) models.preload(id);
        }
        setHidden(first, !designed);
        setHidden(knockoutNote, !designed);
        setHidden(trained, designed);
        // One heads figure and one mix for every model, moved to where this model's first screen has them.
        const home = designed ? first : trained;
        if (slots.attention.parentElement !== home) home.prepend(slots.heads, slots.attention);
        const mixHome = designed ? first : trainedMixBox;
        if (slots.mix.parentElement !== mixHome) mixHome.append(slots.mix);
        setHidden(trainedMixBox, designed);
        setHidden(detectorBox, designed);
        setHidden(whyBox, designed);
        if (!readonly) sampling.sync(state);
      },
    };
  },
};
