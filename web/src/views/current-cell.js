// One current cell of a heatmap's canvas for pointer and keyboard: hovering sets it, arrow keys move it
// from there (from 0, 0 on first focus), Escape hides it. show(i, j) runs only when the cell changes or was
// hidden, so a screen reader does not repeat the same text.

/** Keys that move the current cell: (i, j, rows, cols) → the next [i, j], clamped by the caller. */
const MOVES = {
  ArrowUp: (i, j) => [i - 1, j],
  ArrowDown: (i, j) => [i + 1, j],
  ArrowLeft: (i, j) => [i, j - 1],
  ArrowRight: (i, j) => [i, j + 1],
  Home: (i) => [i, 0],
  End: (i, j, rows, cols) => [i, cols - 1],
  PageUp: (i, j) => [0, j],
  PageDown: (i, j, rows) => [rows - 1, j],
};

/** Each canvas's cell listeners, so a canvas drawn again (for a new figure or a new matrix) drops the old ones. */
const listeners = new WeakMap();

/**
 * Follows the current cell of `canvas` for a matrix of rows × cols cells of cellWidth × cellHeight pixels.
 * Called again for the same canvas (the figure redrawn), it replaces the listeners and forgets the cell.
 * @param {HTMLCanvasElement} canvas
 * @param {{ rows: number, cols: number, cellWidth: number, cellHeight: number }} grid
 * @param {(i: number, j: number, byKey: boolean) => void} show  byKey: the keyboard moved to the cell (it may be out of
 *   view), not the pointer  @param {() => void} hide
 */
export function followCurrentCell(canvas, { rows, cols, cellWidth, cellHeight }, show, hide) {
  listeners.get(canvas)?.abort();
  const controller = new AbortController();
  listeners.set(canvas, controller);
  const { signal } = controller;
  let current = null; // [i, j]
  let shown = false;
  const moveTo = (i, j, byKey = false) => {
    if (shown && current[0] === i && current[1] === j) return;
    current = [i, j];
    shown = true;
    show(i, j, byKey);
  };
  const clear = () => {
    shown = false;
    hide();
  };
  const point = (event) => {
    const j = Math.min(cols - 1, Math.floor(event.offsetX / cellWidth));
    const i = Math.min(rows - 1, Math.floor(event.offsetY / cellHeight));
    if (i >= 0 && j >= 0) moveTo(i, j);
  };
  canvas.addEventListener('pointermove', point, { signal });
  canvas.addEventListener('pointerdown', point, { signal }); // a tap on a touch screen sends no move first
  canvas.addEventListener('pointerleave', clear, { signal });
  canvas.addEventListener('blur', clear, { signal });
  canvas.addEventListener(
    'focus',
    () => {
      if (rows > 0 && cols > 0) moveTo(...(current ?? [0, 0]), true);
    },
    { signal },
  );
  canvas.addEventListener(
    'keydown',
    (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || rows === 0 || cols === 0) return; // browser shortcuts
      if (event.key === 'Escape' && shown) {
        clear();
      } else if (Object.hasOwn(MOVES, event.key)) {
        const [i, j] = MOVES[event.key](...(current ?? [0, 0]), rows, cols);
        moveTo(Math.max(0, Math.min(rows - 1, i)), Math.max(0, Math.min(cols - 1, j)), true);
      } else {
        return;
      }
      event.preventDefault(); // the page must not scroll under the cell
    },
    { signal },
  );
}
