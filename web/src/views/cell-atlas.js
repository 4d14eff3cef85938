// Many small matrices of cells drawn into one canvas laid over their places on the page (the heads' small multiples,
// head-thumbs.js). Chromium gives every canvas a composited layer, and each layer whose pixels change costs the
// compositor work on that frame (Layerize, Commit): one canvas for sixteen thumbnails instead of sixteen took about
// 0.3 ms off a keystroke's paint in Chromium 156 (docs/performance.md). Each matrix is kept in a canvas of one pixel
// per cell off the page (cell-canvas.js; the figure's downloads read its cells there) and stretched, unsmoothed, over
// its place: an element of the matrix's size whose CSS background (the masked cells' hatch) shows through. Where the
// places sit is read when the layout changes (a ResizeObserver runs after layout, so reading it then forces none),
// never on a keystroke. The canvas is positioned where it stands rather than against a positioned box: a positioned box
// is a paint layer of its own, which Chromium records again whole whenever anything in it changes (+0.3 ms of Paint).

import { setStyle } from './dom-update.js';

/** How a dimmed matrix is drawn (a switched-off head): faded and grey, and its place (its hatch) faded as much. */
const DIM = { alpha: 0.3, filter: 'grayscale(1)' };

export class CellAtlas {
  /**
   * @param {HTMLElement} box  the places' container, without padding: the atlas canvas becomes its first child and
   *   is laid over it (absolutely positioned where it stands, at the box's corner, and sized to it: CSS .cell-atlas)
   */
  constructor(box) {
    this.box = box;
    const canvas = (this.canvas = document.createElement('canvas'));
    canvas.className = 'cell-atlas';
    canvas.setAttribute('aria-hidden', 'true'); // the places' buttons carry the names; this is only their pixels
    canvas.dataset.exportSkip = ''; // downloads draw each matrix from its own cells (figure-export.js)
    box.prepend(canvas);
    /** @type {{ place: HTMLElement, cells: HTMLCanvasElement, dim?: boolean }[]} */
    this.items = [];
    this.frames = null; // place → [x, y, width, height] in CSS pixels from the box's corner; null until laid out
    this.ratio = 1;
    this.observed = new WeakSet();
    this.observer = new ResizeObserver(() => this.measure());
    // In device pixels where the browser reports them (Chromium, Firefox): a move to a screen of another pixel ratio
    // then redraws the canvas sharp; where it does not, the next draw or layout change does (paint()).
    try {
      this.observer.observe(box, { box: 'device-pixel-content-box' });
    } catch {
      this.observer.observe(box);
    }
  }

  /**
   * Draws the matrices, each over its place, at the places' last measured positions (where none is measured yet, the
   * first layout draws them).
   * @param {{ place: HTMLElement, cells: HTMLCanvasElement, dim?: boolean }[]} items  place: an element inside the box,
   *   sized as the matrix is to be shown; cells: the matrix, one pixel per cell; dim: drawn faded and grey
   */
  draw(items) {
    this.items = items;
    for (const { place, dim } of items) setStyle(place, { opacity: dim ? String(DIM.alpha) : '' });
    // A place moves only when it, an element around it, or a sibling of those changes size (a row or column of the
    // grid grows, a label wraps): each such change resizes one of the elements from the place up to the box.
    for (const { place } of this.items)
      for (let el = place; el && el !== this.box; el = el.parentElement) {
        if (this.observed.has(el)) continue;
        this.observed.add(el);
        this.observer.observe(el);
      }
    this.paint();
  }

  /** Reads where the places are (after a layout), sizes the canvas to the box in device pixels, and draws. */
  measure() {
    const box = this.box.getBoundingClientRect();
    this.frames = new Map(
      this.items.map(({ place }) => {
        const r = place.getBoundingClientRect();
        return [place, [r.left - box.left, r.top - box.top, r.width, r.height]];
      }),
    );
    this.ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(box.width * this.ratio));
    const height = Math.max(1, Math.round(box.height * this.ratio));
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    setStyle(this.canvas, { width: `${box.width}px`, height: `${box.height}px` });
    this.paint();
  }

  /** Clears the canvas and draws every matrix over its place, cells stretched without smoothing. */
  paint() {
    if (!this.frames) return;
    if (window.devicePixelRatio !== this.ratio) return this.measure(); // once, after a change of screen or zoom
    const context = this.canvas.getContext('2d');
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    context.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    context.imageSmoothingEnabled = false;
    for (const { place, cells, dim } of this.items) {
      const frame = this.frames.get(place);
      if (!frame || frame[2] === 0) continue; // not laid out (hidden), or added since the last layout
      context.globalAlpha = dim ? DIM.alpha : 1;
      context.filter = dim ? DIM.filter : 'none';
      context.drawImage(cells, ...frame);
    }
  }
}
