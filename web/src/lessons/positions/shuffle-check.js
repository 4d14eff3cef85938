// The shuffle check (d2l.ai §11.6): self-attention without position information is permutation-
// equivariant, so a shuffled sentence gets exactly the permuted weights and outputs. The core
// shuffles, attends and un-shuffles; the view shows the shuffled attention and the difference.
import { format } from 'd3-format';
import { weightColorMap } from '../../views/colors.js';
import { heatmap, tokenBandPx } from '../../views/heatmap.js';
import { tokenLabels } from '../../views/labels.js';
import { headList, positionalHeadsNote } from './positional-heads.js';

const sci = format('.1e');
const EXACT = 1e-6; // float32 sums in another order differ in their last bits

const POSITION_SOURCE = {
  none: '',
  sinusoidal: 'the sinusoidal encoding added to each word',
  learned: 'the learned table added to each word',
  rope: 'RoPE rotating queries and keys by position',
  alibi: 'ALiBi’s distance penalty',
  t5: 'T5’s relative-position buckets',
};

function verdict(trace, shuffle) {
  const { positionalEncoding, causal } = trace.options;
  const heads = trace.heads.map((_, h) => h);
  const content = heads.filter((h) => !trace.heads[h].positionalByConstruction);
  const note = positionalHeadsNote(
    trace,
    heads.filter((h) => trace.heads[h].positionalByConstruction),
  );
  if (content.length === 0) return `Every head reads positions by construction.${note}`;
  const difference = Math.max(...content.map((h) => shuffle.headWeightDifferences[h]));
  const which = content.length < heads.length ? ` in head${content.length > 1 ? 's' : ''} ${headList(content)}` : '';
  const numbers = `max |difference| after un-shuffling: weights ${sci(difference)}${which}`;
  if (difference < EXACT) {
    return (
      `Equal — ${numbers}, i.e. 0 up to float32 rounding. Without position information attention cannot see word order: ` +
      `the shuffled sentence gets the same weights, only rearranged.${note}`
    );
  }
  const sources = [POSITION_SOURCE[positionalEncoding], causal ? 'the causal mask (it too depends on position)' : '']
    .filter(Boolean)
    .join(' and ');
  return `Different — ${numbers}. The shuffled sentence attends differently because of ${sources || 'position information'}.${note}`;
}

/**
 * @param {object} trace  core.explain() result with positionChecks
 * @param {{ head: number, colorMap?: 'viridis' | 'cividis', name?: string }} options  the head; the weights' colour
 *   map (default 'viridis'); name: the head as the caption names it (default "Head 1")
 * @returns {HTMLElement}
 */
export function shuffleCheck(trace, { head, colorMap = 'viridis', name = `Head ${head + 1}` }) {
  const { shuffle } = trace.positionChecks;
  const n = trace.tokens.length;
  const labels = tokenLabels(trace);
  const shuffled = shuffle.order.map((k) => labels[k]);
  const wrapper = document.createElement('div');
  wrapper.className = 'shuffle-check';
  wrapper.dataset.figure = 'shuffle-check';
  wrapper.dataset.maxWeightDifference = String(shuffle.maxWeightDifference);
  const sentence = wrapper.appendChild(document.createElement('p'));
  sentence.className = 'shuffled-sentence';
  sentence.textContent = `Shuffled: ${shuffled.join(' ')}`;
  const cell = tokenBandPx(n, 300, 28);
  wrapper.append(
    heatmap({
      name: 'shuffled-weights',
      caption: `${name}: attention weights of the shuffled sentence, in its own order`,
      values: shuffle.weights.data.subarray(head * n * n, (head + 1) * n * n),
      rows: n,
      cols: n,
      rowLabels: shuffled,
      colLabels: shuffled,
      rowTitle: 'query ↓',
      colTitle: 'key →',
      color: weightColorMap(colorMap),
      domain: [0, 1],
      legendTitle: 'attention weight',
      cellWidth: cell,
      cellHeight: cell,
      describe: (k, l, v) => `"${shuffled[k]}" → "${shuffled[l]}": ${v.toFixed(4)}`,
    }),
  );
  const result = wrapper.appendChild(document.createElement('p'));
  result.className = 'verdict';
  result.setAttribute('role', 'status');
  result.textContent = verdict(trace, shuffle);
  return wrapper;
}
