// Which figures and controls an element shows, from its `views` and `controls` attributes.
import { setHidden } from '../views/dom-update.js';

/** Form controls of each name the `controls` attribute takes (a test checks they are the settings form's, each once). */
export const CONTROL_FIELDS = {
  heads: ['numHeads', 'head', 'headKind', 'offset'],
  projection: ['projection', 'seed'],
  mask: ['mask', 'validLength'],
  temperature: ['temperature'],
  'score-function': ['scoreFunction', 'additiveHidden'],
  normalizer: ['normalizer'],
  'positional-encoding': ['positionalEncoding'],
  'color-map': ['colorMap'],
};

/**
 * Shows the chosen views and controls, hides the rest (hidden figures are never drawn).
 * @param {{ views: Record<string, HTMLElement[]>, groups: HTMLElement[], controls: HTMLFormElement,
 *   sentence: HTMLElement[], modelChoice: HTMLElement, share: HTMLElement, figureControls: HTMLElement[] }} parts
 * @param {{ views: Set<string>, controls: Set<string> }} chosen
 */
export function showChosen(parts, { views, controls }) {
  for (const [name, elements] of Object.entries(parts.views))
    for (const el of elements) setHidden(el, !views.has(name));
  // A section whose every figure is hidden goes too.
  for (const group of parts.groups)
    setHidden(
      group,
      [...group.querySelectorAll('[data-view]')].every((el) => el.hidden),
    );
  for (const [name, fields] of Object.entries(CONTROL_FIELDS)) {
    for (const field of fields)
      setHidden(parts.controls.elements.namedItem(field).closest('.control'), !controls.has(name));
  }
  setHidden(
    parts.controls,
    Object.keys(CONTROL_FIELDS).every((name) => !controls.has(name)),
  );
  for (const el of parts.sentence) setHidden(el, !controls.has('sentence'));
  // The model choice comes with the trained models' own figure (a page of a few chosen figures keeps its room).
  setHidden(parts.modelChoice, !controls.has('model') || !views.has('predictions'));
  setHidden(parts.share, !controls.has('share'));
  for (const el of parts.figureControls) setHidden(el, !controls.has('figures'));
}
