// The mix: one query's output built as the weighted sum of the value vectors (Vaswani et al. 2017
// eq. 1, row i: z_i = Σ_j a_ij v_j; the figure follows Alammar, "The Illustrated Transformer"), for a
// designed head of the trace or the selected head of a trained model (its real value vectors).
// Each key j is one row: its word, its weight a_ij as a bar, and a_ij·v_j as a strip of d_v cells —
// rows with little weight fade to white — stacked above their sum z_i, the head's output row i.
// One canvas for every row (a keystroke redraws it without building per-row DOM).
import { format } from 'd3-format';
import { divergingColor, maxAbs, roundedLimit } from '../../views/colors.js';
import { cellCanvas } from '../../views/cell-canvas.js';
import { setAttr, setAttrs, setStyle, setText } from '../../views/dom-update.js';
import { tokenBandPx } from '../../views/heatmap.js';
import { legend } from '../../views/legend.js';
import { tokenLabels } from '../../views/labels.js';
import { modelKindName } from '../../models/model-facts.js';
import { emptyReason, rowStatus, selfOnlyText } from '../../models/row-status.js';
import { headCounts, headIndex, headName } from '../../models/run.js';

const fmt = format('.2f');
const LABEL_PX = 86; // the words' column
const GAP_PX = 40; // between the bars and the strips (holds the weight's number)
const WIDTH_PX = 560; // the whole figure, at most (narrow screens: their width)
const HEIGHT_PX = 360; // every key row together, where they fit
const SUM_GAP_PX = 14; // between the stacked rows and their sum
const SUM_PX = 20; // the sum's strip
const KEYS_MIN_PX = 288, // the key rows' box, at most: this, or this share of the window's height if more
  KEYS_SHARE = 0.6;
// Each key row is a token's band (as the weights' heatmap rows): at least tall enough for its word in a 10 px font, so
// every key is named at every length. Rows taller than most of the window scroll in their box (.mix-keys, KEYS_SHARE),
// the sum z_i under it, always in view.

/**
 * What the mix of the selected head shows, for any model: its weights and its value vectors, from the Run's block (the
 * selected head followed through its layer: models/run.js). A trained model's values are its own, V_h = X W_V + b_V.
 * @param {import('../../models/run.js').Run} run
 * @returns {object} mixView()'s source
 */
export function runMix(run) {
  const { layer, head, weights, values } = run.block;
  const ref = { layer, head };
  const n = run.tokens.length;
  const { config } = run;
  return {
    figure: 'mix',
    labels: tokenLabels(run),
    weights: weights.data,
    values,
    id: headIndex(headCounts(run), ref),
    name: config ? `${headName(ref)} of the trained ${modelKindName(config)}` : `head ${head + 1}`,
    status: rowStatus(run.block, n, n),
    emptyReason: emptyReason(run.trace?.options),
    valuesNote: config ? ` Its value vectors are the model's own: v_j = x_j W_V + b_V, d_k = ${config.dK}.` : undefined,
  };
}

/**
 * The mix's numbers for one query (what the figure draws, exported with it).
 * @param {{ weights: Float32Array, values: { data: Float32Array, shape: [number, number] } }} source  runMix(): the
 *   head's weights [seqLen, seqLen] and values [seqLen, d_v], row-major
 * @param {number} query  the query position
 * @returns {{ weights: Float32Array, scaled: Float32Array, output: Float32Array, dV: number }}
 *   weights a_i· [seqLen]; scaled a_ij·v_j [seqLen, d_v] row-major; output z_i = Σ_j a_ij v_j [d_v],
 *   summed here from the weights and values (the tests check it equals the head's output row)
 */
export function mixData({ weights: all, values }, query) {
  const [n, dV] = values.shape;
  const row = all.subarray(query * n, (query + 1) * n);
  const scaled = new Float32Array(n * dV);
  const output = new Float32Array(dV);
  for (let j = 0; j < n; j++) {
    for (let c = 0; c < dV; c++) {
      const v = row[j] * values.data[j * dV + c];
      scaled[j * dV + c] = v;
      output[c] += v;
    }
  }
  return { weights: Float32Array.from(row), scaled, output, dV };
}

/**
 * @param {{ figure: string, labels: string[], weights: Float32Array, values: { data: Float32Array, shape: [number, number] },
 *   id: number, name: string, status: { empty: number[], selfOnly: number[] }, emptyReason?: string, valuesNote?: string }} source
 *   runMix(): the figure's name (data-figure), the tokens' labels, the head's weights and values,
 *   its index (data-head), its name in the caption, its rows with no key or only their own, why a row is empty, what its
 *   value vectors are
 * @param {{ query: number, colors?: { ink: string, muted: string, line: string },
 *   canvas?: (key: string) => HTMLCanvasElement, last?: HTMLElement }} options  the query position shown; text and rule
 *   colours (the theme's); where to get the figure's canvases (the same ones at every redraw), else new ones; last: the
 *   figure drawn before, updated in place (its caption, notes, canvas and legend rewritten, none of them rebuilt)
 * @returns {HTMLElement} <figure data-figure="mix" data-query data-head>; `figure.exportData` holds the
 *   rows drawn (keys, then the output) for CSV/JSON export, `figure.mix` the mixData() numbers
 */
