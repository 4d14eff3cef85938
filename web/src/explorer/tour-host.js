// What the guided tour may read and do in an explorer (tour-guide.js TourHost): the explorer's state,
// its sections and its layout, seen through a few functions.

/** @param {HTMLElement} explorer  an <attention-explorer> that has started (attention-explorer.js) */
export function tourHost(explorer) {
  return {
    state: () => explorer.current,
    core: () => explorer.core,
    defaults: () => explorer.defaults,
    shows: (view) => explorer.chosen.views.has(view),
    apply: (state) => explorer.applyChange(state),
    forgetTour: () => {
      explorer.current = { ...explorer.current, tour: '' };
    },
    anchor: (step) => (step.figure ? explorer.slots[step.figure] : explorer.parts.views[step.view]?.[0]),
    scroller: () => (explorer.root.classList.contains('fixed-height') ? explorer.root : null),
    mayScrollPage: () => explorer.hasAttribute('url-state'),
    hasFocus: (element) => element.contains(explorer.shadowRoot.activeElement),
    setOpen: (open) => explorer.root.classList.toggle('touring', open),
    showControl: (name) =>
      explorer.controls.form.querySelector(`[name="${name}"]`)?.closest('details')?.setAttribute('open', ''),
  };
}
