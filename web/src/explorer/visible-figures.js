// The explorer's figures are drawn only while on screen (so that a keystroke repaints what a
// learner sees within a frame). Each figure has a slot; an IntersectionObserver keeps the set of slots
// near the viewport; a new result redraws those and marks the others stale, drawn when they scroll in.
import { FIGURES, hasDataFor } from './figures.js';
import { NOTHING } from './lens-data.js';
import { addExportMenus } from '../views/figure-export.js';
import { keepFocus } from '../views/keep-focus.js';

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
    this.drawnFrom = new Map(); // figure name → the key its slot was drawn for (figures with a key: figures.js)
    this.extra = {}; // figure name → state it alone follows (what the pointer hovers), not the explorer's
    this.colors = themeColors(null); // see setTheme
    this.canvases = {}; // figure name → its canvases by key, kept from draw to draw
    this.height = undefined; // the element's height in pixels, when its `height` attribute gives one
    this.published = {}; // data chapters publish on their own (publish()), by key: in every result
    this.room = {}; // figure name → pixels from its fitted part's top to the box's bottom (fitInBox)
    this.shown = new Map(); // figure name → the element its last draw returned (environment's `last`)
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) this.visible.add(entry.target.dataset.slot);
          else this.visible.delete(entry.target.dataset.slot);
        }
        for (const entry of entries) {
          if (entry.isIntersecting && 'stale' in entry.target.dataset && this.drawn)
            this.drawFigure(entry.target.dataset.slot);
        }
        afterDraw();
      },
      // Near: within 400 px of the viewport, so that on a phone the figure after the first one is drawn with it (the
      // trained decoder's next word, under its weights).
      { rootMargin: '400px' },
    );
    for (const name of Object.keys(FIGURES)) {
      slots[name].dataset.slot = name;
      observer.observe(slots[name]);
    }
  }

  /** Whether any of these figures is on screen. */
  wants(names) {
    return names.some((name) => this.visible.has(name));
  }

  /** The figures on screen wait for a new result (drawn by the next draw()). */
  markStale() {
    for (const name of this.visible) this.slots[name].dataset.stale = '';
  }

  /** Shows a new result: the figures on screen are redrawn now, the others when they scroll in. */
  draw(result, previous, state) {
    this.drawn = { result: { ...result, ...this.published }, previous, state };
    for (const name of Object.keys(FIGURES)) {
      if (this.visible.has(name)) this.drawFigure(name);
      else this.slots[name].dataset.stale = '';
    }
  }

  /**
   * The theme's text colours, resolved (a canvas cannot read CSS light-dark()): read from `element`
   * when the theme may have changed, never per update (reading computed style forces a style pass).
   */
  setTheme(element) {
    this.colors = themeColors(element);
  }

  /**
   * What a figure's draw function gets besides its data: the theme's colours; canvas(key), the
   * figure's own canvas for that key, the same one at every redraw (making a canvas costs more than
   * filling it: ~5 ms for a 560 × 400 one in Chromium); and height, the element's fixed height in
   * pixels (undefined when it has none), for a figure that fits itself in the box; room: for a figure
   * with `fit`, the pixels from its fitted part's top to the bottom of the box at its last draw (fitInBox); and
   * last: the element the figure's last draw returned, still alone in its slot, which a draw may update in place
   * and return (a keystroke then rebuilds none of it), else undefined.
   */
  environment(name) {
    const pool = (this.canvases[name] ??= new Map());
    const canvas = (key) => {
      if (!pool.has(key)) pool.set(key, document.createElement('canvas'));
      return pool.get(key);
    };
    const shown = this.slots[name].firstChild;
    const last = shown && shown === this.slots[name].lastChild && shown === this.shown.get(name) ? shown : undefined;
    return { colors: this.colors, canvas, height: this.height, room: this.room[name], last };
  }

  /**
   * Data a chapter receives on its own rather than from the update's core call (the Learn chapter's training
   * snapshots, ~14 a second): kept under `key` in every result from now on; the figures that draw it
   * (`published` figures whose `needs` is key) are redrawn now if on screen, else when they scroll in.
   */
  publish(key, data) {
    this.published[key] = data;
    if (!this.drawn) return;
    this.drawn.result = { ...this.drawn.result, [key]: data };
    for (const name of Object.keys(FIGURES)) {
      if (!FIGURES[name].published || FIGURES[name].needs !== key) continue;
      if (this.visible.has(name)) this.drawFigure(name);
      else this.slots[name].dataset.stale = '';
    }
  }

  /**
   * Redraws one figure with `extra` on top of the state (kept for later results too): now if on screen, else when it
   * scrolls in (a measurement made on demand for a figure below the fold, on a narrow screen).
   */
  redraw(name, extra) {
    this.extra[name] = { ...this.extra[name], ...extra };
    if (this.drawn && this.visible.has(name)) this.drawFigure(name);
    else if (this.drawn) this.slots[name].dataset.stale = '';
  }

  drawFigure(name) {
    const { result, previous, state } = this.drawn;
    if (result.run.tokens.length === 0 && !FIGURES[name].withoutSentence) {
      this.slots[name].replaceChildren(emptyNote());
      this.shown.delete(name);
      this.drawnFrom.delete(name);
      delete this.slots[name].dataset.stale;
      return;
    }
    const { draw, needs, key, published } = FIGURES[name];
    if (!hasDataFor(result, name)) {
      if (!published) this.needData(); // published data comes when it comes: a recompute would not bring it
      return;
    }
    const slot = this.slots[name],
      data = result[needs];
    // A figure with a key is drawn again only when what it reads changed (the theme's colours included).
    const drawnFor = key && [...key(result, { ...state, ...this.extra[name] }), this.colors];
    if (!drawnFor || !sameKey(this.drawnFrom.get(name), drawnFor)) {
      keepFocus(slot, () => {
        if (data === NOTHING) {
          slot.replaceChildren();
          this.shown.delete(name);
          return;
        }
        const drawn = draw(result, previous, { ...state, ...this.extra[name] }, this.environment(name));
        // A figure updated in place is already there: replacing it by itself would lay out the slot anew.
        if (slot.firstChild !== drawn || slot.lastChild !== drawn) slot.replaceChildren(drawn);
        this.shown.set(name, drawn);
      });
      // A figure redrawn on its own many times a second would close its open menu each time: its chapter
      // offers the downloads beside it (the same export, figure-export.js). A figure updated in place keeps its menu.
      if (!published) addExportMenus(slot);
      this.drawnFrom.set(name, drawnFor);
      if (this.fitInBox(name, slot)) return this.drawFigure(name);
    }
    delete slot.dataset.stale;
  }

  /**
   * In a box of fixed height, the part of a figure that must show whole (FIGURES[name].fit, a selector: the
   * weights' cells) is measured after each draw: what sits above it (controls, captions, the token strip)
   * differs with the attributes, the width and the sentence. Returns whether it ends below the box while the
   * room it was drawn for was not the room there is: then it is drawn again at once, for that room.
   */
  fitInBox(name, slot) {
    const part = this.height && FIGURES[name].fit && slot.querySelector(FIGURES[name].fit);
    const box = part && slot.closest('.fixed-height');
    if (!box?.clientHeight) return false; // no fixed height, or not laid out (hidden)
    const { top, height } = part.getBoundingClientRect();
    const offset = top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
    const room = Math.floor(box.clientHeight - offset),
      drawnFor = this.room[name];
    this.room[name] = room;
    return offset + height > box.clientHeight + 1 && room !== drawnFor;
  }
}

/** Whether two figure keys hold the same values, one by one (===). */
function sameKey(a, b) {
  return a !== undefined && a.length === b.length && a.every((value, i) => value === b[i]);
}

/** The text colour of `element` (or the light theme's), and softer shades of it for rules and notes. */
function themeColors(element) {
  const ink = element ? getComputedStyle(element).color : 'rgb(29, 29, 31)';
  const faded = (alpha) => ink.replace(/^rgba?\(([^,]+),([^,]+),([^,)]+).*$/, `rgba($1,$2,$3,${alpha})`);
  return { ink, muted: faded(0.7), line: faded(0.15) };
}

/** What a figure that reads the sentence shows while it is empty. */
function emptyNote() {
  const note = document.createElement('p');
  note.className = 'empty-figure';
  note.textContent = 'Type a sentence above: this figure reads its words.';
  return note;
}
