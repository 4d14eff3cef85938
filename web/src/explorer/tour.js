// The guided tour's panel: "Step k of N", the step's title and text, Previous / Next and a close
// button, docked at the bottom of the explorer while its figures scroll. Keys while focus is in the
// panel: ← / PageUp previous, → / PageDown next, Escape closes. The panel only reports what the
// learner asks for; the element applies the step (tour-steps.js) and keeps the panel in sync.
import { chapterOfView } from '../lessons/chapters.js';
import { setAttr, setHidden, setText } from '../views/dom-update.js';
import { element } from '../views/layout.js';

/** State the tour leaves as the learner set it: preferences, not concepts. */
const KEPT = ['colorMap'];

/**
 * The whole state a step shows: the explorer's defaults, the learner's preferences, model and sentence, then the step.
 * The tour shows each concept on the model and the sentence the learner chose (a trained model, and its selected head,
 * stay); a step about the designed heads' settings says so on a trained model (tour-steps.js stepText). A step's own
 * sentence is an example the panel offers (exampleOffer) — applied only by a step marked `ownSentence` (its text or
 * state is about that sentence), or where the learner's sentence is empty. A step that sets `model` shows that model.
 * @param {{ id: string, state: object, ownSentence?: string }} step  one of TOUR_STEPS
 * @param {object} defaults  the explorer's defaults (defaultState() with its attributes)
 * @param {object} learner  the learner's state when the tour opened (only its KEPT preferences, model and sentence)
 * @returns {object} a full state, with `tour` = the step's id and `chapter` the one holding the step's view
 */
export function stepState(step, defaults, learner) {
  const kept = Object.fromEntries(KEPT.map((key) => [key, learner[key]]));
  const model = learner.model === defaults.model ? {} : { model: learner.model, head: learner.head ?? defaults.head };
  const own = step.ownSentence || !learner.sentence?.trim();
  return {
    ...defaults,
    ...kept,
    ...model,
    chapter: chapterOfView(step.view)?.id ?? defaults.chapter,
    ...step.state,
    ...(own ? {} : { sentence: learner.sentence }),
    tour: step.id,
  };
}

/**
 * What the panel says of a step's example sentence: where the step uses its own, why; where it keeps the learner's
 * and its text is about another, an offer to use the tour's.
 * @param {{ state: object, ownSentence?: string }} step  @param {object} state  the state shown now
 * @returns {{ text: string, sentence?: string } | null}  sentence: offered (a "Use the tour's example" button)
 */
export function exampleOffer(step, state) {
  const example = step.state.sentence;
  if (example === undefined) return null;
  if (step.ownSentence) return { text: `This step uses its own example, “${example}”: ${step.ownSentence}.` };
  if (state.sentence === example) return null;
  return { text: `This step keeps your sentence; its text speaks of “${example}”.`, sentence: example };
}

function button(className, text, onClick) {
  const el = element('button', className, text);
  el.type = 'button';
  el.addEventListener('click', onClick);
  return el;
}

/**
 * Builds the (hidden) tour panel.
 * @param {{ go: (id: string) => void, close: () => void, useExample?: (sentence: string) => void }} actions  called when
 *   the learner moves to a step, closes, or takes a step's example sentence
 * @returns {{ panel: HTMLElement, sync: (steps: object[], id: string, describe: (step: object) => string) => void, focus: () => void }}
 *   sync shows step `id` of `steps` with the text `describe` gives (tour-steps.js stepText) and what `offer` says of
 *   its example sentence (exampleOffer), and hides the panel
 *   when `id` is not one of them; focus moves
 *   focus to the step's title, so a screen reader reads the step
 */
