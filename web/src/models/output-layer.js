// A trained model's output layer at one position, as the Run carries it for the stepper's last steps and the
// predictions: x_L → (with BERT's output head, t = LayerNorm(GELU(x_L W_T + b_T))) → logits = t U + b → softmax →
// the words (cpp/include/attn/train/model.hpp; Vaswani et al. 2017 §3.4), and sampling from it
// (cpp/include/attn/train/sampling.hpp): the output temperature and top-k the predictions' bars show, and Generate,
// which appends a sampled word to the sentence.

/**
 * The sampling options of the state, as run()'s `sampling` and sample() take them.
 * @param {{ outputTemperature: number, topK: number }} state
 * @returns {{ temperature: number, topK: number }}
 */
export function samplingOptions({ outputTemperature, topK }) {
  return { temperature: outputTemperature, topK };
}

/**
 * Whether the bars show a sampling distribution: at an output temperature other than 1 or a top-k; at the defaults they
 * show the model's own probabilities (the same word has one probability everywhere on the page).
 * @param {{ outputTemperature: number, topK: number }} state
 */
export function sampledBars({ outputTemperature, topK }) {
  return outputTemperature !== 1 || topK > 0;
}

/**
 * The output layer at `position` of a core LanguageRun (run() asked for that position).
 * @param {object} model  a core.languageModel  @param {object} run  its LanguageRun  @param {number} position  0 … T − 1
 * @returns {{ position: number, x: { data: Float32Array, shape: [1, number] }, t: { data: Float32Array, shape: [1, number] }
 *   | null, logits: Float32Array, top: { word: string, p: number }[], unk: number | null, tiedOutput: boolean,
 *   outputSize: number, vocabulary: readonly string[] }}  x: x_L's row (the last block's output); t: the output head's
 *   row, or a checkpoint's LN_f(x_L), the output layer's input (null for our model without the head, which reads x);
 *   logits: [outputSize], <unk> last; top: the model's own probabilities (softmax at temperature 1), words only;
 *   unk: p(<unk>); vocabulary: the output words, <unk> last
 */
export function outputAt(model, run, position) {
  const { dModel, numLayers, tiedOutput, outputSize, outputHead } = model.config;
  const last = run.hidden[numLayers - 1].data;
  return {
    position,
    x: { data: last.slice(position * dModel, (position + 1) * dModel), shape: [1, dModel] },
    // BERT's output head's row, or a checkpoint's final LayerNorm's (LN_f(x_L)): what the output matrix reads
    t: outputHead || model.config.architecture ? { data: run.outputInput[position], shape: [1, dModel] } : null,
    logits: run.logits[position],
    top: run.top[position],
    unk: run.unk?.[position] ?? null,
    tiedOutput,
    outputSize,
    vocabulary: model.vocabulary,
  };
}

/**
 * Generate: one word sampled after the sentence (the decoder's next word) with the state's output temperature, top-k
 * and seed, joined to the sentence as the tokenizer reads it back (core languageModel.generate); the seed advances by
 * one (wrapping at the core's maxSampleSeed), so that the link after each generation reproduces the next one.
 * @param {object} model  core.languageModel('causal')
 * @param {{ sentence: string, outputTemperature: number, topK: number, sampleSeed: number, knockout?: object[] }} state
 * @returns {{ change: { sentence: string, sampleSeed: number }, word: string, p: number }}
 * @throws RangeError from generate() (an empty sentence, one too long)
 */
export function generate(model, state) {
  // With the heads the learner switched off still off: the draw follows the bars on screen.
  const { text, words, nextSeed } = model.generate(state.sentence, {
    ...samplingOptions(state),
    seed: state.sampleSeed,
    ablate: state.knockout ?? [],
  });
  const [{ word, p }] = words;
  return { change: { sentence: text, sampleSeed: nextSeed }, word, p };
}
