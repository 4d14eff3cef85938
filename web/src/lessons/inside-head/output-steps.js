// The output layer after the last block, for a trained model (cpp/include/attn/train/model.hpp; Vaswani et al.
// 2017 §3.4): the last token's x_L (the last block's output, after its LayerNorm: the models have no final norm),
// with BERT's output head its t = LayerNorm(GELU(x_L W_T + b_T)), the logits z = x_L U + b (t U + b) over the
// output vocabulary, softmax → probabilities, and the most likely words, with <unk> (every word outside the
// vocabulary) as one line apart. The decoder's at its last token; the encoder's at its
// first blank. The values are the Run's (models/output-layer.js outputAt): the same run() as the rest.
import { format } from 'd3-format';
import { percent, probabilityBars, unkLine } from '../../views/probability-bars.js';
import { logitHistogram } from './logit-histogram.js';

const fmt = format('.4f');
/** How many of the largest logits and probabilities the steps draw (of outputSize). */
const SHOWN = 20;
/** How many words the last step lists. */
const TOP_WORDS = 10;

/** The `count` largest entries of values (ids, most first, ties to the lower id), <unk> (id `skip`) left out. */
function largest(values, count, skip) {
  const ids = Array.from(values.keys()).filter((o) => o !== skip);
  ids.sort((a, b) => values[b] - values[a] || a - b);
  return ids.slice(0, count);
}

/** min, max and mean of values, for the logits' step: where the top ones stand among all of them. */
function spread(values) {
  let min = Infinity,
    max = -Infinity,
    sum = 0;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  return { min, max, mean: sum / values.length };
}

/**
 * Where <unk> (z's last entry, every word outside the vocabulary) stands, which the logits' step does not draw: its value
 * and its rank among all the logits, so the text is true when <unk> is the largest (it often is: it stands for many words).
 * @param {Float32Array} logits  [V], <unk> last
 * @returns {string}  "<unk> (…) is not drawn: 6.35, the largest of all", or its rank of V
 */
export function unkStanding(logits) {
  const unk = logits.at(-1);
  let above = 0;
  for (const z of logits) if (z > unk) above += 1;
  const rank = above === 0 ? 'the largest of all' : `rank ${above + 1} of ${logits.length}`;
  return `<unk> (every word outside the vocabulary, z's last entry) is not drawn: ${unk.toFixed(2)}, ${rank}`;
}

/**
 * The output-layer steps, in the format stepper() draws (stepper.js), after a block's steps.
 * @param {import('../../models/run.js').Run} run  a trained model's Run with its output (null: an encoder without a blank),
 *   and what it can do (run.can.generate: the output reads the last token; else a blank)
 * @returns {object[]}  4 steps (x_L, logits, probabilities, top words), 5 with BERT's output head (t after x_L); none
 *   for the encoder without a blank
 */
