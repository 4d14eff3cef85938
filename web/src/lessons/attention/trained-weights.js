// The selected trained head's weights large: rows are queries, columns keys, each row sums to 1 (a decoder's
// causal mask greys the later keys), with what the head was measured to do and, where a designed head does
// the same job by construction, how the two compare.
import { format } from 'd3-format';
import { modelKindName } from '../../models/model-facts.js';
import { headIndex, headName, headWeights, resolveHead } from '../../models/run.js';
import { measuredJob, mixedDefinition } from '../../models/trained.js';
import { weightColorMap } from '../../views/colors.js';
import { childOrNew, setText } from '../../views/dom-update.js';
import { heatmap, heatmapCellSize } from '../../views/heatmap.js';

const fmt = format('.4f');

/** Where a designed head does this head's job by construction: the comparison in a sentence. */
const DESIGNED_TWIN = {
  previous: (score) =>
    `The designed “previous token” head does this job by construction: weight 1 one position back. This head learned it ` +
    `from text and puts ${score.toFixed(2)} there on average.`,
  next: (score) =>
    `The designed “next token” head does this by construction (weight 1 one position ahead); this one learned it: ${score.toFixed(2)}.`,
  first: (score) =>
    `The designed “first token” head rests on position 0 by construction; this one learned to: ${score.toFixed(2)} on average.`,
};

/**
 * @param {import('../../models/run.js').Run} run  a trained model's Run
 * @param {{ selected: { layer: number, head: number }, colorMap?: string, cellBudget?: number, canvas?: HTMLCanvasElement,
 *   last?: HTMLElement }} options  selected: the head (one past the last, from a hand-edited link, is the last);
 *   cellBudget: pixels for all the rows; last: the figure drawn before, updated in place (heatmap.js)
 * @returns {HTMLElement} a <figure data-figure="trained-weights"> (heatmap.js)
 */
export function trainedWeights(run, { selected, colorMap = 'viridis', cellBudget = 272, canvas, last }) {
  const { config } = run;
  const T = run.tokens.length;
  const ref = resolveHead(config, selected);
  const weights = headWeights(run, ref);
  const labels = run.tokens.map((t) => t.text);
  const causal = run.causal;
  const measured = config.heads[headIndex(config, ref)];
  const job = measuredJob(measured, run.labelThreshold);
  const cell = heatmapCellSize(T, Math.min(cellBudget, window.innerWidth - 160));
  const figure = heatmap(
    {
      name: 'trained-weights',
      caption:
        `Attention weights of ${headName(ref)} of the trained ${modelKindName(config)}: softmax(q·k / √${config.dK}) ` +
        `with its learned W_Q, W_K${causal ? ', causal mask' : ''}, [${T}, ${T}]; each row sums to 1. On held-out text: ${job.text}.`,
      values: weights,
      rows: T,
      cols: T,
      rowLabels: labels,
      colLabels: labels,
      rowTitle: 'query ↓',
      colTitle: 'key (attended to) →',
      color: weightColorMap(colorMap),
      domain: [0, 1],
      legendTitle: 'attention weight',
      cellWidth: cell,
      cellHeight: cell,
      isMasked: causal ? (i, j) => j > i : undefined,
      canvas,
      currentCellEvent: 'focus-query', // the decoder's prediction at the row under the pointer (predictions-view.js)
      describe: (i, j, w) =>
        causal && j > i
          ? `"${labels[i]}" → "${labels[j]}": a later word, masked (weight 0)`
          : `query "${labels[i]}" (${i}) → key "${labels[j]}" (${j}): weight ${fmt(w)}`,
    },
    last,
  );
  const note = childOrNew(
    figure,
    'p.head-explanation',
    explanationNote,
    figure.querySelector('figcaption').nextSibling,
  );
  const text =
    DESIGNED_TWIN[job.label]?.(job.score) ??
    (job.label === 'mixed'
      ? `No single job measured (${mixedDefinition(run.labelThreshold)}): like most trained heads, it spreads its weight ` +
        `by what the words are, ${measured.entropyBits.toFixed(1)} bits on average.`
      : `Measured on held-out text: ${job.text}.`);
  setText(note, text);
  return figure;
}

/** The paragraph under the caption that says what the head learned. */
function explanationNote() {
  const note = document.createElement('p');
  note.className = 'head-explanation';
  return note;
}
