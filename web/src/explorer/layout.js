// The explorer's page inside its shadow root: sections of figures, and which of them (and which
// controls) an element shows, from its `views` and `controls` attributes.

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** A titled section of the explorer (h2); a subsection (h3) is one inside the lab. */
export function section(title, intro, ...children) {
  return titled(2, title, intro, children);
}

export function subsection(title, intro, ...children) {
  return titled(3, title, intro, children);
}

function titled(level, title, intro, children) {
  const el = element('section');
  el.append(element(`h${level}`, '', title));
  if (intro) el.append(element('p', 'intro', intro));
  el.append(...children);
  return el;
}

/** A labelled text box (a textarea of `rows` rows, default 1: long text wraps and scrolls); onInput(value) on every edit. */
export function textBox(labelText, onInput, rows = 1) {
  const label = element('label', 'sentence-label', labelText);
  const box = label.appendChild(document.createElement('textarea'));
  box.rows = rows;
  box.spellcheck = false;
  box.addEventListener('input', () => onInput(box.value));
  return box;
}

export function row(...children) {
  const el = element('div', 'side-by-side');
  el.append(...children);
  return el;
}

/** Form controls of each name the `controls` attribute takes. */
const CONTROL_FIELDS = {
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
 *   sentence: HTMLElement[], share: HTMLElement, figureControls: HTMLElement[] }} parts
 * @param {{ views: Set<string>, controls: Set<string> }} chosen
 */
export function showChosen(parts, { views, controls }) {
  for (const [name, elements] of Object.entries(parts.views)) for (const el of elements) el.hidden = !views.has(name);
  // A section whose every figure is hidden goes too.
  for (const group of parts.groups) group.hidden = [...group.querySelectorAll('[data-view]')].every((el) => el.hidden);
  for (const [name, fields] of Object.entries(CONTROL_FIELDS)) {
    for (const field of fields) parts.controls.elements.namedItem(field).closest('.control').hidden = !controls.has(name);
  }
  parts.controls.hidden = Object.keys(CONTROL_FIELDS).every((name) => !controls.has(name));
  for (const el of parts.sentence) el.hidden = !controls.has('sentence');
  parts.share.hidden = !controls.has('share');
  for (const el of parts.figureControls) el.hidden = !controls.has('figures');
}
