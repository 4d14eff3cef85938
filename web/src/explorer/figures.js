// Every figure of the explorer, gathered from the chapters (lessons/<chapter>/chapter.js): one record per
// figure, { draw, needs?, key?, withoutSentence? }. draw(result, previous Run, state, env) is a pure function of
// its arguments: result holds the update's Run (result.run: models/run.js), the designed heads' trace when they made it
// (result.trace, result.projected; else null) and the lenses' data; env (visible-figures.js environment) gives the theme's resolved text colours and the
// figure's own canvases, reused from draw to draw. needs: what the plain trace
// lacks — 'checks', 'block', 'projection' (parts of the trace the core computes only when asked), or the
// key of a lens's own data in the result (lens-data.js), or of data a chapter publishes on its own
// (published: true; visible-figures.js publish); key(result, state): the values its draw reads (compared with ===),
// so that it is drawn again only when one of them changed (a figure of the lab's data is not redrawn for a keystroke
// that leaves the number of words as it was); withoutSentence: it needs no sentence (the
// positional-encoding lab), so it is drawn while the sentence is empty; fit: the selector of its part that must
// show whole in an element of fixed height (env.room tells how much room there is: visible-figures.js fitInBox).
import { CHAPTERS } from '../lessons/chapters.js';

/**
 * @type {Record<string, { draw: Function, needs?: string, key?: (result: object, state: object) => unknown[],
 *   published?: boolean, withoutSentence?: boolean, fit?: string }>}
 */
export const FIGURES = Object.assign({}, ...CHAPTERS.map((chapter) => chapter.figures));

/** Whether a chapter shows anything while the sentence is empty: it reads none, or has figures that need none. */
export function drawsWithoutSentence(chapter) {
  return chapter.usesSentence === false || Object.values(chapter.figures).some((figure) => figure.withoutSentence);
}

/** Names of the figures whose data is `needs`. */
export function figuresNeeding(needs) {
  return Object.keys(FIGURES).filter((name) => FIGURES[name].needs === needs);
}

/** Whether a result has the data figure `name` draws from. */
export function hasDataFor(result, name) {
  const { needs } = FIGURES[name];
  if (!needs) return true;
  // The trace's parts, and the position checks' trace of their own (computed for the designed heads only): a trained
  // model's Run has no designed trace, and these figures say so (models/run-figures.js whenTrace) rather than wait.
  if (!result.trace && ['checks', 'block', 'projection', 'positionCheck'].includes(needs)) return true;
  if (needs === 'checks') return result.trace.positionChecks !== null;
  if (needs === 'block') return result.trace.block !== null;
  if (needs === 'projection') return result.projected.projection !== null;
  return result[needs] !== null && result[needs] !== undefined;
}
