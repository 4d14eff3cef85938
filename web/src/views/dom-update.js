// Writes to the DOM that skip the values already there. A figure redrawn on every keystroke updates its
// elements in place; writing an attribute, a style or a text that did not change still costs the browser
// style, layout or paint work (a new text node is laid out again even when its text is the same), so
// every write here compares first.

/** Sets attribute `name` to String(value), or removes it when value is null or undefined; only if it differs. */
export function setAttr(el, name, value) {
  if (value === null || value === undefined) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const text = String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

/** Sets several attributes (setAttr each). */
export function setAttrs(el, attributes) {
  for (const [name, value] of Object.entries(attributes)) setAttr(el, name, value);
}

/** Sets `el`'s text, if it differs: in the text node already there when it has one (no node made anew). */
export function setText(el, text) {
  if (el.textContent === text) return;
  const only = el.firstChild;
  if (only && only === el.lastChild && only.nodeType === Node.TEXT_NODE && text !== '') only.data = text;
  else el.textContent = text;
}

/** Sets inline style properties (camelCase names, or custom properties as '--name'), those that differ. */
export function setStyle(el, properties) {
  for (const [name, value] of Object.entries(properties)) {
    if (name.startsWith('--')) {
      if (el.style.getPropertyValue(name) !== value) el.style.setProperty(name, value);
    } else if (el.style[name] !== value) el.style[name] = value;
  }
}

/**
 * Shows or hides `el`, only if that changes: an HTML element by its `hidden` attribute, an SVG element (which has none)
 * by its `display` attribute. Setting the attribute again to what it was still makes the browser invalidate the
 * element's style, and the explorer syncs its parts on every keystroke.
 */
export function setHidden(el, hidden) {
  if (el instanceof SVGElement) setAttr(el, 'display', hidden ? 'none' : null);
  else if (el.hidden !== hidden) el.hidden = hidden;
}

/**
 * The first child of `parent` matching `selector`, or a new element made by `create()` and inserted
 * before `before` (appended when null): an optional part of a figure, found again at its next update.
 * @param {Element} parent @param {string} selector @param {() => Element} create @param {Node | null} [before]
 */
export function childOrNew(parent, selector, create, before = null) {
  return parent.querySelector(`:scope > ${selector}`) ?? parent.insertBefore(create(), before);
}

/** Read by screen readers, not drawn (inline, so it holds without any stylesheet). */
export function visuallyHidden(element) {
  Object.assign(element.style, {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '0',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  });
}
