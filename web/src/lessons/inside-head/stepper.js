// A stepper: a list of steps (matrices with their formulas), the current one large with its formula and shape, its
// previous and next steps beside it as thumbnails, and a numbered list of them all. The designed head's steps
// (pipeline.js) and a trained model's block (trained-steps.js) are drawn by it.
import { divergingColor, maxAbs, roundedLimit, weightColorMap } from '../../views/colors.js';
import { math } from '../../views/formulas.js';
import { cellCanvas } from '../../views/cell-canvas.js';
import { setAttr, setAttrs, setText } from '../../views/dom-update.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';
import { element } from '../../views/layout.js';

// Beside the step shown, its two neighbours (inside-head.css .step-neighbour: 9rem and a 1rem gap each, at 16 px a rem)
// where the explorer is wider than NEIGHBOURS_BESIDE_FROM_PX (layout.css puts them under it below that); the card's
// padding, the row labels and the last column's turned label take STEP_FRAME_PX more.
const NEIGHBOURS_PX = 2 * (9 + 1) * 16;
const NEIGHBOURS_BESIDE_FROM_PX = 900;
const STEP_FRAME_PX = 180;
const MAX_STEP_CELLS_PX = 560;

/**
 * Pixels for a step's columns in a window `width` pixels wide: what the neighbours and the card's frame leave.
 * @param {number} width  @returns {number}  at least 120, at most MAX_STEP_CELLS_PX
 */
export function stepWidthBudget(width) {
  const neighbours = width > NEIGHBOURS_BESIDE_FROM_PX ? NEIGHBOURS_PX : 0;
  return Math.max(120, Math.min(MAX_STEP_CELLS_PX, width - STEP_FRAME_PX - neighbours));
}

/**
 * A weight-like step's colours: [0, 1] (attention weights), or [0, step.weightMax] where a step's values are all small
 * (the 20 largest of 8,192 probabilities), so that one colour map still tells them apart.
 */
function weightColors(step, weightColor) {
  if (!step.weightMax) return { color: weightColor, domain: [0, 1] };
  const domain = [0, step.weightMax];
  return { color: weightColor.copy().domain(domain), domain };
}

/** One step's heatmap; `weightColor` colours the attention-weight step, the others are diverging; `budget`: [width, height] pixels. */
function stepHeatmap(step, index, weightColor, [widthBudget, heightBudget], last) {
  const [rows, cols] = step.tensor.shape;
  const limit = roundedLimit(step.limit ?? maxAbs(step.tensor.data));
  const weights = weightColors(step, weightColor);
  return heatmap(
    {
      name: `step-${index + 1}`,
      caption: step.shapeNote ? `[${rows}, ${cols}]; ${step.shapeNote}` : `[${rows}, ${cols}]`,
      colGroups: step.colGroups,
      values: step.tensor.data,
      rows,
      cols,
      rowLabels: step.rowLabels,
      colLabels: step.cols,
      rowTitle: 'token ↓',
      colTitle: step.colTitle,
      color: step.weights ? weights.color : divergingColor(limit),
      domain: step.weights ? weights.domain : [-limit, limit],
      legendTitle: step.legendTitle ?? (step.weights ? 'weight' : 'value'),
      // Whole pixels while a column gets at least one; narrower (400 feed-forward units on a phone), a fraction, so it fits.
      cellWidth: widthBudget >= cols ? Math.min(36, Math.floor(widthBudget / Math.max(cols, 1))) : widthBudget / cols,
      cellHeight: tokenBandPx(rows, heightBudget, 28),
      isMasked: step.isMasked,
      rowNotes: step.notes,
      rowNotesTitle: step.notes ? 'entropy' : undefined,
      describe: step.describe,
    },
    last,
  );
}

/**
 * A step's figure: its own (`figure()`, with its shape as a caption), else its matrix as a heatmap, followed by what
 * `extra()` draws (the logits' histogram). `last`: the figure shown for this step before, whose heatmap is updated in
 * place (its own figure and its extra are drawn anew).
 */
