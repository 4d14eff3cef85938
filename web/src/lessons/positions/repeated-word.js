// The same word twice: its two occurrences have the same word vector, so without position
// information they get identical queries, keys and values (and so identical attention rows);
// position information tells them apart.
import { format } from 'd3-format';
import { divergingColor, maxAbs } from '../../views/colors.js';
import { heatmap } from '../../views/heatmap.js';
import { headList, positionalHeadsNote } from './positional-heads.js';

const fmt = format('.4f');
const sci = format('.1e');

function gatherRows(head, word) {
  const parts = [
    ['q', head.queries],
    ['k', head.keys],
    ['v', head.values],
  ];
  const width = Math.max(...parts.map(([, t]) => t.shape[1]));
  const values = new Float32Array(6 * width).fill(NaN);
  const labels = [];
  parts.forEach(([name, t], p) => {
    const cols = t.shape[1];
    [word.first, word.second].forEach((i, k) => {
      values.set(t.data.subarray(i * cols, (i + 1) * cols), (2 * p + k) * width);
      labels.push(`${name} “${word.key}” @${i}`);
    });
  });
  return { values, labels, width };
}

function differenceText(trace, word) {
  const heads = trace.heads.map((_, h) => h);
  const content = heads.filter((h) => !trace.heads[h].positionalByConstruction);
  const positional = heads.filter((h) => trace.heads[h].positionalByConstruction);
  const note = positionalHeadsNote(trace, positional);
  if (content.length === 0) return `every head reads positions by construction.${note}`;
  const max = (part) => Math.max(...content.map((h) => word.heads[h][part]));
  const [queries, keys, values] = ['queries', 'keys', 'values'].map(max);
  const all = Math.max(queries, keys, values);
  const every = trace.heads.length === 1 ? 'the head' : 'all heads';
  const which = positional.length ? `head${content.length > 1 ? 's' : ''} ${headList(content)}` : every;
  return (
    `max |difference| over ${which}: queries ${sci(queries)}, keys ${sci(keys)}, values ${sci(values)} — ` +
    (all === 0
      ? 'identical: attention cannot tell the two apart.'
      : 'different: position information tells them apart.') +
    note
  );
}

/**
 * @param {object} trace  core.explain() result with positionChecks
 * @param {{ head: number, name?: string }} options  name: the head as the caption names it (default "Head 1")
 * @returns {HTMLElement}
 */
export function repeatedWord(trace, { head, name = `Head ${head + 1}` }) {
  const { repeated } = trace.positionChecks;
  const wrapper = document.createElement('div');
  wrapper.className = 'repeated-word';
  wrapper.dataset.figure = 'repeated-word';
  if (repeated.length === 0) {
    wrapper.appendChild(document.createElement('p')).textContent =
      'No word occurs twice. Type one twice — e.g. “the dog chased the cat” — to compare its two occurrences.';
    return wrapper;
  }
  const word = repeated[0];
  const { values, labels, width } = gatherRows(trace.heads[head], word);
  const limit = maxAbs(values);
  wrapper.append(
    heatmap({
      name: 'repeated-word-rows',
      caption: `${name}: queries, keys and values of “${word.key}” at positions ${word.first} and ${word.second}`,
      values,
      rows: 6,
      cols: width,
      rowLabels: labels,
      colLabels: Array.from({ length: width }, (_, j) => String(j)),
      rowTitle: 'vector ↓',
      colTitle: 'dimension →',
      color: divergingColor(limit),
      domain: [-limit, limit],
      legendTitle: 'value',
      cellWidth: Math.max(2, Math.min(10, Math.floor(400 / width))),
      cellHeight: 16,
      isMasked: (i, j) => Number.isNaN(values[i * width + j]),
      describe: (i, j, v) => `${labels[i]}[${j}] = ${fmt(v)}`,
    }),
  );
  for (const w of repeated) {
    const line = wrapper.appendChild(document.createElement('p'));
    line.className = 'verdict';
    line.dataset.word = w.key;
    line.textContent = `“${w.key}” at ${w.first} and ${w.second}: ${differenceText(trace, w)}`;
  }
  return wrapper;
}
