// The figures of the Learn chapter's "language (real English)" task, pure functions of its snapshots
// (language-run.js): the held-out loss falling past the unigram and bigram baselines' lines, every head on
// the learner's sentence labelled by what it was measured to do on held-out text, and the next word the
// model predicts after the sentence — beside the shipped decoder's, when the learner compares.
import { lineChart } from '../../views/line-chart.js';
import { curvesBox } from './training-curves.js';
import { probabilityBars, unkLine } from '../../views/probability-bars.js';
import { modelFacts } from '../../models/model-facts.js';
import { learnedRun } from '../../models/trained.js';
import { headThumbs } from '../../views/head-thumbs.js';

const HELD_OUT_COLOR = '#1f77b4';
const TRAIN_COLOR = '#9ecae1';
const CEILING_ABOVE_UNIGRAM = 3; // nats of loss shown above the unigram line
const UNIFORM_HEADROOM = 0.25; // nats shown above the uniform-guess line, so it is never on the plot's edge
const START_ABOVE_UNIFORM = 0.5; // a step-0 loss this far above ln V is explained, not noise

/**
 * The held-out loss at each evaluation (language-run.js measures it every ~2.5 s of training and at each pause) and the
 * training loss then, with the baselines' losses ln(perplexity) as dashed lines.
 * @param {object[]} history  snapshots in step order @param {{ unigramPerplexity: number, bigramPerplexity: number }} baselines
 * @param {{ log?: boolean, width?: number, outputWords?: number, tiedOutput?: boolean }} [options]  outputWords: the
 *   model's output vocabulary, <unk> included (a uniform guess over it is a third line, ln V); tiedOutput: its output
 *   layer is the word vectors (why its first loss is far above that line)
 * @returns {HTMLElement} <div> holding <figure data-figure="learn-language-loss"> (its lines: data-threshold "unigram …",
 *   "bigram …", "uniform guess …")
 */
export function languageCurves(history, baselines, { log = false, width = 520, outputWords, tiedOutput = true } = {}) {
  const points = history.filter((s) => s.evaluation.step === s.step);
  const wrapper = curvesBox(
    'training-curves language-curves',
    points.length < 2 && 'Press Train: the held-out loss draws here, every few seconds, as the model learns.',
  );
  const [unigram, bigram] = [Math.log(baselines.unigramPerplexity), Math.log(baselines.bigramPerplexity)];
  const held = points.map((s) => s.evaluation.loss);
  const train = points.map((s) => (Number.isFinite(s.trainLoss) ? s.trainLoss : s.evaluation.loss));
  // The first steps' losses (~18 nats: the tied output's logits start large) would flatten the part that matters, near
  // the baselines: the axis stops CEILING_ABOVE_UNIGRAM nats above the unigram line, and the caption says what runs off it.
  const uniform = outputWords ? Math.log(outputWords) : null;
  const highest = Math.max(...held, ...train, unigram, uniform ?? -Infinity);
  const ceiling = Math.min(highest, Math.max(unigram + CEILING_ABOVE_UNIGRAM, (uniform ?? 0) + UNIFORM_HEADROOM));
  const floor = Math.min(...held, ...train, bigram, unigram) - 0.25;
  const off = highest > ceiling ? `; the first steps' losses, up to ${highest.toFixed(1)}, run off the top` : '';
  wrapper.append(
    lineChart({
      name: 'learn-language-loss',
      caption:
        `Loss (cross-entropy, nats a word) on the ${points.at(-1)?.evaluation.tokens.toLocaleString('en-US') ?? ''} held-out words, ` +
        'and on the training batches, against two counting baselines: a model below the unigram line uses more than how ' +
        `common each word is; one below the bigram line uses more than the word before${off}. ${baselineText(outputWords)}` +
        (uniform === null ? '' : ` ${startNote(points[0]?.evaluation.loss, outputWords, tiedOutput)}`),
      yDomain: log ? [Math.max(floor, 0.1), ceiling] : [floor, ceiling],
      series: [
        { label: 'held-out loss', values: held, color: HELD_OUT_COLOR },
        { label: 'training loss', values: train, color: TRAIN_COLOR },
      ],
      thresholds: [
        { value: unigram, label: `unigram ${unigram.toFixed(2)}` },
        { value: bigram, label: `bigram ${bigram.toFixed(2)}` },
        ...(uniform === null ? [] : [{ value: uniform, label: `uniform guess ${uniform.toFixed(2)}` }]),
      ],
      x: points.map((s) => s.step),
      pointName: 'step',
      xTitle: 'training step',
      yTitle: log ? 'loss (log scale)' : 'loss',
      log,
      width,
      height: 190,
    }),
  );
  return wrapper;
}