function stepFigure(step, index, weightColor, last) {
  if (!step.figure) {
    const drawn = stepHeatmap(step, index, weightColor, [stepWidthBudget(window.innerWidth), 360], last);
    drawn.querySelector(':scope > .step-extra')?.remove();
    if (step.extra) {
      const extra = drawn.appendChild(step.extra());
      extra.classList.add('step-extra');
    }
    return drawn;
  }
  const box = document.createElement('figure');
  box.className = 'step-figure';
  box.dataset.figure = `step-${index + 1}`;
  const [rows, cols] = step.tensor.shape;
  box.append(step.figure());
  box.appendChild(document.createElement('figcaption')).textContent = step.shapeNote
    ? `[${rows}, ${cols}]; ${step.shapeNote}`
    : `[${rows}, ${cols}]`;
  return box;
}

/** A button that moves to step `index` (0-based): dispatches CustomEvent("choose", { detail: { step: index + 1 }, bubbles }). */
function stepButton(className, index, content, label) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = className;
  button.dataset.step = String(index + 1);
  button.setAttribute('aria-label', label);
  button.append(...content);
  button.addEventListener('click', () =>
    button.dispatchEvent(new CustomEvent('choose', { detail: { step: index + 1 }, bubbles: true })),
  );
  return button;
}

/** Previous or next step: its title and a thumbnail of its matrix; `last`, the button shown there before, is updated. */
function neighbour(step, index, weightColor, direction, last) {
  const [rows, cols] = step.tensor.shape;
  const limit = step.limit ?? maxAbs(step.tensor.data);
  const weights = weightColors(step, weightColor);
  const thumb = cellCanvas({
    rows,
    cols,
    values: step.tensor.data,
    color: step.weights ? weights.color : divergingColor(limit),
    domain: step.weights ? weights.domain : [-limit, limit],
    isMasked: step.isMasked,
    cellWidth: Math.max(0.5, Math.min(10, 110 / Math.max(cols, 1))),
    cellHeight: Math.max(1, Math.min(10, 80 / Math.max(rows, 1))),
    canvas: last?.querySelector('canvas') ?? undefined,
  });
  const text = `${direction === 'previous' ? '← ' : ''}${index + 1}. ${step.title}${direction === 'next' ? ' →' : ''}`;
  const label = `${direction === 'previous' ? 'Previous' : 'Next'} step: ${index + 1}. ${step.title}`;
  if (last) {
    setText(last.firstChild, text);
    setAttr(last, 'aria-label', label);
    return last;
  }
  const button = stepButton(`step-neighbour step-${direction}`, index, [element('span', '', text), thumb], label);
  button.dataset.focusKey = `step-${direction}`;
  return button;
}

/**
 * Steps as a stepper: a numbered list of every step, the current step large with its formula and shape, and its
 * previous and next steps beside it.
 * @param {{ title: string, tex: string, tensor: { data: Float32Array, shape: [number, number] }, rowLabels: string[],
 *   cols: string[], colTitle: string, describe: Function, weights?: boolean, weightMax?: number, legendTitle?: string,
 *   isMasked?: Function, limit?: number,
 *   shapeNote?: string, colGroups?: object[], notes?: string[], figure?: () => HTMLElement, extra?: () => Element }[]} all
 *   the steps, in order (at least one); figure: drawn instead of the heatmap (the tensor still gives the neighbours'
 *   thumbnails); extra: drawn under the heatmap; weightMax: a weight-like step's colours span [0, weightMax], not [0, 1]
 * @param {{ step?: number, colorMap?: 'viridis' | 'cividis', name: string, id?: string }} options  the step shown, 1-based
 *   (clamped); the attention weights' colour map; what the steps are of, for the step list's accessible name ("head 2 (…)");
 *   the prefix of its elements' ids (default 'pipeline'), so that two steppers in one page do not share ids
 * @param {HTMLElement} [last]  a stepper this function returned before: when it shows the same step of as many steps (a
 *   keystroke), it is updated in place and returned: its matrices, titles and labels rewritten, nothing rebuilt but the
 *   step's own figure or histogram where it has one
 * @returns {HTMLElement} <div data-figure="pipeline" data-step data-steps>; its buttons dispatch
 *   CustomEvent("choose", { detail: { step } (1-based), bubbles })
 */
