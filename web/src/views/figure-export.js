// Downloads of a figure: SVG and PNG of what is drawn (canvas cells become SVG rectangles, styles are
// inlined so the file stands alone), and each matrix as CSV and JSON with its token labels and shape.
import { MASKED_FILL } from './cell-canvas.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MAX_RECT_CELLS = 40000; // above this, the cells go in as one embedded image (files stay small)
const PNG_SCALE = 2;
const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'visibility',
];

/**
 * Gives every innermost <figure> in `slot` a "Download" menu (its buttons are made when first opened).
 * @param {HTMLElement} slot
 */
export function addExportMenus(slot) {
  for (const figure of slot.querySelectorAll('figure')) {
    if (figure.querySelector('figure') || figure.querySelector(':scope > .export-menu')) continue; // updated in place
    const menu = document.createElement('details');
    menu.className = 'export-menu';
    menu.appendChild(document.createElement('summary')).textContent = 'Download';
    // Filled when first opened; its labels name the caption at each opening (a figure updated in place keeps its menu).
    menu.addEventListener('toggle', () => menu.open && fillMenu(menu, figure));
    const caption = figure.querySelector(':scope > figcaption');
    if (caption) caption.after(menu);
    else figure.prepend(menu);
  }
}

function fillMenu(menu, figure) {
  const formats = figure.exportData ? ['svg', 'png', 'csv', 'json'] : ['svg', 'png'];
  for (const format of formats) {
    const button =
      menu.querySelector(`[data-export="${format}"]`) ?? menu.appendChild(document.createElement('button'));
    button.type = 'button';
    button.dataset.export = format;
    button.textContent = format.toUpperCase();
    button.setAttribute(
      'aria-label',
      `Download ${format.toUpperCase()} of “${figure.querySelector('figcaption')?.textContent ?? 'figure'}”`,
    );
  }
}

/**
 * Downloads `figure` as `format`.
 * @param {HTMLElement} figure @param {'svg' | 'png' | 'csv' | 'json'} format @param {object} state  recorded in JSON
 */
export async function exportFigure(figure, format, state) {
  const name = `attention-explorer-${figure.dataset.figure ?? 'figure'}`;
  if (format === 'svg') download(new Blob([figureSvg(figure)], { type: 'image/svg+xml' }), `${name}.svg`);
  else if (format === 'png') download(await svgToPng(figureSvg(figure)), `${name}.png`);
  else if (format === 'csv') download(new Blob([matrixCsv(figure.exportData)], { type: 'text/csv' }), `${name}.csv`);
  else if (format === 'json')
    download(new Blob([matrixJson(figure.exportData, state)], { type: 'application/json' }), `${name}.json`);
}

/** Saves `blob` as a file named `filename` (the browser's download). */
export function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/** Whether `el` is drawn (not display:none, not inside a closed <details>). */
function drawn(el) {
  return el.getClientRects().length > 0 && !el.closest('details:not([open])');
}

const CAPTION_LINE_PX = 18;
const CAPTION_CHAR_PX = 7.5; // average width of a caption character at 13 px

