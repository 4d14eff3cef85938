// A model's heads as small multiples, layers × heads, each its weights on the sentence and what it does in a few
// words: the Attention chapter's heads of every model (the designed heads are a one-layer model) and the Learn
// chapter's heads in training draw the same figure from a Run (models/run.js). Redrawn on every keystroke, it updates
// in place: the same items, canvases and texts, written only where they changed (dom-update.js). The thumbnails' cells
// are drawn into one canvas over the grid (cell-atlas.js: a canvas per thumbnail costs a composited layer each).
import { weightColorMap } from './colors.js';
import { CellAtlas } from './cell-atlas.js';
import { cellCanvas } from './cell-canvas.js';
import { setAttrs, setHidden, setStyle, setText } from './dom-update.js';
import { jobDefinitions } from './head-jobs.js';
import { headName } from './labels.js';

const GRID_PX = 56; // each small multiple's side in the grid of layers × heads
const LIST_PX = 64; // … in the list of one layer's heads, each with its lines beside it

/**
 * @param {{ tokens: object[], attention: { data: Float32Array, shape: number[] }, heads: { layer: number, head: number,
 *   label: string, kind: string, score: number, does?: string, dims?: string, definitions?: string[] }[],
 *   causal: boolean, masks?: { data: Uint8Array } }} run  a Run (models/run.js); masks: 1 where a head's score was −∞
 *   (the designed heads' own-position and padding masks), else the causal mask
 * @param {{ selected: { layer: number, head: number } | null, caption?: string | null, colorMap?: string,
 *   canvas?: (key: string) => HTMLCanvasElement, name?: string, knockout?: { layer: number, head: number }[],
 *   last?: HTMLElement }} options
 *   selected: the selected head, or null where heads are not chosen here (then each is a plain item); caption: the
 *   figure's, or none; name: the figure's data-figure; knockout: the heads switched off in this run, given where heads
 *   can be switched off (each item then has a switch, and the figure a "switch all back on" button while any is off);
 *   last: the figure drawn before, updated in place when it shows the same heads; canvas: the figure's canvases by key
 *   (kept from draw to draw), for each head's cells ('head-' + index, layer-major)
 * @returns {HTMLElement} a <figure data-figure="heads">: one button per head (data-layer, data-head from 0, data-label,
 *   data-score, a title defining its label, its thumbnail's place .head-cells with the cells as exportCells, one pixel
 *   per cell), each dispatching CustomEvent("choose", { detail: { head: { layer, head } }, bubbles }); heads that say
 *   what they do (does, dims) as a list, with those lines beside them (.head-does, .head-dims), else a grid of
 *   layers × heads; under them the labels' definitions (head-jobs.js);
 *   with knockout, per head a <button class="head-switch" aria-pressed> (pressed: off) and a head that is off has
 *   data-off on its item and its button; each switch dispatches "choose" with { knockout: the list with it toggled }
 */
export function headThumbs(
  run,
  { selected, caption = null, colorMap = 'viridis', canvas, name = 'heads', knockout, last },
) {
  const [numLayers, numHeads, T] = run.attention.shape;
  const list = run.heads.some((h) => h.does || h.dims);
  const shape = [
    numLayers,
    numHeads,
    list ? 'list' : 'grid',
    selected === null ? 'items' : 'buttons',
    Boolean(knockout),
  ];
  const reuse = last?.dataset.figure === name && last.dataset.shape === shape.join();
  const figure = reuse ? last : newFigure(name, shape, numHeads, list);
  figure.knockout = knockout ?? [];
  const captionEl = figure.querySelector(':scope > figcaption');
  setHidden(captionEl, !caption);
  setText(captionEl, caption ?? '');
  const color = weightColorMap(colorMap);
  const cell = Math.max(1, (list ? LIST_PX : GRID_PX) / Math.max(T, 1));
  const items = figure.querySelector(':scope > .head-box > ol').children;
  const thumbnails = [];
  run.heads.forEach((h, index) => {
    const item = items[index];
    const button = item.firstChild;
    const chosen = selected !== null && selected.layer === h.layer && selected.head === h.head;
    setAttrs(button, {
      class: chosen ? 'head-thumb selected' : 'head-thumb',
      'aria-pressed': selected === null ? null : chosen,
      'data-label': h.kind,
      'data-score': h.score,
      title: h.definitions ? h.definitions.join('\n') : null,
    });
    const off = Boolean(knockout?.some((k) => k.layer === h.layer && k.head === h.head));
    setAttrs(item, { 'data-off': off ? '' : null });
    setAttrs(button, { 'data-off': off ? '' : null });
    const place = button.firstChild;
    place.exportCells = cellCanvas({
      rows: T,
      cols: T,
      values: run.attention.data.subarray(index * T * T, (index + 1) * T * T),
      color,
      domain: [0, 1],
      cellWidth: cell,
      cellHeight: cell,
      isMasked: headMask(run, index),
      canvas: canvas?.(`head-${index}`) ?? place.exportCells,
    });
    setStyle(place, { width: `${T * cell}px`, height: `${T * cell}px` });
    thumbnails.push({ place, cells: place.exportCells, dim: off });
    const [strong, line, does, dims] = button.querySelector('.head-label').children;
    setText(strong.firstChild, headName(h));
    const badge = strong.querySelector('.off-badge');
    if (off && !badge)
      strong.append(Object.assign(document.createElement('span'), { className: 'off-badge', textContent: 'off' }));
    else if (!off) badge?.remove();
    setText(line, h.label);
    for (const [el, text] of [
      [does, h.does],
      [dims, h.dims],
    ]) {
      setHidden(el, !text);
      setText(el, text ?? '');
    }
    if (knockout) syncSwitch(item.querySelector('.head-switch'), h, off);
  });
  figure.atlas.draw(thumbnails);
  // "Switch all heads back on", while any is off (before the definitions).
  const allOn = figure.querySelector(':scope > .heads-all-on');
  if (knockout?.length) {
    const button = allOn ?? allOnButton();
    if (!allOn) figure.querySelector(':scope > .head-box').after(button);
    setText(button, `Switch all heads back on (${knockout.length} off)`);
  } else allOn?.remove();
  // The definitions change only with the labels (another model, or a model measured again): compared as text.
  const definitions = jobDefinitions(run.heads);
  const shown = figure.querySelector(':scope > .job-definitions');
  if (shown?.textContent !== definitions?.textContent) {
    shown?.remove();
    if (definitions) figure.append(definitions);
  }
  return figure;
}

