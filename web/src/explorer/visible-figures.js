// The explorer's figures are drawn only while on screen (so that a keystroke repaints what a
// learner sees within a frame). Each figure has a slot; an IntersectionObserver keeps the set of slots
// near the viewport; a new result redraws those and marks the others stale, drawn when they scroll in.
import { FIGURES, hasDataFor } from './figures.js';
import { addExportMenus } from './figure-export.js';
import { NOTHING } from './lens-data.js';

export class VisibleFigures {
  /**
   * @param {Record<string, HTMLElement>} slots  one per name in FIGURES
   * @param {{ needData: () => void, afterDraw: () => void }} hooks  needData: a figure scrolled in whose data
   *   the last result lacks (lenses are computed only for figures on screen): recompute; afterDraw: after
   *   each visibility change
   */
  constructor(slots, { needData, afterDraw }) {
    this.slots = slots;
    this.needData = needData;
    this.visible = new Set();
    this.drawnFrom = new Map();  // figure name → the data its slot shows (dataOnly figures)
    this.extra = {};             // figure name → state it alone follows (what the pointer hovers), not the explorer's
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) this.visible.add(entry.target.dataset.slot);
        else this.visible.delete(entry.target.dataset.slot);
      }
      for (const entry of entries) {
        if (entry.isIntersecting && 'stale' in entry.target.dataset && this.drawn) this.drawFigure(entry.target.dataset.slot);
      }
      afterDraw();
    }, { rootMargin: '300px' });
    for (const name of Object.keys(FIGURES)) {
      slots[name].dataset.slot = name;
      observer.observe(slots[name]);
    }
  }

  /** Whether any of these figures is on screen. */
  wants(names) {
    return names.some((name) => this.visible.has(name));
  }

  /** Shows a new result: the figures on screen are redrawn now, the others when they scroll in. */
  draw(result, previous, state) {
    this.drawn = { result, previous, state };
    for (const name of Object.keys(FIGURES)) {
      if (this.visible.has(name)) this.drawFigure(name);
      else this.slots[name].dataset.stale = '';
    }
  }

  /** Redraws one figure on screen with `extra` on top of the state (kept for later results too). */
  redraw(name, extra) {
    this.extra[name] = extra;
    if (this.drawn && this.visible.has(name)) this.drawFigure(name);
  }

  drawFigure(name) {
    const { result, previous, state } = this.drawn;
    if (!hasDataFor(result, name)) {
      this.needData();
      return;
    }
    const { draw, needs, dataOnly } = FIGURES[name];
    const slot = this.slots[name], data = result[needs];
    if (!dataOnly || this.drawnFrom.get(name) !== data) {
      if (data === NOTHING) slot.replaceChildren();
      else slot.replaceChildren(draw(result, previous, { ...state, ...this.extra[name] }, slot));
      addExportMenus(slot);
      this.drawnFrom.set(name, data);
    }
    delete slot.dataset.stale;
  }
}