/**
 * Which text the chart's baselines are counted on: the same held-out words, over this model's output words. The shipped
 * decoder's bigram (model-facts.js) is counted on the whole corpus's held-out text over 8,192 words, and more words
 * counted as one <unk> make every model's loss lower: the two bigrams' numbers are not one measurement.
 * @param {number} [outputWords]  the model's output vocabulary, <unk> included
 * @returns {string}  a sentence for the chart's caption
 */
export function baselineText(outputWords) {
  const words = outputWords
    ? ` over its ${(outputWords - 1).toLocaleString('en-US')} output words (every other word is <unk>)`
    : '';
  return `Both baselines are counted on this text's training part and measured on these held-out words${words}, not on the shipped decoder's held-out text.`;
}

/**
 * The uniform-guess line and why the untrained model starts above it. A uniform guess over V words costs ln V nats a
 * word; an untrained model whose output is tied to the word vectors starts far higher (16.7 against ln 2048 = 7.62 on
 * the shipped sample): its logits are dot products of 100-dimensional vectors, large from the first step, so it guesses
 * the context's own words with confidence (the next-word figure's untrained note) and pays for every confident miss.
 * @param {number | undefined} start  the held-out loss at step 0  @param {number} outputWords  V, <unk> included
 * @param {boolean} tied  the output layer is the word vectors
 * @returns {string}  a sentence or two for the chart's caption
 */
export function startNote(start, outputWords, tied) {
  const uniform = Math.log(outputWords);
  const words = outputWords.toLocaleString('en-US');
  const line =
    `The dashed uniform-guess line is ln ${words} = ${uniform.toFixed(2)}: the loss of giving each of the ${words} ` +
    'outputs (its words and <unk>) the same probability.';
  if (start === undefined || start <= uniform + START_ABOVE_UNIFORM) return line;
  const why = tied
    ? 'its output is tied to the word vectors, so its first logits are large dot products: it bets on words of the ' +
      'context with confidence, and a confident miss costs more than an even guess'
    : 'its random output layer makes confident guesses, and a confident miss costs more than an even guess';
  return `${line} The untrained model starts higher, at ${start.toFixed(1)}: ${why}.`;
}

/** A figure saying why there is nothing to draw (no sentence, a word the model cannot read). */
function noSentence(name, caption, message) {
  const figure = document.createElement('figure');
  figure.dataset.figure = name;
  figure.appendChild(document.createElement('figcaption')).textContent = caption;
  figure.appendChild(document.createElement('p')).className = 'hint';
  figure.lastChild.textContent = message;
  return figure;
}

/**
 * @param {object} snapshot  language-run.js
 * @param {{ objective: string, labelThreshold: number, colorMap?: string, canvas?: Function }} options  objective: the
 *   model's; labelThreshold: below it a head is "mixed" (both from the worker's model message)
 * @returns {HTMLElement} <figure data-figure="learn-language-heads">: views/head-thumbs.js's grid (data-label, data-score per head)
 */