export function stepper(all, { step = 1, colorMap = 'viridis', name, id = 'pipeline' }, last) {
  const current = Math.max(0, Math.min(all.length - 1, Math.round(step) - 1));
  const weightColor = weightColorMap(colorMap);
  const shown = last?.dataset.figure === 'pipeline' && last.querySelector(`:scope > .step-row > #${id}-panel`);
  if (shown && last.dataset.steps === String(all.length) && last.dataset.step === String(current + 1)) {
    updateStepper(last, all, current, weightColor, name);
    return last;
  }
  const root = document.createElement('div');
  root.className = 'pipeline';
  root.dataset.figure = 'pipeline';
  root.dataset.step = String(current + 1);
  root.dataset.steps = String(all.length);

  // The stepper is a tab list over one panel, the step shown (WAI-ARIA Authoring Practices, "Tabs",
  // automatic activation): only the selected tab is in the tab order, and the arrow keys, Home and End
  // move to another step. Each control has a data-focus-key so that focus survives the redraw
  // (explorer/keep-focus.js).
  const nav = root.appendChild(document.createElement('div'));
  nav.className = 'stepper';
  nav.setAttribute('role', 'tablist');
  nav.setAttribute('aria-label', `The ${all.length} steps of ${name}`);
  const tabs = all.map((s, i) => {
    const button = nav.appendChild(
      stepButton(i === current ? 'step-number current' : 'step-number', i, [String(i + 1)], `${i + 1}. ${s.title}`),
    );
    button.title = `${i + 1}. ${s.title}`;
    button.id = `${id}-tab-${i + 1}`;
    button.dataset.focusKey = `step-tab-${i + 1}`;
    button.setAttribute('role', 'tab');
    button.setAttribute('aria-selected', String(i === current));
    button.setAttribute('aria-controls', `${id}-panel`);
    button.tabIndex = i === current ? 0 : -1;
    if (i === current) button.dataset.focusFallback = '';
    return button;
  });
  nav.addEventListener('keydown', (event) => {
    const at = tabs.indexOf(event.target);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (at < 0 || to === undefined) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    next.focus(); // before the redraw, so that the new tab list focuses this step's tab
    next.click();
  });

  const row = root.appendChild(document.createElement('div'));
  row.className = 'step-row';
  if (current > 0) row.append(neighbour(all[current - 1], current - 1, weightColor, 'previous'));
  const card = row.appendChild(document.createElement('section'));
  card.className = 'step';
  card.id = `${id}-panel`;
  card.setAttribute('role', 'tabpanel');
  card.setAttribute('aria-labelledby', `${id}-tab-${current + 1}`);
  const title = card.appendChild(document.createElement('h3'));
  title.textContent = `${current + 1}. ${all[current].title}`;
  card.append(stepFormula(all[current].tex), stepFigure(all[current], current, weightColor));
  if (current < all.length - 1) row.append(neighbour(all[current + 1], current + 1, weightColor, 'next'));
  return root;
}

/** The TeX each step's formula element was typeset from (typesetting anew only when it changed). */
const texOf = new WeakMap();

function stepFormula(tex) {
  const typeset = math(tex, { display: true });
  texOf.set(typeset, tex);
  return typeset;
}

/** A stepper shown again at the same step, for new steps (another sentence): everything that changed, in place. */
function updateStepper(root, all, current, weightColor, name) {
  const [nav, row] = root.children;
  setAttr(nav, 'aria-label', `The ${all.length} steps of ${name}`);
  all.forEach((s, i) => {
    setAttrs(nav.children[i], { title: `${i + 1}. ${s.title}`, 'aria-label': `${i + 1}. ${s.title}` });
  });
  for (const [direction, index] of [
    ['previous', current - 1],
    ['next', current + 1],
  ]) {
    const button = row.querySelector(`:scope > .step-${direction}`);
    if (button) neighbour(all[index], index, weightColor, direction, button);
  }
  const card = row.querySelector(':scope > .step');
  const [title, formula, figure] = card.children;
  setText(title, `${current + 1}. ${all[current].title}`);
  if (texOf.get(formula) !== all[current].tex) formula.replaceWith(stepFormula(all[current].tex));
  const drawn = stepFigure(all[current], current, weightColor, all[current].figure ? undefined : figure);
  if (drawn !== figure) figure.replaceWith(drawn);
}