export function mixView(
  source,
  {
    query,
    colors = { ink: '#1d1d1f', muted: '#5f6368', line: '#d0d4da' },
    canvas: canvasFor = () => document.createElement('canvas'),
    last,
  },
) {
  const { labels, status } = source;
  const n = labels.length;
  const data = mixData(source, query);
  const { weights, scaled, output, dV } = data;
  const h = tokenBandPx(n, HEIGHT_PX, 22);
  // Bars take a third of what the words leave, strips the rest.
  const width = Math.max(240, Math.min(WIDTH_PX, window.innerWidth - 32));
  const BAR_PX = Math.round((width - LABEL_PX - GAP_PX) / 3),
    STRIP_PX = width - LABEL_PX - GAP_PX - BAR_PX - 4;
  // One scale for the scaled rows and their sum, so the rows that carry weight stand out.
  const limit = roundedLimit(Math.max(maxAbs(scaled), maxAbs(output)));
  const color = divergingColor(limit);
  const stripLeft = LABEL_PX + BAR_PX + GAP_PX;

  const figure = last?.dataset.figure === source.figure && last.classList.contains('mix') ? last : mixFigure();
  setAttrs(figure, { 'data-figure': source.figure, 'data-query': query, 'data-head': source.id });
  const caption = figure.firstChild;
  setText(
    caption,
    `The output of “${labels[query]}” (${source.name}) is a weighted mix of the value vectors: ` +
      `z_${query} = Σ_j a_${query}j · v_j, [d_v] = [${dV}]. Bars: its row of weights; strips: each v_j scaled by its weight.${source.valuesNote ?? ''}`,
  );
  figure.mix = data;
  figure.exportData = mixExport(caption.textContent, labels, data, query);
  const empty = status.empty.includes(query);
  const notes = empty
    ? // No key left: nothing to mix, and a colour scale around 0 would have no range to show.
      [
        [
          'mix-note empty-row',
          `“${labels[query]}” has no key to attend to (${source.emptyReason}): its weights are all 0 and z_${query} = 0.`,
        ],
      ]
    : status.selfOnly.includes(query)
      ? [['mix-note', selfOnlyText(labels, [query])]]
      : [];
  const shownNotes = figure.querySelectorAll(':scope > p.mix-note');
  shownNotes.forEach((note, k) => k >= notes.length && note.remove());
  notes.forEach(([className, text], k) => {
    const note =
      shownNotes[k] ??
      figure.insertBefore(
        document.createElement('p'),
        figure.querySelector(':scope > .mix-keys, :scope > canvas, :scope > svg'),
      );
    setAttrs(note, { class: className });
    setText(note, text);
  });
  const shownLegend = figure.querySelector(':scope > svg.legend');
  if (empty) {
    figure.querySelectorAll(':scope > .mix-keys, :scope > canvas').forEach((part) => part.remove());
    shownLegend?.remove();
    return figure;
  }

  // The key rows in a box of their own that scrolls when they are taller than it; the sum under the box.
  let keys = figure.querySelector(':scope > .mix-keys');
  if (!keys) {
    keys = figure.insertBefore(document.createElement('div'), shownLegend);
    keys.className = 'mix-keys';
  }
  // At most most of the window's height; taller rows scroll, and the box then takes the keyboard's focus to scroll by it.
  const keysMax = Math.max(KEYS_MIN_PX, Math.round(KEYS_SHARE * window.innerHeight));
  setStyle(keys, { maxHeight: `${keysMax}px` });
  const scrolls = n * h > keysMax;
  setAttrs(keys, {
    tabindex: scrolls ? 0 : null,
    role: scrolls ? 'region' : null,
    'aria-label': scrolls ? `the mix's ${n} key rows: scroll for every key` : null,
  });
  const canvas = canvasFor('mix');
  if (canvas.parentNode !== keys) keys.replaceChildren(canvas);
  const sumCanvas = canvasFor('mix-sum');
  if (sumCanvas.parentNode !== figure) keys.after(sumCanvas);
  const g = clearedContext(canvas, width, n * h);
  setAttr(canvas, 'role', 'img');
  const top = [...weights.keys()].sort((a, b) => weights[b] - weights[a]).slice(0, 3);
  setAttr(
    canvas,
    'aria-label',
    `${caption.textContent} Largest weights: ` + top.map((j) => `“${labels[j]}” ${fmt(weights[j])}`).join(', ') + '.',
  );

  const font = Math.max(9, Math.min(13, h - 3));
  g.font = `${font}px system-ui, sans-serif`;
  g.textBaseline = 'middle';
  // The strips as one pixel per cell (heatmap.js's colour table), stretched without smoothing.
  const domain = [-limit, limit];
  const strip = (context, key, values, rows, y, rowH) => {
    const pixels = cellCanvas({
      rows,
      cols: dV,
      values,
      color,
      domain,
      cellWidth: 1,
      cellHeight: 1,
      canvas: canvasFor(key),
    });
    context.imageSmoothingEnabled = false;
    context.drawImage(pixels, stripLeft, y, STRIP_PX, rows * rowH);
  };
  for (let j = 0; j < n; j++) {
    const y = j * h;
    if (j === query) {
      g.fillStyle = colors.line;
      g.fillRect(0, y, stripLeft - 4, h);
    }
    g.fillStyle = colors.ink;
    g.textAlign = 'right';
    g.fillText(labels[j].slice(0, 12), LABEL_PX - 6, y + h / 2);
    g.fillStyle = '#3b5bdb';
    g.fillRect(LABEL_PX, y + 1, Math.max(weights[j] > 0 ? 1 : 0, weights[j] * BAR_PX), h - 2);
    g.fillStyle = colors.muted;
    g.textAlign = 'left';
    g.fillText(fmt(weights[j]), LABEL_PX + BAR_PX + 4, y + h / 2);
  }
  strip(g, 'strips', scaled, n, 0, h);
  // A query (or sentence) shown anew brings the query's row into the box's view, if it is out of it.
  const shown = `${query} of ${n}`;
  if (keys.dataset.shown !== shown) {
    keys.dataset.shown = shown;
    const top = query * h;
    if (top < keys.scrollTop || top + h > keys.scrollTop + keys.clientHeight)
      keys.scrollTop = Math.max(0, top - keys.clientHeight / 2);
  }

  const s = clearedContext(sumCanvas, width, SUM_GAP_PX + SUM_PX);
  setAttr(sumCanvas, 'aria-hidden', 'true'); // the rows' canvas says what the mix is; its sum is in the table export
  s.fillStyle = colors.ink;
  s.fillRect(stripLeft, SUM_GAP_PX / 2 - 1, STRIP_PX, 1.5);
  s.textAlign = 'right';
  s.textBaseline = 'middle';
  s.font = `600 13px system-ui, sans-serif`;
  s.fillText(`= z_${query}`, stripLeft - 6, SUM_GAP_PX + SUM_PX / 2);
  strip(s, 'sum', output, 1, SUM_GAP_PX, SUM_PX);

  const key = legend({ color, domain, title: 'a_ij · v_j' }, shownLegend ?? undefined);
  if (key !== shownLegend) {
    shownLegend?.remove();
    figure.append(key);
  }
  return figure;
}

