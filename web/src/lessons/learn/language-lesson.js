// The Learn chapter's "language (real English)" task at work: its controls (what to train on — the shipped
// sample of the corpus or the learner's own text —, Train / Pause, Reset, the sentence the model is shown on,
// and the shipped decoder to compare with), and its training session (a worker of its own: learn-session.js,
// running language-run.js), whose snapshots it publishes for its figures (chapter.js, language-figures.js).
import { modelIdThat } from '../../models/registry.js';
import { element } from '../../views/layout.js';
import { field, select } from '../../views/form-controls.js';
import { LearnSession } from './learn-session.js';
import { LANGUAGE_TASK } from './language-run.js';
import { Autoplay } from './autoplay.js';

/**
 * The shipped sample (scripts/lm/learn-sample.mjs): its two files' URLs, resolved here so the worker fetches them from
 * the page's origin. null in a build that carries none (the single file): the learner pastes text instead.
 */
const SAMPLE = {
  train: new URL('../../../assets/corpus/learn-train.txt', import.meta.url),
  heldOut: new URL('../../../assets/corpus/learn-held-out.txt', import.meta.url),
};

/** The most text a learner may paste (characters): ~2 MB trains as well as the sample, tokenized in about a second. */
export const MAX_OWN_TEXT = 2_000_000;

const SOURCES = [
  [
    'sample',
    "the shipped sample of the corpus (WordNet glosses, the World English Bible and Jane Austen's novels: 237,000 tokens to train on)",
  ],
  ['own', 'your own text'],
];