/**
 * The masked cells of head `index` (layer-major) of a Run: its masks where it has them (the designed heads'), else its
 * causal mask; undefined for none.
 * @returns {((i: number, j: number) => boolean) | undefined}
 */
export function headMask(run, index) {
  const T = run.attention.shape[2];
  if (run.masks) {
    const base = index * T * T;
    return (i, j) => run.masks.data[base + i * T + j] === 1;
  }
  return run.causal ? (i, j) => j > i : undefined;
}

/**
 * The figure's frame for heads of this shape: a caption, and one item per head in a box that also holds the canvas
 * their thumbnails are drawn in (figure.atlas: its own, never another figure's, whose observer may still draw once).
 */
function newFigure(name, shape, numHeads, list) {
  const [numLayers, , , kind, switches] = shape;
  const figure = document.createElement('figure');
  Object.assign(figure.dataset, { figure: name, shape: shape.join() });
  figure.appendChild(document.createElement('figcaption'));
  const box = figure.appendChild(document.createElement('div'));
  box.className = 'head-box';
  const items = box.appendChild(document.createElement('ol'));
  items.className = list ? 'head-grid' : 'head-grid trained-grid';
  setStyle(items, { '--heads': String(numHeads) });
  for (let index = 0; index < numLayers * numHeads; index++) {
    const ref = { layer: Math.floor(index / numHeads), head: index % numHeads };
    const item = items.appendChild(document.createElement('li'));
    item.appendChild(headButton(ref, kind === 'buttons'));
    if (switches) item.appendChild(headSwitch(figure, ref));
  }
  figure.atlas = new CellAtlas(box);
  return figure;
}

/** "Switch all heads back on": a button that empties the knockout list. */
function allOnButton() {
  const all = document.createElement('button');
  all.type = 'button';
  all.className = 'heads-all-on';
  all.addEventListener('click', () =>
    all.dispatchEvent(new CustomEvent('choose', { detail: { knockout: [] }, bubbles: true })),
  );
  return all;
}

/**
 * A head's thumbnail (the place its cells are drawn over, with them off the page as exportCells from the first draw:
 * downloads read them there) and its lines; a button choosing it, or a plain item.
 */
function headButton(ref, choosable) {
  const button = document.createElement(choosable ? 'button' : 'div');
  Object.assign(button.dataset, { layer: String(ref.layer), head: String(ref.head) });
  if (choosable) {
    button.type = 'button';
    button.addEventListener('click', () =>
      button.dispatchEvent(new CustomEvent('choose', { detail: { head: { ...ref } }, bubbles: true })),
    );
  }
  const place = button.appendChild(document.createElement('span'));
  place.className = 'head-cells';
  place.dataset.exportCells = '';
  const text = button.appendChild(document.createElement('span'));
  text.className = 'head-label';
  const strong = text.appendChild(document.createElement('strong'));
  strong.append(''); // its name; an "off" badge follows while the head is switched off
  for (const className of ['head-line', 'head-does', 'head-dims'])
    text.appendChild(Object.assign(document.createElement('span'), { className }));
  return button;
}

/** A head's knockout switch (a toggle button after its thumbnail): it toggles the head in the figure's knockout list. */
function headSwitch(figure, ref) {
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'head-switch';
  toggle.addEventListener('click', () => {
    const on = !figure.knockout.some((h) => h.layer === ref.layer && h.head === ref.head);
    const next = on
      ? [...figure.knockout, ref]
      : figure.knockout.filter((h) => h.layer !== ref.layer || h.head !== ref.head);
    toggle.dispatchEvent(
      new CustomEvent('choose', { detail: { knockout: next.map((h) => ({ ...h })) }, bubbles: true }),
    );
  });
  return toggle;
}

/** A switch's state: pressed and "switch on" while its head is off. */
function syncSwitch(toggle, ref, off) {
  const name = headName(ref);
  setAttrs(toggle, {
    'aria-pressed': off,
    'aria-label': off ? `Switch ${name} back on` : `Switch ${name} off (knock it out)`,
  });
  setText(toggle, off ? 'switch on' : 'switch off');
}
