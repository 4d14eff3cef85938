// The guided tour as an explorer runs it: the steps its views show, showing one (its state through
// explorer.change(), so URL and `change` events follow, then its section scrolled into view), the
// start button, closing, following the state and resuming at start. The panel (tour.js) reports the
// learner's moves; the steps are data (tour-steps.js).
import { buildTourPanel, reveal, stepState } from './tour.js';
import { TOUR_STEPS } from './tour-steps.js';

export class TourGuide {
  /**
   * @param {HTMLElement} explorer  the <attention-explorer>: current, defaults, chosen.views, change(),
   *   slots and parts.views (a step's anchor), root (its scroll box when it has a fixed height)
   * @param {(text: string, onClick: () => void) => HTMLButtonElement} makeButton  for the start button
   */
  constructor(explorer, makeButton) {
    this.explorer = explorer;
    this.panel = buildTourPanel({ go: (id) => this.show(id), close: () => this.close() });
    this.button = makeButton('Take the guided tour', () => this.start());
    this.button.classList.add('tour-start');
    this.pendingReveal = null;  // a step to scroll to once the first figures are drawn
    this.holdReveal = null;     // keeps the last step's section in place while figures above it are drawn
  }

  /** The steps whose section the explorer shows (`views`). */
  steps() {
    return TOUR_STEPS.filter((step) => this.explorer.chosen.views.has(step.view));
  }

  stepById(id) {
    return this.steps().find((step) => step.id === id);
  }

  /**
   * Shows a step: its state on top of the defaults, and its section. A step whose section is hidden
   * gives way to the next shown one.
   * @param {string} id  a TOUR_STEPS id
   * @param {{ later?: boolean }} [options]  later: scroll once the first figures are drawn (at start)
   */
  show(id, { later = false } = {}) {
    const from = TOUR_STEPS.findIndex((step) => step.id === id);
    const steps = this.steps();
    const step = steps.find((s) => TOUR_STEPS.indexOf(s) >= from) ?? steps[0];
    if (!step) return;
    const { explorer } = this;
    // The learner's own state, given back when the tour closes.
    if (!explorer.current.tour) this.saved = explorer.current;
    explorer.change(stepState(step, explorer.defaults, explorer.current));
    if (later) this.pendingReveal = step;
    else this.reveal(step);
  }

  /** Scrolls to the step's section; `atStart`: only the page's own explorer (url-state) may move the page on load. */
  reveal(step, { atStart = false } = {}) {
    const { explorer } = this;
    const anchor = step.figure ? explorer.slots[step.figure] : explorer.parts.views[step.view][0];
    if (!anchor.closest('section')) return;
    const scroller = explorer.root.classList.contains('fixed-height') ? explorer.root : null;
    this.holdReveal = reveal(anchor.closest('section'), scroller, { page: !atStart || explorer.hasAttribute('url-state') });
  }

  /** The start button: the first step, with focus on it for screen readers. */
  start() {
    this.show(TOUR_STEPS[0].id);
    this.panel.focus();
  }

  close() {
    const { explorer } = this;
    if (!explorer.current.tour) return;
    const hadFocus = this.panel.panel.contains(explorer.shadowRoot.activeElement);
    explorer.change({ ...(this.saved ?? explorer.defaults), tour: '' });
    this.saved = null;
    if (hadFocus && !this.button.closest('[hidden]')) this.button.focus();
  }

  /** The panel follows the state (steps, links, history); an unknown or hidden step closes the tour. */
  sync() {
    const { explorer } = this;
    const steps = this.steps();
    if (explorer.current.tour && !steps.some((step) => step.id === explorer.current.tour)) {
      explorer.current = { ...explorer.current, tour: '' };
    }
    this.panel.sync(steps, explorer.current.tour);
    explorer.root.classList.toggle('touring', Boolean(explorer.current.tour));
    this.button.hidden = Boolean(explorer.current.tour) || steps.length === 0;
  }

  /** At start: a link's step shows as the link has it (fromLink); a `tour` attribute's step is applied. */
  /**
   * At start, a step named by a link or the `tour` attribute: its state is applied (what else the link
   * sets stays on top, so a copied link shows what it showed), and closing gives back the state the
   * page opened with, without the tour.
   * @param {object} fromLink  what the URL hash sets ({} without url-state)
   */
  resume(fromLink) {
    const { explorer } = this;
    const { tour } = explorer.current;
    const step = tour && this.stepById(tour);
    if (!step) return;
    this.saved = { ...explorer.current, tour: '' };
    explorer.change({ ...stepState(step, explorer.defaults, explorer.current), ...fromLink, tour: step.id });
    // Scrolled after the first figures are drawn, when the layout has its real heights.
    this.pendingReveal = step;
  }

  /** After figures are drawn: keeps the shown step in place, or scrolls to the step waiting since start. */
  afterDraw() {
    this.holdReveal?.();
    if (this.pendingReveal) {
      this.reveal(this.pendingReveal, { atStart: true });
      this.pendingReveal = null;
    }
  }
}
