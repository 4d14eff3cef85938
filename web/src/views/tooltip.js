// A figure's tooltip, drawn in the top layer (the Popover API, HTML § 6.12): no ancestor's overflow,
// mask or stacking can cut it off (a heatmap's last column sits at the edge of a scrolling column), and
// it is placed in viewport coordinates beside the thing it describes, flipped and clamped so that it
// stays inside the viewport.
import { setHidden } from './dom-update.js';

const GAP_PX = 6; // between the described cell and the tooltip
const EDGE_PX = 4; // from the viewport's edges

/**
 * @param {HTMLElement} parent  the element the tooltip belongs to (it stays in the document there)
 * @returns {{ element: HTMLElement, show: (text: string, anchor: { left: number, top: number, right: number, bottom: number }) => void, hide: () => void }}
 *   show: the text beside `anchor` (viewport pixels, as getBoundingClientRect gives): right of it and below its
 *   bottom, else left of it or above it where the viewport ends
 */
export function tooltip(parent) {
  const element = parent.appendChild(document.createElement('div'));
  element.className = 'tooltip';
  element.popover = 'manual';
  element.hidden = true;
  const show = (text, anchor) => {
    element.textContent = text;
    setHidden(element, false);
    if (!element.matches(':popover-open') && element.isConnected) {
      element.showPopover();
      // Placed in the viewport, it would stay put while what it describes scrolls away.
      addEventListener('scroll', hide, { capture: true, once: true, passive: true });
    }
    const { width, height } = element.getBoundingClientRect();
    const right = anchor.right + GAP_PX,
      below = anchor.bottom + GAP_PX;
    const left = right + width <= innerWidth - EDGE_PX ? right : anchor.left - GAP_PX - width;
    const top = below + height <= innerHeight - EDGE_PX ? below : anchor.top - GAP_PX - height;
    element.style.left = `${Math.max(EDGE_PX, Math.min(left, innerWidth - EDGE_PX - width))}px`;
    element.style.top = `${Math.max(EDGE_PX, Math.min(top, innerHeight - EDGE_PX - height))}px`;
  };
  const hide = () => {
    setHidden(element, true);
    if (element.matches(':popover-open')) element.hidePopover();
  };
  return { element, show, hide };
}