/** Words of `text` in lines of at most `chars` characters. */
function wrap(text, chars) {
  const lines = [];
  for (const word of text.split(/\s+/)) {
    if (lines.length && lines.at(-1).length + word.length < chars) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * The figure as it is drawn, as a standalone SVG document: its caption (wrapped to the figure's width),
 * then its canvases (as cells) and SVG parts, placed as on the page.
 * @param {HTMLElement} figure @returns {string}
 */
export function figureSvg(figure) {
  // Measured whole: a part that scrolls in a box (a long sentence's heatmap, the mix's rows) is laid out at its full
  // size while the figure is read (heatmap.css .exporting), then the page goes back to what it was.
  const scrolled = [...figure.querySelectorAll('.heatmap-scroll, .mix-keys')].map((el) => [
    el,
    el.scrollLeft,
    el.scrollTop,
  ]);
  figure.classList.add('exporting');
  try {
    return placedSvg(figure);
  } finally {
    figure.classList.remove('exporting');
    for (const [el, left, top] of scrolled) el.scrollTo(left, top);
  }
}

/** figureSvg(), of a figure laid out whole. */
function placedSvg(figure) {
  const box = figure.getBoundingClientRect();
  // Canvases and SVG parts, HTML labels marked data-export-text (a grid's head names), and places marked
  // data-export-cells whose cells are kept off the page as el.exportCells (cell-atlas.js: the canvas drawing them on
  // the page is marked data-export-skip), placed as drawn.
  const parts = [...figure.querySelectorAll('canvas, svg, [data-export-text], [data-export-cells]')]
    .filter((el) => !el.parentElement.closest('svg') && !('exportSkip' in el.dataset) && drawn(el))
    .map((el) => ({ el, r: el.getBoundingClientRect() }));
  const left = Math.min(...parts.map(({ r }) => r.left - box.left), 0);
  const top = Math.min(...parts.map(({ r }) => r.top));
  const width = Math.ceil(Math.max(...parts.map(({ r }) => r.right - box.left - left), 360));
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('xmlns', SVG_NS);
  const background = svg.appendChild(document.createElementNS(SVG_NS, 'rect'));
  background.setAttribute('fill', backgroundOf(figure));
  const caption = figure.querySelector('figcaption');
  const lines = caption ? wrap(caption.textContent, Math.floor(width / CAPTION_CHAR_PX)) : [];
  lines.forEach((line, k) => {
    const text = svg.appendChild(styledClone(caption, document.createElementNS(SVG_NS, 'text')));
    text.textContent = line;
    text.setAttribute('x', '0');
    text.setAttribute('y', String(14 + k * CAPTION_LINE_PX));
  });
  const below = lines.length * CAPTION_LINE_PX + 6;
  let height = below;
  for (const { el, r } of parts) {
    const x = r.left - box.left - left,
      y = below + r.top - top;
    svg.appendChild(
      el instanceof HTMLCanvasElement || el.exportCells
        ? cells(el.exportCells ?? el, x, y, r)
        : el instanceof SVGElement
          ? inlined(el, x, y, r)
          : label(el, x, y, r),
    );
    height = Math.max(height, y + r.height);
  }
  height = Math.ceil(height + 4);
  for (const [key, value] of [
    ['width', width],
    ['height', height],
    ['viewBox', `0 0 ${width} ${height}`],
  ])
    svg.setAttribute(key, String(value));
  background.setAttribute('width', String(width));
  background.setAttribute('height', String(height));
  return new XMLSerializer().serializeToString(svg);
}

/** An HTML label as SVG text in its font and colour (styledClone), on the baseline of its box. */
function label(el, x, y, r) {
  const text = styledClone(el, document.createElementNS(SVG_NS, 'text'));
  text.textContent = el.textContent;
  text.setAttribute('x', String(x));
  text.setAttribute('y', String(y + r.height * 0.75));
  return text;
}

function backgroundOf(el) {
  for (let node = el; node instanceof Element; node = node.parentElement ?? node.getRootNode().host) {
    const color = getComputedStyle(node).backgroundColor;
    if (color && color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
  }
  return '#ffffff';
}

/** A canvas of one pixel per cell as SVG rectangles (or one image when there are very many cells). */
function cells(canvas, x, y, r) {
  const group = document.createElementNS(SVG_NS, 'g');
  group.setAttribute('transform', `translate(${x}, ${y})`);
  const { width: cols, height: rows } = canvas;
  if (rows * cols > MAX_RECT_CELLS) {
    const image = group.appendChild(document.createElementNS(SVG_NS, 'image'));
    for (const [key, value] of [
      ['href', canvas.toDataURL()],
      ['width', r.width],
      ['height', r.height],
      ['preserveAspectRatio', 'none'],
      ['image-rendering', 'pixelated'],
    ])
      image.setAttribute(key, String(value));
    return group;
  }
  const pixels = canvas.getContext('2d').getImageData(0, 0, cols, rows).data;
  const w = r.width / cols,
    h = r.height / rows;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const at = (i * cols + j) * 4;
      const rect = group.appendChild(document.createElementNS(SVG_NS, 'rect'));
      for (const [key, value] of [
        ['x', j * w],
        ['y', i * h],
        ['width', w],
        ['height', h],
        ['fill', pixels[at + 3] === 0 ? MASKED_FILL : `rgb(${pixels[at]},${pixels[at + 1]},${pixels[at + 2]})`],
      ])
        rect.setAttribute(key, String(value));
    }
  }
  return group;
}

/** A copy of an <svg> placed at (x, y), with the styles CSS gave it written on each element. */
function inlined(svg, x, y, r) {
  const copy = svg.cloneNode(true);
  copy.setAttribute('x', String(x));
  copy.setAttribute('y', String(y));
  copy.setAttribute('width', String(r.width));
  copy.setAttribute('height', String(r.height));
  copy.removeAttribute('class');
  const originals = svg.querySelectorAll('*');
  copy.querySelectorAll('*').forEach((el, k) => styledClone(originals[k], el));
  return copy;
}

/** Writes the computed styles of `from` onto `to` as presentation attributes (a style attribute would break a strict CSP). */
function styledClone(from, to) {
  const style = getComputedStyle(from);
  for (const property of STYLE_PROPERTIES) to.setAttribute(property, style.getPropertyValue(property));
  if (from instanceof HTMLElement) to.setAttribute('fill', style.color); // a caption's text colour
  return to;
}

/** Renders SVG text to a PNG at twice its size. */
async function svgToPng(svgText) {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth * PNG_SCALE;
    canvas.height = image.naturalHeight * PNG_SCALE;
    const context = canvas.getContext('2d');
    context.scale(PNG_SCALE, PNG_SCALE);
    context.drawImage(image, 0, 0);
    return await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A float32 value in as few digits as bring it back exactly. */
function number(value) {
  return Number.isFinite(value) ? String(Number(value.toPrecision(9))) : String(value);
}

function csvField(text) {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function isMasked(data, i, j) {
  return data.masked ? data.masked[i * data.shape[1] + j] === 1 : false;
}

/**
 * A matrix as CSV: a header of column labels (its corner cell names both axes), then one line per row
 * starting with its label. Masked cells are empty.
 * @param {{ shape: [number, number], values: Float32Array, rowLabels: string[], colLabels: string[],
 *   rowTitle: string, colTitle: string, masked?: Uint8Array }} data  a heatmap figure's exportData
 * @returns {string}
 */
export function matrixCsv(data) {
  const [rows, cols] = data.shape;
  const lines = [[`${data.rowTitle} \\ ${data.colTitle}`, ...data.colLabels].map((t) => csvField(String(t))).join(',')];
  for (let i = 0; i < rows; i++) {
    const values = Array.from({ length: cols }, (_, j) =>
      isMasked(data, i, j) ? '' : number(data.values[i * cols + j]),
    );
    lines.push([csvField(String(data.rowLabels[i])), ...values].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A matrix as JSON: { figure, caption, shape, rowTitle, colTitle, rowLabels, colLabels, values: rows of
 * numbers (masked or non-finite cells null), state }.
 * @returns {string}
 */
export function matrixJson(data, state) {
  const [rows, cols] = data.shape;
  const values = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => {
      const value = data.values[i * cols + j];
      return isMasked(data, i, j) || !Number.isFinite(value) ? null : Number(value.toPrecision(9));
    }),
  );
  const { name: figure, caption, shape, rowTitle, colTitle, rowLabels, colLabels } = data;
  return JSON.stringify({ figure, caption, shape, rowTitle, colTitle, rowLabels, colLabels, values, state }, null, 1);
}
