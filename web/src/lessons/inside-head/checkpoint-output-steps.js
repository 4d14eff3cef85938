// The output layer after the last block of a GPT-2 checkpoint (Radford et al. 2019 §2.3): the last token's x_L, the
// final LayerNorm LN_f (pre-LN blocks leave the residual stream unnormalized, so one LayerNorm comes after the last),
// the logits z = LN_f(x_L) wteᵀ over the 50,257 BPE pieces (the output tied to the token embeddings, no bias),
// softmax → probabilities, and the likeliest pieces. Every piece is one it can write: there is no <unk>. The values
// are the Run's (models/output-layer.js outputAt): the same run() as the rest.
import { format } from 'd3-format';
import { shownToken } from '../../models/pieces.js';
import { probabilityBars } from '../../views/probability-bars.js';
import { logitHistogram } from './logit-histogram.js';

const fmt = format('.4f');
/** How many pieces the bars list (of the run's top, most likely first). */
const TOP_PIECES = 10;

/**
 * @param {{ config: object, tokens: { text: string }[], output: object }} run  a checkpoint's Run with its output
 *   (outputAt: x, t = LN_f(x_L), logits [V], top: the run's most likely pieces with their ids)
 * @returns {object[]}  5 steps in the format stepper() draws (stepper.js): x_L, LN_f, logits, probabilities, pieces
 */
export function checkpointOutputSteps({ config, tokens, output }) {
  if (!output) return [];
  const { dModel, numLayers, outputSize: V } = config;
  const pieces = output.top.map((w) => shownToken(w.word, config));
  const ids = output.top.map((w) => w.id);
  const dims = Array.from({ length: dModel }, (_, j) => String(j));
  const row = (values) => ({ data: Float32Array.from(values), shape: [1, values.length] });
  const token = tokens[output.position].text;
  const shown = output.top.slice(0, TOP_PIECES).map((w, i) => ({ ...w, word: pieces[i] }));
  const pMax = Math.ceil(output.top[0].p * 100) / 100;
  return [
    {
      title: 'Output layer: x_L at the last token',
      tex: String.raw`x_L = x_{${numLayers}}[${output.position}] \in \mathbb{R}^{${dModel}}`,
      tensor: output.x,
      cols: dims,
      colTitle: 'dimension →',
      rowLabels: [token],
      shapeNote: `[${dModel}]: the last token, “${token}”; the residual stream after the last block, not yet normalized`,
      describe: (_, j, v) => `x_L[${j}] = ${fmt(v)}`,
    },
    {
      title: 'The final LayerNorm',
      tex: String.raw`h = \gamma_f \odot \frac{x_L - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta_f`,
      tensor: output.t,
      cols: dims,
      colTitle: 'dimension →',
      rowLabels: ['h'],
      shapeNote: `[${dModel}]: pre-LN blocks normalize what each sublayer reads, so one LayerNorm (ln_f) closes the stack`,
      describe: (_, j, v) => `h[${j}] = ${fmt(v)}`,
    },
    {
      title: 'Logits: one score per BPE piece',
      tex: String.raw`z = h\,W_{te}^{\top} \in \mathbb{R}^{${V}}`,
      tensor: row(ids.map((o) => output.logits[o])),
      cols: pieces,
      colTitle: `the ${ids.length} largest of ${V.toLocaleString('en-US')} →`,
      rowLabels: ['z'],
      shapeNote:
        `drawn: the ${ids.length} largest of z [${V}]; the output matrix is the token embeddings wte again, ` +
        'transposed (tied, no bias)',
      describe: (_, j, v) => `z[“${pieces[j]}”] = h · wte[${ids[j]}] = ${fmt(v)}`,
      extra: () => logitHistogram(output.logits, output.logits[ids.at(-1)]),
    },
    {
      title: 'Softmax: probabilities',
      tex: String.raw`p_i = \frac{e^{z_i}}{\sum_{j=1}^{${V}} e^{z_j}}`,
      tensor: row(output.top.map((w) => w.p)),
      cols: pieces,
      colTitle: `the ${ids.length} most likely pieces →`,
      rowLabels: ['p'],
      weights: true,
      weightMax: pMax,
      legendTitle: 'probability',
      shapeNote: `[${V}], sums to 1 over every piece`,
      describe: (_, j, v) => `p(“${pieces[j]}”) = ${fmt(v)}`,
    },
    {
      title: 'The next token: the most likely',
      tex: String.raw`\hat{w} = \arg\max_i p_i`,
      tensor: row(shown.map((w) => w.p)),
      cols: shown.map((w) => w.word),
      colTitle: 'piece →',
      rowLabels: ['p'],
      weights: true,
      shapeNote: 'every piece is one it can write: no <unk>',
      figure: () => {
        const box = document.createElement('div');
        box.className = 'output-top';
        box.append(probabilityBars(shown));
        return box;
      },
      describe: (_, j, v) => `p(“${shown[j].word}”) = ${fmt(v)}`,
    },
  ];
}
