// The guided tour as an explorer runs it: the steps its views show, showing one (its state applied
// through the host, so URL and `change` events follow, then its section scrolled into view), the start
// button, closing (the learner's own state comes back), following the state and resuming at start.
// The panel (tour.js) reports the learner's moves; the steps are data (tour-steps.js). The guide sees
// the explorer only through the small host interface below.
import { buildTourPanel, exampleOffer, reveal, stepState } from './tour.js';
import { TOUR_STEPS, stepText } from './tour-steps.js';
import { setHidden } from '../views/dom-update.js';

/**
 * @typedef {object} TourHost  what the guide may read and do
 * @property {() => object} state  the explorer's state now
 * @property {() => object} core  the explorer's core (for steps whose text quotes computed numbers)
 * @property {() => object} defaults  its defaults (defaultState() with its attributes)
 * @property {(view: string) => boolean} shows  whether a `views` name is shown
 * @property {(state: object) => void} apply  applies a state (redraws, URL, `change` event)
 * @property {() => void} forgetTour  marks the tour closed without redrawing (inside a redraw)
 * @property {(step: object) => HTMLElement} anchor  the element a step scrolls to
 * @property {() => HTMLElement | null} scroller  the explorer's own scroll box (a fixed height), else null
 * @property {() => boolean} mayScrollPage  whether opening at a step may scroll the host page
 * @property {(element: HTMLElement) => boolean} hasFocus  whether focus is inside `element`
 * @property {(open: boolean) => void} setOpen  lays the explorer out for the panel (a rail, or a sheet)
 * @property {(name: string) => void} showControl  opens the folded settings group that holds the setting `name`
 */

export class TourGuide {
  /**
   * @param {TourHost} host
   * @param {(text: string, onClick: () => void) => HTMLButtonElement} makeButton  for the start button
   */
  constructor(host, makeButton) {
    this.host = host;
    this.panel = buildTourPanel({
      go: (id) => this.show(id),
      close: () => this.close(),
      useExample: (sentence) => this.host.apply({ sentence }),
    });
    this.button = makeButton('Take the guided tour', () => this.start());
    this.button.classList.add('tour-start');
    this.saved = null; // the learner's state when the tour opened, given back when it closes
    this.pendingReveal = null; // a step to scroll to once the first figures are drawn
    this.holdReveal = null; // keeps the last step's section in place while figures above it are drawn
  }

  /** The steps whose section the explorer shows (`views`). */
  steps() {
    return TOUR_STEPS.filter((step) => this.host.shows(step.view));
  }

  stepById(id) {
    return this.steps().find((step) => step.id === id);
  }

  /**
   * Shows a step: its state on top of the defaults, and its section. A step whose section is hidden
   * gives way to the next shown one.
   * @param {string} id  a TOUR_STEPS id
   */
  show(id) {
    const from = TOUR_STEPS.findIndex((step) => step.id === id);
    const steps = this.steps();
    const step = steps.find((s) => TOUR_STEPS.indexOf(s) >= from) ?? steps[0];
    if (!step) return;
    const { host } = this;
    if (!host.state().tour) this.saved = host.state();
    // The learner's model and sentence as the tour found them: a step that set its own does not carry it on.
    this.enter(step, stepState(step, host.defaults(), this.saved ?? host.state()));
    this.reveal(step);
  }

  /** Applies a step's state; a setting the step's text points at is put on screen, not left folded away. */
  enter(step, state) {
    this.host.apply(state);
    if (step.control) this.host.showControl(step.control);
  }

  /** Scrolls to the step's section; `atStart`: only the page's own explorer (url-state) may move the page on load. */
  reveal(step, { atStart = false } = {}) {
    const anchor = this.host.anchor(step);
    if (!anchor?.closest('section')) return;
    this.holdReveal = reveal(anchor.closest('section'), this.host.scroller(), {
      page: !atStart || this.host.mayScrollPage(),
      fit: step.figure ? anchor : null,
    });
  }

  /** The start button: the first step, with focus on it for screen readers. */
  start() {
    this.show(TOUR_STEPS[0].id);
    this.panel.focus();
  }

  /** Closes the tour and gives back the state the learner had when it opened. */
  close() {
    const { host } = this;
    if (!host.state().tour) return;
    const hadFocus = host.hasFocus(this.panel.panel);
    host.apply({ ...(this.saved ?? host.defaults()), tour: '' });
    this.saved = null;
    if (hadFocus && !this.button.closest('[hidden]')) this.button.focus();
  }

  /** The panel follows the state (steps, links, history); an unknown or hidden step closes the tour. */
  sync() {
    const { host } = this;
    const steps = this.steps();
    const { tour } = host.state();
    if (tour && !steps.some((step) => step.id === tour)) host.forgetTour();
    this.panel.sync(
      steps,
      host.state().tour,
      (step) => stepText(step, { core: host.core(), state: host.state(), from: this.saved?.model }),
      (step) => exampleOffer(step, host.state()),
    );
    host.setOpen(Boolean(host.state().tour));
    setHidden(this.button, Boolean(host.state().tour) || steps.length === 0);
  }

  /**
   * At start, a step named by a link or the `tour` attribute: its state is applied (what else the link
   * sets stays on top, so a copied link shows what it showed), and closing gives back the state the
   * page opened with, without the tour.
   * @param {object} fromLink  what the URL hash sets ({} without url-state)
   */
  resume(fromLink) {
    const { host } = this;
    const step = host.state().tour && this.stepById(host.state().tour);
    if (!step) return;
    this.saved = { ...host.state(), tour: '' };
    // A step that shows a model of its own shows it whatever model the link names (its text is about that model).
    const model = step.state.model === undefined ? {} : { model: step.state.model };
    this.enter(step, { ...stepState(step, host.defaults(), host.state()), ...fromLink, ...model, tour: step.id });
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
