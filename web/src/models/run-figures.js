// What a figure shows when the Run on screen is not the one it draws: a trained model's figure while the
// model loads, failed to load, or has no sentence; a figure of the designed heads' trace (the stepper's
// designed steps, the position checks, the 2-D projection) while a trained model is shown.
import { element } from '../views/layout.js';

/** MB, as the progress note says them. */
const megabytes = (bytes) => (bytes / 1e6).toFixed(0);

/**
 * What a figure says while its Run has no attention to draw: the model loads (a checkpoint with its progress: the
 * bytes as they arrive, then the values as they go into the core), failed to load, or has no sentence.
 */
function waitingNote(run) {
  if (run.status === 'loading' && run.progress) {
    const { stage, loaded, total } = run.progress;
    const note = element('p', 'empty-figure');
    const bar = element('progress');
    if (Number.isFinite(total) && total > 0) Object.assign(bar, { max: total, value: loaded });
    bar.setAttribute('aria-label', 'Loading the checkpoint');
    const said =
      stage === 'fetch'
        ? `Fetching the checkpoint: ${megabytes(loaded)}${Number.isFinite(total) ? ` of ${megabytes(total)}` : ''} MB…`
        : `Putting its weights into the core: ${Math.round((100 * loaded) / total)} %…`;
    note.append(bar, ` ${said}`);
    return note;
  }
  return element(
    'p',
    run.status === 'error' ? 'status error' : 'empty-figure',
    run.status === 'error'
      ? `The model could not be loaded: ${run.error}`
      : run.status === 'loading'
        ? run.can?.ourModel === false
          ? 'Loading the checkpoint…'
          : 'Loading the trained model (once; about 2 MB)…'
        : 'Type a sentence above: the model reads its words.',
  );
}

/**
 * A figure's draw function for every model: draws `draw(run, state, env, previous)` once the update's Run has
 * attention (and what `has` asks for), and a note instead while a model loads, failed to, or has no sentence to read.
 * @param {(run: import('./run.js').Run, state: object, env: object, previous: import('./run.js').Run | null) =>
 *   HTMLElement} draw  previous: the Run of the update before
 * @param {{ has?: (run: import('./run.js').Run) => boolean }} [options]  whether the run holds what it draws
 * @returns {(result: { run: import('./run.js').Run }, previous: object, state: object, env: object) => HTMLElement}
 */
export function whenReady(draw, { has = () => true } = {}) {
  return ({ run }, previous, state, env) =>
    run.status === 'ready' && run.tokens.length > 0 && has(run) ? draw(run, state, env, previous) : waitingNote(run);
}

/**
 * As whenReady, for a figure of what only a model with an output layer has (its predictions, "Why this word?"): with
 * the designed heads it says where to find it.
 * @param {(run: import('./run.js').Run, state: object, env: object) => HTMLElement} draw
 * @param {{ has?: (run: import('./run.js').Run) => boolean }} [options]
 */
export function whenOutputLayer(draw, options) {
  const ready = whenReady(draw, options);
  return (result, previous, state, env) =>
    result.run.can?.outputLayer === false
      ? element(
          'p',
          'empty-figure',
          'This model has no output layer: choose a trained model above to see its predictions.',
        )
      : ready(result, previous, state, env);
}

/** What a figure of the designed heads' trace says while a trained model is shown, unless told otherwise. */
export const TRACE_NOTE = 'This figure follows the designed heads: choose “designed heads” above to see it.';

/**
 * A figure's draw function that draws from the designed heads' trace, and says where to find it while a trained model
 * is shown (its run has no such trace).
 * @param {(result: object, previous: object, state: object, env: object) => HTMLElement} draw
 * @param {{ note?: string | null }} [options]  what it says instead (default TRACE_NOTE); null: nothing, for a figure
 *   beside another that says it for both (a note repeated under each figure of a section reads as noise)
 */
export function whenTrace(draw, { note = TRACE_NOTE } = {}) {
  return (result, previous, state, env) => {
    if (result.trace) return draw(result, previous, state, env);
    const said = element('p', 'empty-figure', note ?? '');
    said.hidden = note === null;
    return said;
  };
}
