// A redraw replaces a figure's elements; if one of them had keyboard focus, focus would fall to the
// document's body (the top of the page) and a keyboard user would lose their place (WCAG 2.2 SC 2.4.3
// Focus Order). So the control that had focus is found again in the new content by its
// data-focus-key, or else the new content's [data-focus-fallback], and focused without scrolling.

/**
 * Runs `replace` (which swaps `container`'s content) and gives focus back to the same control.
 * @param {HTMLElement} container  @param {() => void} replace
 */
export function keepFocus(container, replace) {
  const root = container.getRootNode();
  const active = root.activeElement;
  if (!active || !container.contains(active)) {
    replace();
    return;
  }
  const key = active.closest('[data-focus-key]')?.dataset.focusKey;
  replace();
  const again =
    (key !== undefined && container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`)) ||
    container.querySelector('[data-focus-fallback]');
  again?.focus({ preventScroll: true });
}