export function outputSteps({ config, tokens, output, can }) {
  if (!output) return [];
  const { vocabulary } = output;
  const { dModel, numLayers, outputSize, tiedOutput } = config;
  const V = outputSize;
  const token = tokens[output.position].text;
  const where = can.generate ? `the last token, “${token}”` : `the first blank, position ${output.position}`;
  const ids = largest(output.logits, SHOWN, V - 1);
  const words = ids.map((o) => vocabulary[o]);
  // softmax over all V outputs (<unk> included), in double with the largest subtracted: the model's own probabilities.
  const top = Math.max(...output.logits);
  let total = 0;
  for (const z of output.logits) total += Math.exp(z - top);
  const p = (o) => Math.exp(output.logits[o] - top) / total;
  const { min, max, mean } = spread(output.logits);
  const shownTop = output.top.slice(0, TOP_WORDS);
  // The shown probabilities' colours span 0 … the largest (rounded up to a hundredth): on [0, 1] twenty values of a few
  // percent would all be one colour.
  const pMax = Math.ceil(p(ids[0]) * 100) / 100;
  const row = (values) => ({ data: Float32Array.from(values), shape: [1, values.length] });
  const label = [token];
  const U = tiedOutput
    ? `U tied: the output words' frozen GloVe rows, transposed (${dModel} × ${V})`
    : `U learned, untied (${dModel} × ${V})`;
  // With BERT's output head (Devlin et al. 2019) the output layer reads t = LayerNorm(GELU(x_L W_T + b_T)), not x_L.
  const input = output.t ? 't' : 'x_L';
  const head = output.t
    ? [
        {
          title: "BERT's output head: t = LayerNorm(GELU(x_L W_T + b_T))",
          tex: String.raw`t = \mathrm{LayerNorm}\big(\mathrm{GELU}(x_L W_T + b_T)\big) \in \mathbb{R}^{${dModel}}`,
          tensor: output.t,
          cols: Array.from({ length: dModel }, (_, j) => String(j)),
          colTitle: 'dimension →',
          rowLabels: ['t'],
          shapeNote: `[${dModel}]: a dense layer (W_T ${dModel} × ${dModel}, learned), GELU, then LayerNorm; the output layer reads t`,
          describe: (_, j, v) => `t[${j}] = ${fmt(v)}`,
        },
      ]
    : [];
  return [
    {
      title: `Output layer: x_L at ${can.generate ? 'the last token' : 'the blank'}`,
      tex: String.raw`x_L = x_{${numLayers}}[${output.position}] \in \mathbb{R}^{${dModel}}`,
      tensor: output.x,
      cols: Array.from({ length: dModel }, (_, j) => String(j)),
      colTitle: 'dimension →',
      rowLabels: label,
      shapeNote: `[${dModel}]: ${where}; layer ${numLayers}'s output (after its LayerNorm: no final norm)`,
      describe: (_, j, v) => `x_L[${j}] = ${fmt(v)}`,
    },
    ...head,
    {
      title: 'Logits: one score per output word',
      tex: String.raw`z = ${input}\,U + b \in \mathbb{R}^{${V}}`,
      tensor: row(ids.map((o) => output.logits[o])),
      cols: words,
      colTitle: `the ${SHOWN} largest of ${V} →`,
      rowLabels: ['z'],
      shapeNote:
        `drawn: the ${SHOWN} largest words' logits of z [${V}]; ${unkStanding(output.logits)}; all ${V}: ` +
        `min ${min.toFixed(2)}, mean ${mean.toFixed(2)}, max ${max.toFixed(2)}. ${U}; b learned`,
      describe: (_, j, v) => `z[“${words[j]}”] = ${input} · U[:, ${ids[j]}] + b[${ids[j]}] = ${fmt(v)}`,
      extra: () => logitHistogram(output.logits, output.logits[ids.at(-1)]),
    },
    {
      title: 'Softmax: probabilities',
      tex: String.raw`p_i = \frac{e^{z_i}}{\sum_{j=1}^{${V}} e^{z_j}}`,
      tensor: row(ids.map(p)),
      cols: words,
      colTitle: `the ${SHOWN} most likely words →`,
      rowLabels: ['p'],
      weights: true,
      weightMax: pMax,
      legendTitle: 'probability',
      shapeNote: `[${V}], sums to 1; <unk> (every other word): ${percent(output.unk)}`,
      describe: (_, j, v) => `p(“${words[j]}”) = ${fmt(v)}`,
    },
    {
      title: can.generate ? 'The next word: the most likely' : 'The blank: the most likely words',
      tex: String.raw`\hat{w} = \arg\max_{i \ne \langle\mathrm{unk}\rangle} p_i`,
      tensor: row(shownTop.map((w) => w.p)),
      cols: shownTop.map((w) => w.word),
      colTitle: 'word →',
      rowLabels: ['p'],
      weights: true,
      shapeNote: 'words only; <unk> apart',
      figure: () => {
        const box = document.createElement('div');
        box.className = 'output-top';
        box.append(probabilityBars(shownTop), unkLine(output.unk, V - 1));
        return box;
      },
      describe: (_, j, v) => `p(“${shownTop[j].word}”) = ${fmt(v)}`,
    },
  ];
}

/** The line the stepper shows where there are no output steps: why, and how to get them. */
export function noOutputNote(run) {
  if (run.output || run.can.generate) return null;
  const note = document.createElement('p');
  note.className = 'hint no-output';
  note.textContent =
    'The output layer reads a blank: click a word of your sentence (or type [MASK]) to hide it, and its steps follow the block.';
  return note;
}
