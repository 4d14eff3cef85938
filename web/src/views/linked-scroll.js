// Boxes that scroll together: scrolling one scrolls the others to the same place, so that matrices of the same shape
// side by side (the score decomposition's terms and their sum) show the same rows and columns while a reader compares
// them.

/** What each box was last scrolled to by its neighbour, so that its own scroll event for it is not passed on. */
const echoes = new WeakMap();

/**
 * Links the scroll positions of `boxes` (elements that scroll, of the same scroll size): a reader's scroll of one is
 * copied to the others. A copy's own scroll event is recognised as one and goes no further, so a smooth scroll in one
 * box never bounces back to it from another.
 * @param {HTMLElement[]} boxes
 */
export function linkScrolls(boxes) {
  for (const box of boxes) {
    box.addEventListener(
      'scroll',
      () => {
        const { scrollLeft: left, scrollTop: top } = box;
        const echo = echoes.get(box);
        echoes.delete(box);
        if (echo && echo[0] === left && echo[1] === top) return;
        for (const other of boxes) {
          if (other === box || (other.scrollLeft === left && other.scrollTop === top)) continue;
          echoes.set(other, [left, top]);
          other.scrollTo(left, top);
        }
      },
      { passive: true },
    );
  }
}
