// The logit lens (nostalgebraist 2020, "interpreting GPT: the logit lens"): a checkpoint's residual stream after the
// input and after each block, read through its final LayerNorm and unembedding as if the model stopped there — a layer
// × position grid of each row's likeliest next token (core languageModel logitLens()). In GPT-2 the guesses of the
// early layers are poor and sharpen towards the last, which is the model's own prediction. Measured on request: each
// cell is an output layer over 50,257 pieces ((L + 1) · T of them).
import { interpolateBlues } from 'd3-scale-chromatic';
import { setText } from '../../views/dom-update.js';
import { element } from '../../views/layout.js';

/** A row's name: the input, then after each block, L1 … (the last: the model's own prediction). */
function rowName(layer, numLayers) {
  if (layer === 0) return 'input (wte + wpe)';
  return `after L${layer}${layer === numLayers ? ' (the output)' : ''}`;
}

/** A piece as a cell shows it: its leading space as "␣". */
const shown = (piece) => (piece.startsWith(' ') ? `␣${piece.slice(1)}` : piece);

/**
 * @param {import('../../models/run.js').Run} run  a checkpoint's Run (its tokens, config)
 * @param {{ lens: object | null, text: string | null }} measured  core logitLens() of `text`, or null (not read yet)
 * @returns {HTMLElement} <figure data-figure="logit-lens" data-state="unread" | "read" | "stale">, its button dispatching
 *   CustomEvent("read-lens", { bubbles: true })
 */
export function logitLensView(run, { lens, text }) {
  const figure = element('figure', 'logit-lens');
  figure.dataset.figure = 'logit-lens';
  const { numLayers } = run.config;
  const cells = (numLayers + 1) * run.tokens.length;
  const caption = figure.appendChild(element('figcaption'));
  setText(
    caption,
    'The logit lens: what each layer would predict if the model stopped there — the residual stream after the input ' +
      'and after each block, through the final LayerNorm and wteᵀ. Each cell: the likeliest next token at that ' +
      'position, shaded by its probability; outlined where it is the token that came.',
  );
  const button = figure.appendChild(element('button', 'read-lens', `Read every layer (${cells} output layers)`));
  button.type = 'button';
  button.addEventListener('click', () => figure.dispatchEvent(new CustomEvent('read-lens', { bubbles: true })));
  const current = lens && text === run.text;
  figure.dataset.state = !lens ? 'unread' : current ? 'read' : 'stale';
  if (!current) {
    if (lens) figure.append(element('p', 'hint', 'The sentence changed: read the layers again.'));
    return figure;
  }
  const table = figure.appendChild(element('table', 'lens-grid'));
  const head = table.createTHead().insertRow();
  head.appendChild(element('th', '', 'layer ↓ / position →'));
  for (const token of lens.tokens) head.appendChild(element('th', '', shown(token.text))).setAttribute('scope', 'col');
  const body = table.createTBody();
  lens.layers.forEach((row, layer) => {
    const tr = body.insertRow();
    tr.appendChild(element('th', '', rowName(layer, numLayers))).setAttribute('scope', 'row');
    row.forEach(({ position, top, next }) => {
      const [best] = top;
      const came = lens.tokens[position + 1];
      const td = tr.appendChild(element('td', came?.id === best.id ? 'came' : '', shown(best.word)));
      td.style.background = interpolateBlues(0.1 + 0.8 * best.p);
      td.style.color = best.p > 0.5 ? 'white' : 'black';
      td.title =
        `${rowName(layer, numLayers)}, after “${shown(lens.tokens[position].text)}”: “${shown(best.word)}” p = ` +
        `${best.p.toFixed(3)}` +
        (came ? `; the token that came, “${shown(came.text)}”: p = ${next.toExponential(2)}` : '');
    });
  });
  return figure;
}
