// What the element owes the page that hosts it (a reveal.js deck, a Jupyter notebook, a MkDocs site):
// its keys stay its own, and it says when it is ready and when its height changes.

/** Keys a page's own handling must still see while focus is inside the element. */
const PASSED_ON = new Set(['Tab']); // a page's focus trap (a modal dialog) moves focus on Tab

/**
 * Keeps the keys pressed inside the element from the host page's shortcuts. A page's "is an input
 * focused?" check reads document.activeElement, which is the element itself when focus is in its shadow
 * root: reveal.js turned a slide on the space typed in the sentence box, and took the arrows meant for a
 * heatmap. Key events target the focused element, so an event reaching `root` started at a control or a
 * figure inside it; they stop at `root`, after every handler inside has run. Tab and shortcuts with Ctrl
 * or ⌘ (a notebook's save) still reach the page.
 * @param {HTMLElement} root  the element's root inside its shadow root
 */
function keepKeys(root) {
  for (const type of ['keydown', 'keypress', 'keyup']) {
    root.addEventListener(type, (event) => {
      if (!PASSED_ON.has(event.key) && !event.ctrlKey && !event.metaKey) event.stopPropagation();
    });
  }
}

/**
 * Keeps the element's keys (keepKeys) and tells the page about it: `resize` (detail: { height } in CSS
 * pixels, its border box) whenever its height changes after its first layout, for a page that lays itself
 * out around it (reveal.js scales each slide to fit); `ready` once, when drawn() is first called (the
 * element calls it after its core has loaded and the figures on screen are drawn).
 * @param {HTMLElement} host  the element  @param {HTMLElement} root  its root inside its shadow root
 * @returns {{ drawn: () => void }}
 */
export function hostPage(host, root) {
  keepKeys(root);
  let height,
    ready = false;
  new ResizeObserver(([entry]) => {
    const now = entry.borderBoxSize[0].blockSize;
    if (height !== undefined && now !== height)
      host.dispatchEvent(new CustomEvent('resize', { detail: { height: now } }));
    height = now;
  }).observe(host);
  return {
    drawn() {
      if (ready) return;
      ready = true;
      host.dispatchEvent(new Event('ready'));
    },
  };
}
