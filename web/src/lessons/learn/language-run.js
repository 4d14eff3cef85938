// The Learn chapter's "language (real English)" task on the training thread: a causal language model
// trained from scratch in the core (core.createLanguageTrainer: the shipped decoder's recipe — frozen GloVe
// input + sinusoidal P, post-LN blocks, tied output, AdamW — at a size a page trains in a minute) on the
// shipped sample of the corpus or on text the learner pasted. Its snapshots carry the held-out loss beside
// the unigram and bigram baselines, every head's attention and the next-word predictions on the learner's
// sentence, and what each head was measured to do on the held-out text (head_statistics.hpp).
// train-loop.js runs it as it runs the attention-only tasks (snapshot.js).

/** The Learn task's name (the others are core.trainerLimits.tasks). */
export const LANGUAGE_TASK = 'language';

/**
 * The recipe the page trains with: the shipped decoder's (core.languageModelLimits.trainerDefaults) made smaller
 * where a step's time goes — 2,048 output words instead of 8,191 (the output layer is most of a step), a 200-wide
 * feed-forward layer and batches of 16 — so that a step takes ~40 ms in wasm on one thread, and the held-out loss
 * passes the unigram line well within a minute (docs/page.md, "Learn").
 */
export const LANGUAGE_RECIPE = Object.freeze({
  objective: 'causal',
  numLayers: 2,
  numHeads: 4,
  dFF: 200,
  seqLen: 32,
  batchSize: 16,
  outputWords: 2047,
  warmupSteps: 30,
});

// The held-out loss is scored on every held-out token (the sample's ~4,000: the tokens the baselines are scored on),
// which takes ~250 ms: at most once per EVALUATION_MS of training (~10 % of the time), and at every pause.
const EVALUATION_MS = 2500;
const HEAD_WINDOWS = 32; // held-out windows of 32 tokens the heads are measured on (~60 ms)
// The model on the sentence (a copy of the parameters and the frozen input rows, then a run: ~20 ms) at most this often
// while training: the snapshots in between (every ~70 ms) carry the last one, so training keeps most of the thread.
const SENTENCE_MS = 250;
const SHOWN_WORDS = 10; // next-word predictions shown
const HELD_OUT_EVERY = 20; // of a pasted text, every 20th line is held out …
const HELD_OUT_LINES = 400; // … up to this many lines

/**
 * The texts to train on: the learner's own — every 20th line held out, as createLanguageTrainer does by default, but at
 * most HELD_OUT_LINES of them (so each evaluation scores ~5,000 tokens whatever was pasted; the rest of those lines are
 * not trained on either) — or the shipped sample's two files (its held-out part comes from the corpus's held-out documents).
 * @param {{ text?: string, sample?: { train: string, heldOut: string } }} source  text, or the sample's URLs
 * @returns {Promise<{ text: string, heldOutText: string }>}
 * @throws Error naming a file that did not load
 */
async function readTexts({ text, sample }) {
  if (text !== undefined) {
    const lines = text.split('\n');
    const held = (_, i) => i % HELD_OUT_EVERY === HELD_OUT_EVERY - 1;
    return {
      text: lines.filter((line, i) => !held(line, i)).join('\n'),
      heldOutText: lines.filter(held).slice(0, HELD_OUT_LINES).join('\n'),
    };
  }
  const read = async (url) => {
    const response = await fetch(url);
    if (!response.ok)
      throw new Error(`the Learn sample ${url} did not load (${response.status} ${response.statusText})`);
    return response.text();
  };
  const [train, heldOut] = await Promise.all([read(sample.train), read(sample.heldOut)]);
  return { text: train, heldOutText: heldOut };
}

/**
 * The output words for the training text: the recipe's, or fewer where it has fewer distinct words with vectors (a
 * short pasted text; the trainer needs them all).
 */
function outputWords(api, { text }) {
  const words = new Set();
  for (const line of text.split('\n')) {
    for (const token of api.tokenize(line)) if (!token.oov) words.add(token.text.toLowerCase());
    if (words.size >= LANGUAGE_RECIPE.outputWords) return LANGUAGE_RECIPE.outputWords;
  }
  return Math.max(1, words.size);
}

/** What each head does on the held-out text; none when it has no line of 2 words (a short pasted text). */
function measureHeads(model, heldOutText) {
  try {
    return model.measureHeads(heldOutText, { maxWindows: HEAD_WINDOWS });
  } catch {
    return [];
  }
}

/** The held-out loss and heads now (a model of the parameters now, released after use). */
function measure(trainer, heldOutText) {
  const evaluation = trainer.evaluate();
  const model = trainer.model();
  try {
    return { evaluation, heads: measureHeads(model, heldOutText) };
  } finally {
    model.release();
  }
}

