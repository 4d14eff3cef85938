// Layout helpers of the explorer's page inside its shadow root: elements, titled sections, rows of
// figures side by side, regions that scroll sideways, and labelled text boxes.

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** A titled section of the explorer (h2); a subsection (h3) is one inside the lab. */
export function section(title, intro, ...children) {
  return titled(2, title, intro, children);
}

export function subsection(title, intro, ...children) {
  return titled(3, title, intro, children);
}

function titled(level, title, intro, children) {
  const el = element('section');
  el.append(element(`h${level}`, '', title));
  if (intro) el.append(element('p', 'intro', intro));
  el.append(...children);
  return el;
}

/** A labelled text box (a textarea of `rows` rows, default 1: long text wraps and scrolls); onInput(value) on every edit. */
export function textBox(labelText, onInput, rows = 1) {
  const label = element('label', 'sentence-label', labelText);
  const box = label.appendChild(document.createElement('textarea'));
  box.rows = rows;
  box.spellcheck = false;
  box.addEventListener('input', () => onInput(box.value));
  return box;
}

/**
 * A region that scrolls sideways when what it holds is wider than the element (a wide table): named by
 * `label` and reachable by Tab, so that keyboard and screen-reader users can scroll it too.
 */
export function scrollRegion(className, label, ...children) {
  const region = element('div', className);
  region.tabIndex = 0;
  region.setAttribute('role', 'region');
  region.setAttribute('aria-label', label);
  region.append(...children);
  return region;
}

export function row(...children) {
  const el = element('div', 'side-by-side');
  el.append(...children);
  return el;
}