function button(text, action, className = '') {
  const el = element('button', className, text);
  el.type = 'button';
  el.dataset.action = action;
  return el;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

// Held-out loss this far above its lowest point so far (nats) is named memorising, not noise between evaluations.
const MEMORISING_RISE = 0.25;

/**
 * What a learner should know when the held-out loss climbs while training goes on: the model fits its training text
 * word for word (a short pasted text does within a few hundred steps) and grows confident on the held-out lines it
 * never saw. '' while the held-out loss is at or near its lowest.
 */
function memorising(history, evaluation) {
  const lowest = Math.min(...history.map((s) => s.evaluation.loss), evaluation.loss);
  if (evaluation.loss - lowest < MEMORISING_RISE) return '';
  return (
    ` · the held-out loss has risen from its lowest, ${lowest.toFixed(3)}: the model is memorising its training text ` +
    '(overfitting), and more text would help more than more steps'
  );
}

export class LanguageLesson {
  /** @param {import('../chapters.js').ChapterParts} parts */
  constructor({ core, edit, publish }) {
    this.core = core;
    this.edit = edit;
    this.publish = publish;
    this.session = new LearnSession({
      core,
      onModel: (model) => this.modelReady(model),
      onSnapshot: () => this.show(),
      onError: (message) => this.showError(message),
      onMainThread: (note) => Object.assign(this.threadNote, { textContent: note, hidden: false }),
    });
    this.form = element('form', 'controls language-controls');
    this.form.setAttribute('aria-label', 'Training on English');
    this.form.addEventListener('submit', (event) => event.preventDefault());
    this.source = field(this.form, 'Train on', select('languageSource', SOURCES));
    if (!SAMPLE.train) this.source.options[0].disabled = true;
    this.source.value = SAMPLE.train ? 'sample' : 'own';
    const own = this.form.appendChild(element('div', 'own-text'));
    this.ownText = own.appendChild(document.createElement('textarea'));
    Object.assign(this.ownText, {
      name: 'languageText',
      rows: 4,
      spellcheck: false,
      placeholder: 'Paste English text, one sentence a line. Every 20th line is held out to measure the loss on.',
    });
    this.ownText.setAttribute('aria-label', 'Your own text to train on');
    // Measured with this recipe on the first n words of the sample, 60 s each (docs/page.md, "Learn"): 2,000
    // and 5,000 words never passed the unigram line (the model learns the training lines by heart); 20,000 and
    // 50,000 passed it in 15–20 s.
    own.append(
      element(
        'p',
        'hint',
        'How much text gives what: a page (~500 words) is too little to start (the model reads windows ' +
          'of 32 words in both parts); up to ~5,000 words it learns the training lines by heart and never does better than the ' +
          'unigram line on the held-out ones; from ~20,000 words it passes the unigram line within about 20 s. The sample has 237,000 tokens.',
      ),
      button('Train on this text', 'use-text'),
    );
    const actions = this.form.appendChild(element('div', 'learn-actions'));
    this.train = actions.appendChild(button('Train', 'train', 'primary'));
    actions.append(button('Reset', 'reset'));
    this.compare = actions.appendChild(button('Compare with the shipped model', 'compare'));
    this.compare.setAttribute('aria-pressed', 'false');
    this.sentence = field(this.form, 'Your sentence', document.createElement('input'));
    Object.assign(this.sentence, { type: 'text', name: 'languageSentence', spellcheck: false, autocomplete: 'off' });
    this.sentence.addEventListener('input', () => this.edit({ sentence: this.sentence.value }, { typing: true }));
    this.source.addEventListener('change', () => {
      this.syncSource();
      // Back to the sample: train on it again (your text stays in the box for later).
      if (this.source.value === 'sample' && this.trainingText !== null) this.trainOn(null);
    });
    this.form.addEventListener('click', (event) => this.act(event.target.closest('button[data-action]')));
    this.readout = element('p', 'learn-readout');
    this.readout.setAttribute('role', 'status');
    this.threadNote = element('p', 'hint learn-thread');
    this.threadNote.hidden = true;
    this.error = element('p', 'status error learn-error');
    this.error.setAttribute('role', 'alert');
    this.part = element('div', 'language-lesson');
    this.part.append(this.form, this.readout, this.threadNote, this.error);
    this.shipped = null; // { model } while comparing, or null
    this.fallback = null; // the model and figures to go back to if new text cannot be trained on
    this.trainingText = null; // the own text trained on (null: the sample)
    this.textVersion = 0; // counts the texts trained on (the model's key, without comparing the texts)
    this.key = null;
    this.running = false;
    this.autoplay = new Autoplay();
    this.context = null; // the explorer's context at the last sync
    this.resolved = null; // the worker's model message
    this.sentProbe = null; // the sentence last sent to the worker
    this.shippedTop = { sentence: null, prediction: null }; // the shipped decoder's last prediction (computed once per sentence)
    this.readonly = false;
    this.syncSource();
  }

  /** The lesson's content: its controls and readout, then its figures' slots (chapter.js places them). */
  content(slots) {
    this.slots = slots;
    return [this.part, ...slots];
  }

  syncSource() {
    this.ownText.parentElement.hidden = this.source.value !== 'own';
  }

  /** The options the worker makes a trainer from (language-run.js create). */
  options(state) {
    return this.trainingText === null
      ? {
          task: LANGUAGE_TASK,
          sample: { train: SAMPLE.train.href, heldOut: SAMPLE.heldOut.href },
          seed: state.trainSeed,
        }
      : { task: LANGUAGE_TASK, text: this.trainingText, seed: state.trainSeed };
  }

  /**
   * Follows the explorer's state while the task is chosen (active); otherwise pauses and steps aside.
   * @param {object} state @param {{ active: boolean, readonly: boolean, autoplay: boolean, seen: boolean, open: boolean }}
   *   context  active: the task is chosen; autoplay, seen, open: when training starts on its own (autoplay.js)
   */
  sync(state, context) {
    const { active, readonly } = context;
    this.context = context;
    this.state = state;
    this.active = active;
    this.readonly = readonly;
    for (const el of [this.part, ...(this.slots ?? [])]) el.hidden = !active;
    if (!active) {
      if (this.running) this.pause();
      return;
    }
    for (const control of this.form.elements) control.disabled = readonly;
    if (!SAMPLE.train) this.source.options[0].disabled = true;
    const key = `${state.trainSeed}/${this.textVersion}`;
    if (key !== this.key && !SAMPLE.train && this.trainingText === null) {
      this.readout.textContent =
        'This build of the explorer carries no sample of the corpus: paste English text above and press “Train on this text”.';
      this.source.value = 'own';
      this.syncSource();
    } else if (key !== this.key) {
      this.key = key;
      this.reset();
    } else this.sendProbe();
    if (this.sentence.value !== state.sentence && this.sentence.getRootNode().activeElement !== this.sentence)
      this.sentence.value = state.sentence;
    this.followAutoplay();
    this.show();
  }

  /** Starts or pauses training as `autoplay` asks, once the worker's model is ready. */
  followAutoplay() {
    if (!this.resolved || !this.context?.active) return;
    const { autoplay, seen, open } = this.context;
    const action = this.autoplay.decide({ autoplay, seen, open, running: this.running });
    if (action === 'run') {
      this.running = true;
      this.session.run(0);
    } else if (action === 'pause') this.pause();
  }

  reset() {
    this.resolved = null;
    this.sentProbe = null;
    this.running = false;
    this.session.reset(this.options(this.state));
  }

  modelReady(model) {
    this.resolved = model;
    this.fallback = null;
    this.showError('');
    this.sendProbe();
    this.followAutoplay();
  }

  /** The learner's sentence to the worker, when the model is known and the sentence changed. */
  sendProbe() {
    if (!this.resolved || this.sentProbe === this.state.sentence) return;
    this.sentProbe = this.state.sentence;
    this.session.setProbe(this.state.sentence);
  }

  pause() {
    this.running = false;
    this.session.pause();
  }

  act(button) {
    if (!button || this.readonly) return;
    const { action } = button.dataset;
    if (action === 'train' || action === 'reset') this.autoplay.stoppedByLearner();
    if (action === 'train') {
      if (this.running) this.pause();
      else if (this.resolved) {
        this.running = true;
        this.session.run(0);
      }
    } else if (action === 'reset') {
      this.reset();
    } else if (action === 'use-text') {
      const text = this.ownText.value;
      if (text.length > MAX_OWN_TEXT) {
        this.showError(
          `Your text has ${text.length.toLocaleString('en-US')} characters; at most ${MAX_OWN_TEXT.toLocaleString('en-US')} train here.`,
        );
        return;
      }
      this.trainOn(text);
    } else if (action === 'compare') {
      this.toggleShipped();
    }
    this.show();
  }

  /**
   * A new model of `text` (null: the sample). Until the worker answers, the last model and figures are kept: text it
   * cannot train on (too short) leaves them as they were.
   */
  trainOn(text) {
    const { latest, history } = this.session;
    this.fallback = {
      resolved: this.resolved,
      trainingText: this.trainingText,
      textVersion: this.textVersion,
      key: this.key,
      latest,
      history,
    };
    this.trainingText = text;
    this.textVersion += 1;
    this.sync(this.state, { ...this.context, active: true });
  }

  /** Loads the shipped decoder (once per core) to show beside the model in training, or hides it. */
  async toggleShipped() {
    if (this.shipped) {
      this.shipped = null;
    } else {
      try {
        this.shipped = { model: await this.core.languageModel(modelIdThat('generate')) };
      } catch (error) {
        this.showError(`The shipped model did not load: ${error.message}`);
      }
    }
    this.show();
  }

  showError(message) {
    this.error.textContent = message;
    if (message) this.running = false;
    if (message && this.fallback && !this.resolved) {
      const { resolved, trainingText, textVersion, key, latest, history } = this.fallback;
      Object.assign(this, { resolved, trainingText, textVersion, key, fallback: null });
      Object.assign(this.session, { latest, history });
      this.sentProbe = null;
      this.sendProbe();
    }
  }

  /** The shipped decoder's next words after the sentence (computed here, on the page's core, once per sentence), or null. */
  shippedPrediction(sentence) {
    if (!this.shipped || sentence.trim() === '') return null;
    if (this.shippedTop.sentence !== sentence) {
      let prediction = null;
      try {
        const run = this.shipped.model.run(sentence, { k: 10, positions: [-1] });
        prediction = { config: this.shipped.model.config, top: run.top.at(-1), unk: run.unk.at(-1) };
      } catch {
        // (the trained model's figure says what is wrong with the sentence: too long, or [MASK] in it)
      }
      this.shippedTop = { sentence, prediction };
    }
    return this.shippedTop.prediction;
  }

  show() {
    if (!this.active) return;
    const { latest, history } = this.session;
    this.train.textContent = this.running ? 'Pause' : latest?.step > 0 ? 'Continue' : 'Train';
    this.train.setAttribute('aria-pressed', String(this.running));
    this.train.disabled = !this.resolved || this.readonly;
    this.compare.setAttribute('aria-pressed', String(Boolean(this.shipped)));
    this.compare.textContent = this.shipped ? 'Hide the shipped model' : 'Compare with the shipped model';
    if (!latest || !this.resolved) {
      if (this.key !== null)
        this.readout.textContent = this.error.textContent ? '' : 'Reading the text and counting the baselines…';
      return;
    }
    const { evaluation, baselines } = latest;
    const [unigram, bigram] = [Math.log(baselines.unigramPerplexity), Math.log(baselines.bigramPerplexity)];
    const below = [
      ['unigram', unigram],
      ['bigram', bigram],
    ]
      .filter(([, line]) => evaluation.loss < line)
      .map(([name]) => name);
    const passed =
      below.length === 2
        ? 'below both baselines'
        : below.length
          ? `below the ${below[0]} line`
          : 'above both baselines';
    const training = Number.isFinite(latest.trainLoss) ? `training loss ${latest.trainLoss.toFixed(3)} · ` : '';
    this.readout.replaceChildren(
      element('strong', '', `Step ${latest.step}`),
      ` · ${latest.running ? `${latest.stepsPerSecond.toFixed(1)} steps/s` : 'paused'} · ${seconds(latest.elapsedMs)} of training · ` +
        training +
        `held-out loss ${evaluation.loss.toFixed(3)} (perplexity ${evaluation.perplexity.toFixed(0)}, at step ${evaluation.step}), ${passed} ` +
        `(unigram ${unigram.toFixed(2)}, bigram ${bigram.toFixed(2)}) · ${this.resolved.trainTokens.toLocaleString('en-US')} training words` +
        memorising(history, evaluation),
    );
    Object.assign(this.readout.dataset, {
      step: String(latest.step),
      trainLoss: String(latest.trainLoss),
      loss: String(evaluation.loss),
      lossStep: String(evaluation.step),
      unigram: String(unigram),
      bigram: String(bigram),
      running: String(latest.running),
    });
    this.publish('learnLanguage', {
      history,
      latest,
      model: this.resolved,
      shipped: this.shippedPrediction(this.state.sentence),
    });
  }
}
