// A model's heads as small multiples, layers × heads, each its weights on the sentence and what it does in a few
// words: the Attention chapter's trained heads and the Learn chapter's heads in training draw the same figure
// from a Run (models/run.js).
import { weightColorMap } from './colors.js';
import { cellCanvas } from './cell-canvas.js';
import { jobDefinitions } from './head-jobs.js';
import { headName } from './labels.js';

const GRID_PX = 56; // each small multiple's side

/**
 * @param {{ tokens: object[], attention: { data: Float32Array, shape: number[] }, heads: { layer: number, head: number,
 *   label: string, kind: string, score: number }[], causal: boolean }} run  a Run (models/run.js)
 * @param {{ selected: { layer: number, head: number } | null, caption: string, colorMap?: string,
 *   canvas?: (key: string) => HTMLCanvasElement, name?: string, knockout?: { layer: number, head: number }[] }} options
 *   selected: the selected head, or null where heads are not chosen here (then each is a plain item); name: the figure's
 *   data-figure; knockout: the heads switched off in this run, given where heads can be switched off (each item then
 *   has a switch, and the figure a "switch all back on" button while any is off)
 * @returns {HTMLElement} a <figure data-figure="trained-heads">: one button per head (data-layer, data-head from 0,
 *   data-label, data-score, a title defining its label), each dispatching CustomEvent("choose", { detail: { head:
 *   { layer, head } }, bubbles }); under them the labels' definitions (head-jobs.js);
 *   with knockout, per head a <button class="head-switch" aria-pressed> (pressed: off) and a head that is off has
 *   data-off on its item and its button; each switch dispatches "choose" with { knockout: the list with it toggled }
 */
export function headThumbs(run, { selected, caption, colorMap = 'viridis', canvas, name = 'trained-heads', knockout }) {
  const [numLayers, numHeads, T] = run.attention.shape;
  const color = weightColorMap(colorMap);
  const cell = Math.max(1, GRID_PX / Math.max(T, 1));
  const figure = document.createElement('figure');
  figure.dataset.figure = name;
  figure.appendChild(document.createElement('figcaption')).textContent = caption;
  const list = figure.appendChild(document.createElement('ol'));
  list.className = 'head-grid trained-grid';
  list.style.setProperty('--heads', String(numHeads));
  for (let index = 0; index < numLayers * numHeads; index++) {
    const { layer, head, label, kind, score, definitions } = run.heads[index];
    const chosen = selected !== null && selected.layer === layer && selected.head === head;
    const item = list.appendChild(document.createElement('li'));
    const button = selected === null ? item : item.appendChild(document.createElement('button'));
    button.className = chosen ? 'head-thumb selected' : 'head-thumb';
    if (selected !== null) {
      button.type = 'button';
      button.setAttribute('aria-pressed', String(chosen));
      button.addEventListener('click', () =>
        button.dispatchEvent(new CustomEvent('choose', { detail: { head: { layer, head } }, bubbles: true })),
      );
    }
    Object.assign(button.dataset, { layer: String(layer), head: String(head), label: kind, score: String(score) });
    if (definitions) button.title = definitions.join('\n');
    button.append(
      cellCanvas({
        rows: T,
        cols: T,
        values: run.attention.data.subarray(index * T * T, (index + 1) * T * T),
        color,
        domain: [0, 1],
        cellWidth: cell,
        cellHeight: cell,
        isMasked: run.causal ? (i, j) => j > i : undefined,
        canvas: canvas?.(`head-${index}`),
      }),
    );
    const text = button.appendChild(document.createElement('span'));
    text.className = 'head-label';
    text.append(
      Object.assign(document.createElement('strong'), { textContent: headName({ layer, head }) }),
      Object.assign(document.createElement('span'), { className: 'head-line', textContent: label }),
    );
    if (knockout) headSwitch(item, button, { layer, head }, knockout);
  }
  if (knockout?.length) figure.append(allOnButton(knockout.length));
  const definitions = jobDefinitions(run.heads);
  if (definitions) figure.append(definitions);
  return figure;
}

/** One head's knockout switch (a toggle button after its thumbnail), and its item marked off when it is. */
function headSwitch(item, button, ref, knockout) {
  const off = knockout.some((h) => h.layer === ref.layer && h.head === ref.head);
  const name = headName(ref);
  if (off) {
    item.dataset.off = '';
    button.dataset.off = '';
    button
      .querySelector('.head-label strong')
      .append(Object.assign(document.createElement('span'), { className: 'off-badge', textContent: 'off' }));
  }
  const toggle = item.appendChild(document.createElement('button'));
  toggle.type = 'button';
  toggle.className = 'head-switch';
  toggle.setAttribute('aria-pressed', String(off));
  toggle.setAttribute('aria-label', off ? `Switch ${name} back on` : `Switch ${name} off (knock it out)`);
  toggle.textContent = off ? 'switch on' : 'switch off';
  const next = off ? knockout.filter((h) => h.layer !== ref.layer || h.head !== ref.head) : [...knockout, ref];
  toggle.addEventListener('click', () =>
    toggle.dispatchEvent(
      new CustomEvent('choose', { detail: { knockout: next.map((h) => ({ ...h })) }, bubbles: true }),
    ),
  );
}

/** "Switch all heads back on": shown while any head is off. */
function allOnButton(count) {
  const all = document.createElement('button');
  all.type = 'button';
  all.className = 'heads-all-on';
  all.textContent = `Switch all heads back on (${count} off)`;
  all.addEventListener('click', () =>
    all.dispatchEvent(new CustomEvent('choose', { detail: { knockout: [] }, bubbles: true })),
  );
  return all;
}
