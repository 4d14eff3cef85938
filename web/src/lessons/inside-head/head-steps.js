// Inside one head, for every model: the selected head followed step by step through its layer, drawn by the stepper
// (stepper.js) from the Run. The designed heads' steps come from their trace (pipeline.js: word vectors to the encoder
// block's output); a trained model's from its run's block (trained-steps.js: its learned weights and biases, then its
// output layer). One pill per head chooses which head to follow.
import { modelKindName } from '../../models/model-facts.js';
import { headCounts, headName } from '../../models/run.js';
import { setText } from '../../views/dom-update.js';
import { noOutputNote } from './output-steps.js';
import { designedSteps } from './pipeline.js';
import { stepper } from './stepper.js';
import { trainedSteps } from './trained-steps.js';

/** The Run's head `ref`. */
function headOf(run, ref) {
  return run.heads[ref.layer * headCounts(run).numHeads + ref.head];
}

/** What the figure follows, for its caption. */
function captionText(run, ref) {
  const name = headName(ref);
  const head = headOf(run, ref);
  if (!run.config) {
    return (
      `${name} of the designed heads (${head.label}) on your sentence: every step from the word vectors to the ` +
      "encoder block's output, as the core computes it. Hover a cell for its value and where it came from."
    );
  }
  const { config } = run;
  return (
    `${name} of the trained ${modelKindName(config)} (${config.numLayers} layers × ${config.numHeads} heads, ` +
    `d_model = ${config.dModel}, d_k = ${config.dK}) on your sentence: every value as the model computes it, with its ` +
    'learned weights and biases.'
  );
}

/** The line under the steps where there is no output layer to follow the head into. */
function outputNote(run) {
  if (run.can.outputLayer) return noOutputNote(run);
  const note = document.createElement('p');
  note.className = 'hint no-output';
  note.textContent =
    'The designed heads have no output layer: they predict no word. Choose a trained model to follow one to its logits.';
  return note;
}

/**
 * @param {import('../../models/run.js').Run} run  any model's Run with its block (the selected head followed through its
 *   layer); the designed heads' also with its trace
 * @param {{ step?: number, colorMap?: string }} options  the step shown (1-based, clamped), the weights' colour map
 * @param {HTMLElement} [last]  a figure this function returned before: when it follows the same head of the same model
 *   (a keystroke), it is updated in place and returned (stepper.js)
 * @returns {HTMLElement} <figure data-figure="head-steps" data-layer data-head data-model> (layer and head from 0),
 *   holding the head pills and the stepper (<div data-figure="pipeline" data-step data-steps data-layer data-head>); its
 *   buttons dispatch CustomEvent("choose", { detail: { step } | { head: { layer, head } }, bubbles })
 */
export function headSteps(run, { step = 1, colorMap = 'viridis' }, last) {
  const { layer, head } = run.block;
  const ref = { layer, head };
  const same =
    last?.dataset.figure === 'head-steps' &&
    last.dataset.layer === String(layer) &&
    last.dataset.head === String(head) &&
    last.dataset.model === run.model;
  const figure = same ? last : headPicker(run, ref);
  setText(figure.querySelector(':scope > figcaption'), captionText(run, ref));
  const all = run.trace ? designedSteps(run.trace, head) : trainedSteps(run);
  const whose = run.config ? ` of the trained ${modelKindName(run.config)}` : '';
  const name = `${headName(ref)}${whose} (${headOf(run, ref).label})`;
  const shown = figure.querySelector(':scope > [data-figure="pipeline"]') ?? undefined;
  const steps = stepper(all, { step, colorMap, name }, shown);
  Object.assign(steps.dataset, { layer: String(layer), head: String(head) });
  if (steps !== shown) {
    if (shown) shown.replaceWith(steps);
    else figure.querySelector(':scope > .head-picker').after(steps);
  }
  const note = outputNote(run),
    shownNote = figure.querySelector(':scope > .no-output');
  if (shownNote?.textContent !== note?.textContent) {
    shownNote?.remove();
    if (note) figure.append(note);
  }
  return figure;
}

/** The figure's caption (empty) and one pill per head, `ref` pressed. */
function headPicker(run, ref) {
  const figure = document.createElement('figure');
  figure.className = 'head-steps';
  Object.assign(figure.dataset, {
    figure: 'head-steps',
    layer: String(ref.layer),
    head: String(ref.head),
    model: run.model,
  });
  figure.append(document.createElement('figcaption'));
  const picker = figure.appendChild(document.createElement('div'));
  picker.className = 'head-picker';
  picker.setAttribute('role', 'group');
  picker.setAttribute('aria-label', 'Follow another head');
  const { numLayers, numHeads } = headCounts(run);
  for (let l = 0; l < numLayers; l++) {
    for (let h = 0; h < numHeads; h++) {
      const button = picker.appendChild(document.createElement('button'));
      button.type = 'button';
      button.textContent = headName({ layer: l, head: h });
      button.dataset.focusKey = `head-${l}-${h}`;
      button.setAttribute('aria-pressed', String(l === ref.layer && h === ref.head));
      button.addEventListener('click', () =>
        button.dispatchEvent(new CustomEvent('choose', { detail: { head: { layer: l, head: h } }, bubbles: true })),
      );
    }
  }
  return figure;
}