export function buildTourPanel({ go, close, useExample = () => {} }) {
  const panel = element('section', 'tour');
  panel.setAttribute('aria-label', 'Guided tour');
  panel.hidden = true;
  // Announced on every move, so Previous / Next keep focus and the new step is still read out.
  const main = panel.appendChild(element('div', 'tour-main'));
  main.setAttribute('aria-live', 'polite');
  const head = main.appendChild(element('div', 'tour-head'));
  head.append(element('h2', '', 'Guided tour'));
  const count = head.appendChild(element('span', 'tour-count'));
  const title = main.appendChild(element('h3', 'tour-title'));
  title.tabIndex = -1;
  const text = main.appendChild(element('p', 'tour-text'));
  const example = main.appendChild(element('p', 'tour-example'));
  const exampleText = example.appendChild(element('span', ''));
  let offered = null;
  example.append(
    ' ',
    button('tour-use-example', 'Use the tour’s example', () => offered && useExample(offered)),
  );
  const side = panel.appendChild(element('div', 'tour-side'));
  const nav = side.appendChild(element('div', 'tour-nav'));
  side.append(element('span', 'tour-keys', 'Keys: ← → move, Esc closes'));
  const closeButton = panel.appendChild(button('tour-close', '×', () => close()));
  closeButton.setAttribute('aria-label', 'Close the guided tour');
  closeButton.title = 'Close the guided tour (Escape)';
  let steps = [],
    index = -1;
  const move = (by) => {
    if (index + by >= 0 && index + by < steps.length) go(steps[index + by].id);
    else if (index + by === steps.length) close(); // "Finish" on the last step
  };
  const previous = nav.appendChild(button('tour-previous', '← Previous', () => move(-1)));
  const next = nav.appendChild(button('tour-next', 'Next →', () => move(1)));
  panel.addEventListener('keydown', (event) => {
    const by = { ArrowLeft: -1, PageUp: -1, ArrowRight: 1, PageDown: 1 }[event.key];
    if (event.key === 'Escape') close();
    else if (by && !(by > 0 && index === steps.length - 1))
      move(by); // keys never finish the tour by accident
    else return;
    event.preventDefault();
  });

  const sync = (available, id, describe, offer = () => null) => {
    steps = available;
    index = steps.findIndex((step) => step.id === id);
    // Written only where they change (dom-update.js): this runs at every keystroke, and the same attribute written again
    // still has the browser recompute the panel's style.
    setHidden(panel, index < 0);
    if (index < 0) return;
    const step = steps[index];
    setText(count, `Step ${index + 1} of ${steps.length}`);
    setText(title, step.title);
    setText(text, describe(step));
    const said = offer(step);
    setHidden(example, !said);
    setText(exampleText, said?.text ?? '');
    offered = said?.sentence ?? null;
    setHidden(example.lastChild, offered === null);
    // aria-disabled, not disabled: the focused button must stay focused at either end.
    setAttr(previous, 'aria-disabled', String(index === 0));
    setText(next, index === steps.length - 1 ? 'Finish' : 'Next →');
  };
  return { panel, sync, focus: () => title.focus() };
}

/** How long after a jump the revealed section is held in place while the figures around it are drawn. */
const HOLD_MS = 2000;

/**
 * Scrolls `target` to the top of the view, unless its top is already in the upper half (so the
 * controls above stay in sight when they can).
 * @param {HTMLElement} target
 * @param {HTMLElement | null} scroller  the explorer's own scrolling box (with a `height`), else null for the page
 * @param {{ page?: boolean, fit?: HTMLElement | null }} [options]  page: false leaves the page where it is (an embedded
 *   element opening at a step must not scroll its host page on load); the explorer's own box still scrolls. fit: the
 *   figure the step is about, scrolled up (once drawn) until its bottom is in view where it fits, its top kept in view:
 *   at 1440 × 900 the weights under the controls and More settings ended below the fold
 * @returns {() => void} to call after figures are drawn: for a short while, it scrolls by however far
 *   drawing moved the target (figures above it are drawn only when they come near the view, so a jump
 *   can push the target away); movement the reader scrolled is left alone
 */
export function reveal(target, scroller, { page = true, fit = null } = {}) {
  const box = scroller ? scroller.getBoundingClientRect() : { top: 0, height: window.innerHeight };
  const top = target.getBoundingClientRect().top - box.top;
  // A jump, not a smooth scroll: passing over off-screen figures would draw them and move the target.
  // In its own box, scrollTop: scrollIntoView would scroll the host page as well.
  const margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
  const inView = top >= 0 && top < box.height / 2;
  if (!inView && scroller) scroller.scrollTop += top - margin;
  else if (!inView && page) target.scrollIntoView({ block: 'start', behavior: 'instant' });
  if (!scroller && !page) return () => {};
  const until = performance.now() + HOLD_MS;
  const position = () => ({
    top: target.getBoundingClientRect().top,
    scrolled: scroller ? scroller.scrollTop : window.scrollY,
  });
  let last = position();
  let fitted = !fit;
  const hold = () => {
    if (performance.now() > until) return;
    const now = position();
    const shift = now.top - last.top + (now.scrolled - last.scrolled); // the part not due to scrolling
    if (Math.abs(shift) >= 1) (scroller ?? window).scrollBy({ top: shift, behavior: 'instant' });
    if (!fitted) fitted = fitInView(fit, target, scroller);
    last = position();
  };
  hold();
  return hold;
}

/**
 * Scrolls `element` up until its bottom is in view, its top and the revealed section's top staying in view (an element
 * wholly below the view: its own top only); once it has been drawn (a height).
 * @param {HTMLElement} element  @param {HTMLElement} target  the revealed section  @param {HTMLElement | null} scroller
 * @returns {boolean} whether it was drawn (then nothing more to do)
 */
function fitInView(element, target, scroller) {
  const box = scroller ? scroller.getBoundingClientRect() : { top: 0, height: window.innerHeight };
  const { top, bottom, height } = element.getBoundingClientRect();
  if (height === 0) return false;
  const below = bottom - box.top - box.height;
  // A figure wholly below the view (far down a long section) comes to its top: the step is about it, not the section.
  const hidden = top - box.top >= box.height;
  const room = (hidden ? top : Math.min(top, target.getBoundingClientRect().top)) - box.top;
  if (below > 0 && room > 0) (scroller ?? window).scrollBy({ top: Math.min(below, room), behavior: 'instant' });
  return true;
}