export function languageHeads(snapshot, { objective, labelThreshold, colorMap, canvas }) {
  const caption = snapshot.heads.length
    ? `Every head on your sentence at step ${snapshot.probe.step}, each named by what it did on the held-out text ` +
      `(measured at step ${snapshot.evaluation.step}: the mean weight it puts there; "mixed" below ${labelThreshold})`
    : `Every head on your sentence at step ${snapshot.probe.step} (not measured: the held-out text has no line of two words)`;
  if (snapshot.probe.error) return noSentence('learn-language-heads', caption, snapshot.probe.error);
  return headThumbs(learnedRun(snapshot.probe, snapshot.heads, { objective, labelThreshold }), {
    selected: null,
    colorMap,
    canvas,
    name: 'learn-language-heads',
    caption,
  });
}

/**
 * What the untrained model's guesses are, said until its first evaluation after step 0: with the output layer tied to
 * the word vectors (Press & Wolf 2017), a word's logit is its vector's dot product with the last hidden state, which at
 * step 0 is still mostly the context's own word vectors, so the words of the sentence score high ("storm" 51.5 % after
 * "… after the storm") — copying, not knowledge.
 */
function untrainedNote(tied) {
  return tied
    ? 'Untrained: the output is tied to the word vectors, so it copies words it has seen in the context — not knowledge.'
    : 'Untrained: its output layer is random, so these are guesses.';
}

/**
 * The ten most likely next words after the sentence, the model's and, when compared, the shipped decoder's.
 * @param {object} snapshot  language-run.js
 * @param {{ outputWords: number, tiedOutput?: boolean, shipped?: { config: object, top: { word: string, p: number }[], unk: number } | null }} options
 *   outputWords: the trained model's output vocabulary (<unk> included); tiedOutput: its output layer is the word vectors
 *   (the model message's options); shipped: the shipped decoder's config and predictions on the same sentence
 * @returns {HTMLElement} <figure data-figure="learn-language-next">: a <section data-model="yours"> (and "shipped") of bars
 *   (li data-word, data-p); until the first evaluation after step 0, a <p class="untrained-note"> says why an untrained
 *   model's guesses can look smart
 */
export function languageNext(snapshot, { outputWords, tiedOutput = true, shipped = null }) {
  const caption = `The next word after your sentence: what the model predicts at step ${snapshot.probe.step}`;
  if (snapshot.probe.error) return noSentence('learn-language-next', caption, snapshot.probe.error);
  const figure = document.createElement('figure');
  figure.dataset.figure = 'learn-language-next';
  figure.appendChild(document.createElement('figcaption')).textContent = caption;
  const columns = figure.appendChild(document.createElement('div'));
  columns.className = 'side-by-side language-next';
  // Compared, both lists on one scale: the largest probability of either fills a row, so equal bars are equal
  // probabilities (each list's own first bar filling its row made a 2 % guess look as sure as a 40 % one).
  const full = Math.max(snapshot.probe.next[0]?.p ?? 0, shipped?.top[0]?.p ?? 0);
  // The words only; <unk> (every other word) as one line under them, when the run gave its probability.
  const section = (model, title, top, note, unk, words) => {
    const part = columns.appendChild(document.createElement('section'));
    part.dataset.model = model;
    part.appendChild(document.createElement('h4')).textContent = title;
    part.append(probabilityBars(top, { full }));
    if (unk !== undefined) part.append(unkLine(unk, words));
    part.appendChild(document.createElement('p')).className = 'hint';
    part.lastChild.textContent = note;
  };
  if (snapshot.evaluation.step === 0) {
    const note = figure.insertBefore(document.createElement('p'), columns);
    note.className = 'untrained-note';
    note.textContent = untrainedNote(tiedOutput);
  }
  section(
    'yours',
    `Yours, step ${snapshot.probe.step}`,
    snapshot.probe.next,
    `It can output ${(outputWords - 1).toLocaleString('en-US')} words; <unk> stands for every other word.`,
    snapshot.probe.unk,
    outputWords - 1,
  );
  if (shipped) {
    const words = shipped.config.outputSize - 1;
    section('shipped', 'The shipped decoder', shipped.top, modelFacts(shipped.config), shipped.unk, words);
  }
  return figure;
}
