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
 * A named display formula of the page.
 * @param {'attention' | 'positional'} name
 * @returns {HTMLElement} a <div class="formula">
 */
export function formula(name) {
  const div = math(TEX[name], { display: true, tag: 'div' });
  div.dataset.formula = name;
  div.tabIndex = 0; // it scrolls sideways in a narrow explorer: keyboard users must reach it too
  return div;
}
