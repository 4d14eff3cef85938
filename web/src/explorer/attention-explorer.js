// <attention-explorer sentence="…" heads="4" views="attention,positional" …>: type a sentence and watch self-attention,
// every step of a head, and positional encodings recomputed by the C++ core on every keystroke. One core call per update:
// the chosen model's run (models/: core.explain for the designed heads, or a trained model's run()) → a Run; every
// figure is a pure function of the Run. Its own Shadow DOM: no CSS leaks in or out. Attributes preset it (attributes.js);
// with url-state, the whole state also lives in the URL hash. A guided tour (tour-guide.js) walks the concepts.
import { EMBEDDED_VIEW_ATTRIBUTES, OBSERVED_ATTRIBUTES, checkChange, embedCode, readAttributes } from './attributes.js';
import { ELEMENT_MODULE_URL } from './element-url.js';
import { applyConfiguration } from './apply-configuration.js';
import { buildExplorer } from './explorer-layout.js';
import { drawsWithoutSentence, figuresNeeding } from './figures.js';
import { hostPage } from './host-page.js';
import { modelFileNote } from './model-choice.js';
import { OnScreen } from './on-screen.js';
import { AuthorErrors } from './author-errors.js';
import { sentenceNotice } from './sentence-notice.js';
import { sharedCore } from './shared-core.js';
import { styleSheet } from './style-sheet.js';
import { tourStepId } from './tour-steps.js';
import { UrlLink } from './url-link.js';
import { defaultState, withChange } from '../lessons/chapters.js';
import { Models } from '../models/models.js';
import { masksWords, modelEntry } from '../models/registry.js';
import { keepingBlanks } from '../settings/blanks.js';
import { setHidden, setText } from '../views/dom-update.js';
import { keepFocus } from '../views/keep-focus.js';
import { element } from '../views/layout.js';
import { tokenStrip } from '../views/token-strip.js';

/**
 * Where there is no DOM (Node, a Web Worker) the module still imports — a bundler's server-side pass, a
 * test, the single file started as its own training worker — so the class extends an empty one there.
 */
const ElementBase = globalThis.HTMLElement ?? class {};

export class AttentionExplorer extends ElementBase {
  static get observedAttributes() {
    return OBSERVED_ATTRIBUTES;
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [styleSheet()];
  }

