// What a trained model's figure shows while it has no data: the model loading (once per page), the reason it
// could not load, or a request for a sentence (trained-data.js readyModel()).
import { element } from '../../views/layout.js';

/**
 * A figure's draw function that draws `draw(data, state, env)` once its lens's data `key` has what `has` asks for,
 * and a note instead while the model loads, failed to, or has no sentence to read.
 * @param {(data: object, state: object, env: object) => HTMLElement} draw
 * @param {{ key?: string, has?: (data: object) => boolean }} [options]  the lens (default 'trained'); whether its data
 *   is there (default: a run)
 * @returns {(result: object, previous: object, state: object, env: object) => HTMLElement}
 */
export function whenTrained(draw, { key = 'trained', has = (data) => Boolean(data.run) } = {}) {
  return (result, previous, state, env) => {
    const data = result[key];
    if (has(data)) return draw(data, state, env);
    return element(
      'p',
      data.error ? 'status error' : 'empty-figure',
      data.error
        ? `The trained model could not be loaded: ${data.error}`
        : data.loading
          ? 'Loading the trained model (once; about 2 MB)…'
          : 'Type a sentence above: the model reads its words.',
    );
  };
}