/** Every head's attention and the next words on the sentence, or why there are none (empty, too long, no known word). */
function onSentence(trainer, sentence) {
  if (sentence.trim() === '')
    return { sentence, error: 'Type a sentence above to see the heads and the next word on it.' };
  const model = trainer.model();
  try {
    const run = model.run(sentence, { k: SHOWN_WORDS, positions: [-1] });
    const T = run.tokens.length;
    const { numLayers, numHeads } = model.config;
    const weights = new Float32Array(numLayers * numHeads * T * T);
    run.attention.forEach((layer, l) => layer.forEach((head, h) => weights.set(head, (l * numHeads + h) * T * T)));
    return {
      sentence,
      tokens: run.tokens.map((t) => ({ text: t.text, oov: t.oov })),
      weights: { data: weights, shape: [numLayers, numHeads, T, T] },
      next: run.top[T - 1],
      unk: run.unk[T - 1], // p(<unk>), shown apart from the words
    };
  } catch (error) {
    return { sentence, error: error.message };
  } finally {
    model.release();
  }
}

/**
 * The task's run on the training thread (train-loop.js lesson interface): making the trainer, the snapshots, the probe.
 * A snapshot: { task, step, trainLoss, evaluation { step, loss, perplexity, top1, top5, tokens }, heads (HeadMeasurement[],
 * measured at evaluation.step), baselines { unigramPerplexity, bigramPerplexity }, probe { sentence, step, tokens, weights
 * [L, H, T, T], next [{ word, p }] (words only), unk (p of <unk>) } or { sentence, step, error } (step: the step it was
 * run at), running, stepsPerSecond, elapsedMs }.
 */
export const languageRun = {
  /** Steps per core call: one (a step is tens of milliseconds; the loop checks the clock between them). */
  chunk: 1,
  /**
   * @param {{ createLanguageTrainer: Function }} api  a core with word vectors
   * @param {{ text?: string, sample?: { train: string, heldOut: string }, seed?: number }} options
   */
  async create(api, { text, sample, seed = 0 }) {
    const texts = await readTexts({ text, sample });
    const trainer = api.createLanguageTrainer({
      ...LANGUAGE_RECIPE,
      seed,
      ...texts,
      outputWords: outputWords(api, texts),
    });
    return {
      trainer,
      labelThreshold: api.languageModelLimits.headLabelThreshold,
      heldOutText: texts.heldOutText,
      measured: null,
      measuredAt: -Infinity,
      shown: null,
      shownAt: -Infinity,
    };
  },
  /**
   * The model message after a reset: the options in effect (with d_model, d_k), the texts' sizes, the output words, the
   * baselines and the head label rule's threshold (a head whose best score is below it is "mixed").
   */
  announce({ trainer, labelThreshold }) {
    const model = trainer.model();
    const { dModel, dK } = model.config;
    model.release();
    return {
      options: { task: LANGUAGE_TASK, ...trainer.options, dModel, dK },
      trainTokens: trainer.trainTokens,
      heldOutTokens: trainer.heldOutTokens,
      outputWords: trainer.vocabulary.length,
      baselines: trainer.baselines(),
      labelThreshold,
    };
  },
  defaultProbe: () => '',
  /** The probe is the learner's sentence, any text (run() says what is wrong with it, in the snapshot). */
  probe: (_, sentence) => {
    if (typeof sentence !== 'string') throw new TypeError('the probe of the language task is a sentence');
    return sentence;
  },
  snapshot(state, sentence, { trainLoss = NaN, running = false, stepsPerSecond = 0, elapsedMs = 0 } = {}) {
    const { trainer } = state;
    const now = performance.now();
    const step = trainer.evaluate({ maxTokens: 1 }).step;
    if (
      !state.measured ||
      (state.measured.evaluation.step !== step && (!running || now - state.measuredAt >= EVALUATION_MS))
    ) {
      state.measured = measure(trainer, state.heldOutText);
      state.measuredAt = now;
    }
    if (!running || state.shown?.sentence !== sentence || now - state.shownAt >= SENTENCE_MS) {
      state.shown = { ...onSentence(trainer, sentence), step };
      state.shownAt = now;
    }
    return {
      task: LANGUAGE_TASK,
      step,
      trainLoss,
      ...state.measured,
      baselines: trainer.baselines(),
      probe: state.shown,
      running,
      stepsPerSecond,
      elapsedMs,
    };
  },
  /** Nothing is transferred: a snapshot's sentence run may be posted again in the next one (it is ~32 KB, copied). */
  transfer: () => [],
};