  connectedCallback() {
    if (this.root) return;
    this.root = this.shadowRoot.appendChild(element('div', 'ae-root'));
    this.hostPage = hostPage(this, this.root);
    this.status = element('p', 'status');
    this.status.setAttribute('role', 'status');
    this.root.append(this.status);
    this.errors = new AuthorErrors(this);
    window.addEventListener('hashchange', () => this.followHash());
    // The OS switching between light and dark changes the canvas figures' text colours (theme="auto").
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      if (!this.core) return;
      this.visibleFigures.setTheme(this.root);
      this.update();
    });
    this.load();
  }

  /** Loads the core from the assets-base and models-base attributes' folders (or the bundled assets); again when they change. */
  load() {
    const bases = [this.getAttribute('assets-base') ?? '', this.getAttribute('models-base') ?? ''];
    const key = bases.join('\n');
    this.loading = key;
    this.status.textContent = 'Loading the attention core and word vectors…';
    this.status.classList.remove('error');
    sharedCore(...bases).then(
      (core) => this.loading === key && !this.core && this.start(core),
      (error) => this.loading === key && this.showError(`Could not load the attention core: ${error.message}`),
    );
  }

  attributeChangedCallback(name, _, value) {
    // Before the core has loaded, start() reads every attribute; a new assets-base loads from there instead.
    if (!this.core) {
      if ((name === 'assets-base' || name === 'models-base') && this.root) this.load();
      return;
    }
    const { change } = readAttributes((n) => (n === name ? value : null), this.core.dModel);
    this.showConfigErrors(this.readConfiguration());
    if (name === 'tour') {
      if (value === null) this.guide.close();
      else if (change.tour) this.guide.show(change.tour); // a bad value is named and changes nothing
    } else if (Object.keys(change).length) this.applyChange(change);
    else if (name === 'autoplay') {
      this.onScreen.check();
      this.syncInputs();
    } else this.applyConfiguration();
  }

  /** The sentence shown; setting it recomputes everything. */
  get sentence() {
    return this.state?.sentence ?? this.getAttribute('sentence') ?? defaultState().sentence;
  }

  set sentence(text) {
    if (typeof text !== 'string')
      throw new TypeError(`sentence must be a string, got ${text === null ? 'null' : typeof text}`);
    if (this.core) this.change({ sentence: text });
    else this.setAttribute('sentence', text);
  }

  /** The guided tour's step shown (its id), '' when closed; set a step number or id to show it, '' or null to close. */
  get tour() {
    return this.current?.tour ?? '';
  }

  set tour(value) {
    if (!this.core) {
      if (value === null || value === '') this.removeAttribute('tour');
      else this.setAttribute('tour', String(value));
    } else if (value === null || value === '') this.guide.close();
    else this.guide.show(tourStepId(String(value)));
  }

  /** A copy of the current state (the same object the `change` event carries). */
  get state() {
    return this.current && structuredClone(this.current);
  }

  /**
   * The designed heads' last trace drawn (see core.explain), after any update still waiting for its frame; undefined
   * before the first one and while a trained model is shown (getRun() has what any model computed).
   */
  getTrace() {
    this.flush();
    return this.trace ?? undefined;
  }

  /** The last Run drawn (models/run.js: tokens, attention [L, H, T, T], heads…), for any model; undefined before the first. */
  getRun() {
    this.flush();
    return this.run;
  }

  /**
   * A keystroke's update waits for the next frame: the browser paints the typed character first, and
   * the figures follow in the frame after (the text box never waits for figures: INP's measure), while
   * keystrokes faster than frames coalesce into one update. The figures on screen are marked stale
   * until then.
   */
  scheduleUpdate() {
    this.visibleFigures?.markStale();
    if (this.pending) return;
    this.pending = true;
    this.typing = true; // until an update of another kind runs first (update())
    requestAnimationFrame(() => setTimeout(() => this.flush()));
  }

  /** Runs the update a keystroke scheduled, if it has not run yet. */
  flush() {
    if (this.pending) this.update();
  }

  /** Reads the attributes: the defaults they set (url-state links store only what differs), views and controls. */
  readConfiguration() {
    const { change, views, controls, theme, errors } = readAttributes(
      (name) => this.getAttribute(name),
      this.core.dModel,
    );
    this.defaults = withChange(defaultState(), change);
    this.chosen = { views, controls, theme };
    return errors;
  }

  start(core) {
    this.core = core;
    this.runner = new Models(core);
    this.runner.onSettled(() => this.update()); // a model chosen has loaded: its figures replace the note
    const errors = this.readConfiguration();
    this.link = new UrlLink({
      enabled: () => this.hasAttribute('url-state'),
      state: () => this.current,
      defaults: () => this.defaults,
    });
    this.current = frozen(this.link.apply(this.defaults));
    this.onScreen = new OnScreen(
      this,
      () => this.syncInputs(),
      () => this.hasAttribute('autoplay'),
    );
    this.build();
    this.status.textContent = '';
    this.showConfigErrors(errors);
    this.update();
    this.guide.resume(this.link.read());
  }

  /** Builds the element's content (explorer-layout.js) and shows it as the attributes configure it. */
  build() {
    buildExplorer(this);
  }

  /** Only the open chapter is laid out (so only its figures draw); the tabs follow, and the sentence steps aside for a chapter that does not read it. */
  syncChapters() {
    this.openChapter = this.tabs.sync(this.current, this.chosen.views);
    this.root.classList.toggle('without-sentence', this.openChapter?.usesSentence === false);
  }

  /** The <attention-explorer> tag that reproduces this view. */
  embedCode() {
    const kept = Object.fromEntries(EMBEDDED_VIEW_ATTRIBUTES.map((name) => [name, this.getAttribute(name)]));
    // A folder named relative to this page is named in full: the snippet is pasted elsewhere.
    for (const name of ['assets-base', 'models-base'])
      if (kept[name]) kept[name] = new URL(kept[name], document.baseURI).href;
    return embedCode(this.current, this.core.dModel, ELEMENT_MODULE_URL, kept);
  }

  /** Views, controls, height and readonly from the attributes. */
  applyConfiguration() {
    applyConfiguration(this);
  }

  /** A change made in the explorer's own controls (none when readonly); `typing`: see applyChange(). */
  edit(partial, options) {
    if (!this.hasAttribute('readonly')) this.applyChange(partial, options);
  }

  /**
   * A change from JavaScript, checked as the attributes are (attributes.js checkChange): a bad one is shown
   * in the element and thrown, and changes nothing.
   */
  change(partial) {
    if (!this.core) throw new Error('change(): the explorer is still loading its core (el.core is set once it has)');
    try {
      checkChange(partial, this.current, this.core.dModel);
    } catch (error) {
      this.showError(error.message);
      throw error;
    }
    this.applyChange(partial);
  }

  /**
   * Applies a change, redraws, mirrors it in the URL (url-state) and tells listeners (`change` event).
   * @param {{ typing?: boolean }} [options]  typing: a keystroke in a text box, whose URL is written once the
   *   keystrokes pause (history.replaceState costs a keystroke ~3 ms of its frame in Chromium)
   */
  applyChange(partial, { typing = false } = {}) {
    this.current = frozen(withChange(this.current, keepingBlanks(partial, this.current, this.core.tokenize)));
    if (typing) this.scheduleUpdate();
    else this.update();
    if (typing) this.link.later();
    else this.link.write();
    // The state itself, not a copy (it is frozen, and every change makes a new one); `changed` names the fields set.
    this.dispatchEvent(
      Object.assign(new CustomEvent('change', { detail: this.current }), { changed: Object.keys(partial) }),
    );
  }

  /** A link edited by hand (or history navigation) changes the view. */
  followHash() {
    if (!this.core || !this.hasAttribute('url-state')) return;
    this.link.cancel(); // the link wins over a keystroke's pending write
    if (this.link.shows(this.current)) return;
    const tour = this.current.tour;
    this.current = frozen(this.link.apply(this.defaults));
    if (this.current.tour && this.current.tour !== tour)
      this.guide.resume(this.link.read()); // applies the step's state
    else this.update();
  }

  /** One core call for the current state (and the lenses on screen); on error, says why and keeps the last good figures. */
  compute() {
    // The designed trace's optional parts only for the figures on screen: one core call computes what is shown.
    const run = this.runner.run(this.current, {
      positionChecks: this.wants(figuresNeeding('checks')),
      encoderBlock: this.wants(figuresNeeding('block')),
      project2d: this.wants(figuresNeeding('projection')),
    });
    const result = { run, trace: run.trace ?? null, projected: run.projected ?? null };
    return { ...result, ...this.lensData.forRun(run, this.current, (figures) => this.wants(figures)) };
  }

  /** Whether any of these figures is on screen. */
  wants(names) {
    return this.visibleFigures.wants(names);
  }

  update() {
    // A keystroke changes only the text typed: the chapter and the settings stay, and the closed chapters' controls
    // follow at the next update of another kind (opening a chapter is one), so a keystroke costs them nothing.
    const typed = this.pending && this.typing;
    this.pending = this.typing = false;
    if (!typed) this.syncChapters();
    this.syncInputs(typed);
    this.guide.sync();
    let result;
    try {
      result = this.compute();
    } catch (error) {
      this.showError(error.message);
      return;
    }
    this.status.textContent = '';
    this.status.classList.remove('error');
    const previous = this.run ?? null; // the figures outline what this update changed
    this.trace = result.trace;
    this.run = result.run;
    this.models.say(this.run.status === 'error' ? modelFileNote(this.run.model, this.run.can.ourModel) : '');
    const wants = (figures) => this.wants(figures);
    for (const { syncRun } of this.built) syncRun?.(this.current, this.run, wants);
    this.render(result, previous);
  }

  /**
   * The text boxes and every control follow the state: the settings form here, each chapter's own in its sync().
   * @param {boolean} [typed]  only text was typed since the last update: the text boxes and the open chapter follow
   */
  syncInputs(typed = false) {
    const { sentence, compare, compareSentence } = this.current;
    if (this.input.value !== sentence) this.input.value = sentence;
    if (this.second.value !== (compareSentence ?? '')) this.second.value = compareSentence ?? '';
    const readonly = this.hasAttribute('readonly');
    const context = {
      readonly,
      open: this.openChapter?.id,
      autoplay: this.hasAttribute('autoplay'),
      seen: this.onScreen.seen,
      views: this.chosen.views,
    };
    if (typed) this.builtById.get(context.open)?.sync?.(this.current, context);
    else for (const { sync } of this.built) sync?.(this.current, context);
    setHidden(this.second.parentElement, !compare || !this.chosen.controls.has('sentence'));
    if (typed) return;
    this.models.sync(this.current, readonly);
    if (!readonly) this.controls.sync(this.current);
  }

  render(result, previous) {
    const { run } = result;
    const empty = run.tokens.length === 0;
    setHidden(this.empty, !empty);
    setHidden(this.chapters, empty && !(this.openChapter && drawsWithoutSentence(this.openChapter)));
    const unknownChapter =
      this.openChapter && this.openChapter.id !== this.current.chapter && this.tabs.unknown(this.current.chapter);
    setText(
      this.notice,
      sentenceNotice(run, { maxTokens: this.core.maxTokens, vocabSize: this.core.vocabSize, unknownChapter }),
    );
    keepFocus(this.slots.tokens, () => {
      const shown = this.slots.tokens.firstChild;
      const strip = tokenStrip(
        run,
        { vocabSize: this.core.vocabSize, maskable: masksWords(run.can) },
        shown ?? undefined,
      );
      if (strip !== shown) this.slots.tokens.replaceChildren(strip);
    });
    if (empty && this.chapters.hidden) return;
    this.visibleFigures.draw(result, previous, this.current);
  }

  /** Bad attributes are named (they set nothing) until they are fixed. */
  showConfigErrors(errors) {
    this.configErrors.textContent = errors.map((error) => `Attribute ${error}.`).join(' ');
    for (const error of errors) this.errors.say(`Attribute ${error}.`);
  }

  showError(message) {
    this.status.textContent = message;
    this.status.classList.add('error');
    this.errors.say(message);
  }

  /** Clicking a token replaces it by [MASK]; clicking again restores it (for a model that reads [MASK]). */
  toggleMask(item) {
    if (!item || this.hasAttribute('readonly') || !masksWords(modelEntry(this.current.model).can)) return;
    const index = Number(item.dataset.index);
    const masked = this.current.maskedPositions;
    this.applyChange({
      maskedPositions: masked.includes(index) ? masked.filter((i) => i !== index) : [...masked, index],
    });
  }
}

/** The state as the element keeps it: the object and its lists frozen, so a `change` listener can hold it but not alter it. */
function frozen(state) {
  for (const value of Object.values(state)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(state);
}

/**
 * Defines <attention-explorer> in this window's registry. Importing the module calls it; it does nothing
 * where there is no registry (Node, a worker) and when the name is already defined (a second copy of the
 * module on the page keeps the first definition).
 * @returns {boolean} whether <attention-explorer> is defined now
 */
export function define() {
  if (!globalThis.customElements) return false;
  if (!customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorer);
  return true;
}

define();