/**
 * `canvas`'s 2-D context, the canvas sized to width × height CSS pixels at the screen's pixel ratio and cleared, scaled
 * to CSS pixels. A new size clears the canvas and its state; the same size is cleared by hand (a size set again, even
 * the same one, makes the browser allocate the canvas's memory anew at every keystroke). Every draw sets the state it
 * uses.
 */
function clearedContext(canvas, width, height) {
  const dpr = window.devicePixelRatio || 1;
  const g = canvas.getContext('2d');
  const [pixelWidth, pixelHeight] = [Math.round(width * dpr), Math.round(height * dpr)];
  if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
    canvas.width = pixelWidth;
    canvas.height = pixelHeight;
  } else {
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, pixelWidth, pixelHeight);
  }
  setStyle(canvas, { width: `${width}px`, height: `${height}px` });
  g.scale(dpr, dpr);
  return g;
}

/** A mix figure's element and caption; mixView() fills them in. */
function mixFigure() {
  const figure = document.createElement('figure');
  figure.className = 'mix';
  figure.appendChild(document.createElement('figcaption'));
  return figure;
}

/** The rows drawn (keys, then the output) for CSV/JSON export. */
function mixExport(caption, labels, { weights, scaled, output, dV }, query) {
  return {
    name: 'mix',
    caption,
    rowTitle: 'key',
    colTitle: 'value dimension',
    rowLabels: [...labels.map((label, j) => `${label} (a = ${fmt(weights[j])})`), `z_${query}`],
    colLabels: Array.from({ length: dV }, (_, c) => String(c)),
    shape: [labels.length + 1, dV],
    values: Float32Array.from([...scaled, ...output]),
  };
}
