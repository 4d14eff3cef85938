// Formulas typeset by KaTeX as MathML, which browsers render natively: no fonts, no inline styles, so
// the page works under a strict Content-Security-Policy (style-src 'self').
import katex from 'katex';

const TEX = {
  attention:
    String.raw`\begin{gathered}\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}\,\tau}+M\right)V\\[2pt] ` +
    String.raw`Q=(X+P)\,W_Q,\quad K=(X+P)\,W_K,\quad V=(X+P)\,W_V\end{gathered}`,
  positional:
    String.raw`P_{i,2j}=\sin\!\left(\frac{i}{10000^{2j/d_{\mathrm{model}}}}\right),\qquad ` +
    String.raw`P_{i,2j+1}=\cos\!\left(\frac{i}{10000^{2j/d_{\mathrm{model}}}}\right)`,
  lookup:
    String.raw`\underbrace{\textstyle\sum_j \delta(q, k_j)\, v_j}_{\text{exact lookup}}\;\longrightarrow\;` +
    String.raw`\underbrace{\textstyle\sum_j \alpha(q, k_j)\, v_j}_{\text{attention}},\qquad` +
    String.raw`\alpha(q, k_j) = \mathrm{softmax}_j\!\left(\frac{\cos(\phi(q), \phi(k_j))}{\tau}\right)`,
};

/**
 * Typesets TeX into a new element.
 * @param {string} tex  TeX source @param {{ display?: boolean, tag?: string }} [options]
 * @returns {HTMLElement}
 */
export function math(tex, { display = false, tag = 'span' } = {}) {
  const el = document.createElement(tag);
  el.className = 'formula';
  el.innerHTML = typeset(tex, display); // KaTeX's own markup of our fixed TeX, never user text
  return el;
}

const typesetCache = new Map(); // the same few formulas are drawn on every keystroke: typeset each once

function typeset(tex, display) {
  const key = `${display ? 'D' : 'I'}${tex}`;
  if (!typesetCache.has(key)) {
    typesetCache.set(key, katex.renderToString(tex, { displayMode: display, throwOnError: false, output: 'mathml' }));
  }
  return typesetCache.get(key);
}

/**
 * The named formulas wait to be typeset until they come near the viewport: they sit in chapters that start closed,
 * and their MathML is a few hundred DOM nodes that every style and layout pass of the first screen would walk.
 */
const unseen = globalThis.IntersectionObserver
  ? new IntersectionObserver(
      (entries) => {
        for (const { isIntersecting, target } of entries) {
          if (!isIntersecting) continue;
          unseen.unobserve(target);
          target.innerHTML = typeset(TEX[target.dataset.formula], true);
        }
      },
      { rootMargin: '400px' },
    )
  : null;

/**
 * A named display formula of the page, typeset when it first comes within 400 px of the viewport (at once where
 * IntersectionObserver is missing).
 * @param {'attention' | 'positional' | 'lookup'} name
 * @returns {HTMLElement} a <div class="formula" data-formula="name">
 * @throws {RangeError} for a name not in the table
 */
export function formula(name) {
  if (!Object.hasOwn(TEX, name)) throw new RangeError(`formula: no formula named '${name}'`);
  const div = document.createElement('div');
  div.className = 'formula';
  div.dataset.formula = name;
  div.tabIndex = 0; // it scrolls sideways in a narrow explorer: keyboard users must reach it too
  if (unseen) unseen.observe(div);
  else div.innerHTML = typeset(TEX[name], true); // KaTeX's own markup of our fixed TeX, never user text
  return div;
}
