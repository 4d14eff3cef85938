// <attention-explorer sentence="…" heads="4" views="attention,positional" …>: type a sentence and watch
// self-attention, every step of a head, and positional encodings recomputed by the C++ core on every
// keystroke. One core call per update (core.explain, or core.compareContexts in comparison mode) → trace;
// every figure is a pure function of the trace. Its own Shadow DOM: no CSS leaks in or out. Attributes
// preset it (see attributes.js); with url-state, the whole state also lives in the URL hash. A guided
// tour (tour-guide.js) walks the concepts, each step setting the state.
import { OBSERVED_ATTRIBUTES, THEMES, checkChange, embedCode, readAttributes } from './attributes.js';
import { ELEMENT_MODULE_URL } from './element-url.js';
import { ChapterTabs } from './chapter-tabs.js';
import { buildControls, buildLineControls } from './controls.js';
import { FIGURES, drawsWithoutSentence, figuresNeeding } from './figures.js';
import { keepFocus } from './keep-focus.js';
import { buildSimplexControls } from '../lessons/lenses/simplex-controls.js';
import { simplexInputs } from '../lessons/lenses/simplex-data.js';
import { exportFigure } from './figure-export.js';
import { buildLabControls } from '../lessons/positions/lab-controls.js';
import { LensData } from './lens-data.js';
import { element, showChosen, textBox } from './layout.js';
import { shareBar } from './share-bar.js';
import { sharedCore } from './shared-core.js';
import { styleSheet } from './style-sheet.js';
import { COMPARISON, defaultState, explainOptions, withChange } from './state.js';
import { TourGuide } from './tour-guide.js';
import { tourHost } from './tour-host.js';
import { tourStepId } from './tour-steps.js';
import { UrlLink } from './url-link.js';
import { VisibleFigures } from './visible-figures.js';
import { tokenStrip } from '../views/token-strip.js';

export class AttentionExplorer extends HTMLElement {
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
    this.status = element('p', 'status', 'Loading the attention core and word vectors…');
    this.status.setAttribute('role', 'status');
    this.root.append(this.status);
    window.addEventListener('hashchange', () => this.followHash());
    // The OS switching between light and dark changes the canvas figures' text colours (theme="auto").
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      if (!this.core) return;
      this.visibleFigures.setTheme(this.root);
      this.update();
    });
    sharedCore(this.getAttribute('assets-base') ?? '').then(
      (core) => this.start(core),
      (error) => this.showError(`Could not load the attention core: ${error.message}`));
  }

  attributeChangedCallback(name, _, value) {
    if (!this.core) return;  // start() reads every attribute
    const { change } = readAttributes((n) => (n === name ? value : null), this.core.dModel);
    this.showConfigErrors(this.readConfiguration());
    if (name === 'tour') {
      if (value === null) this.guide.close();
      else if (change.tour) this.guide.show(change.tour);  // a bad value is named and changes nothing
    } else if (Object.keys(change).length) this.applyChange(change);
    else this.applyConfiguration();
  }

  /** The sentence shown; setting it recomputes everything. */
  get sentence() {
    return this.state?.sentence ?? this.getAttribute('sentence') ?? defaultState().sentence;
  }

  set sentence(text) {
    if (typeof text !== 'string') throw new TypeError(`sentence must be a string, got ${text === null ? 'null' : typeof text}`);
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

  /** The last trace drawn (see core.explain), after any update still waiting for its frame; undefined before the first one. */
  getTrace() {
    this.flush();
    return this.trace;
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
    requestAnimationFrame(() => setTimeout(() => this.flush()));
  }

  /** Runs the update a keystroke scheduled, if it has not run yet. */
  flush() {
    if (this.pending) this.update();
  }

  /** Reads the attributes: the defaults they set (url-state links store only what differs), views and controls. */
  readConfiguration() {
    const { change, views, controls, theme, errors } = readAttributes((name) => this.getAttribute(name), this.core.dModel);
    this.defaults = withChange(defaultState(), change);
    this.chosen = { views, controls, theme };
    return errors;
  }

  start(core) {
    this.core = core;
    const errors = this.readConfiguration();
    this.link = new UrlLink({ enabled: () => this.hasAttribute('url-state'), state: () => this.current, defaults: () => this.defaults });
    this.current = this.link.apply(this.defaults);
    this.build();
    this.status.textContent = '';
    this.showConfigErrors(errors);
    this.update();
    this.guide.resume(this.link.read());
  }

  build() {
    this.input = textBox('Sentence', (value) => this.edit({ sentence: value }, { typing: true }));
    this.second = textBox('Compared with', (value) => this.edit({ compareSentence: value }, { typing: true }));
    this.target = textBox('Target sentence (e.g. a translation)', (value) => this.edit({ crossTarget: value }, { typing: true }));
    this.simplexControls = buildSimplexControls();
    this.controls = buildControls(this.core.dModel, this.core.maxTokens);
    this.controls.form.addEventListener('input', (event) => this.edit(this.controls.read(event.target.name)));
    this.lineControls = buildLineControls();
    this.labControls = buildLabControls();
    this.notice = element('p', 'notice');
    this.configErrors = element('p', 'status error config-errors');
    this.configErrors.setAttribute('role', 'alert');
    this.slots = Object.fromEntries(['tokens', ...Object.keys(FIGURES)].map((name) => [name, element('div', `slot slot-${name}`)]));
    this.visibleFigures = new VisibleFigures(this.slots, { needData: () => this.update(), afterDraw: () => this.guide.afterDraw() });
    this.slots.tokens.addEventListener('click', (event) => this.toggleMask(event.target.closest('[data-index]')));
    this.slots.tokens.addEventListener('keydown', (event) => (event.key === 'Enter' || event.key === ' ') && this.toggleMask(event.target.closest('[data-index]')));
    this.root.addEventListener('select-head', (event) => this.applyChange({ head: event.detail }));
    this.root.addEventListener('select-step', (event) => this.applyChange({ step: event.detail }));
    this.root.addEventListener('select-query', (event) => this.applyChange({ lineQuery: event.detail }));
    // Hovering or tapping a row of the weights shows that word's mix; it is not state (nor in the URL).
    this.root.addEventListener('focus-query', (event) => {
      if (this.visibleFigures.extra.mix?.focusQuery !== event.detail.row) this.visibleFigures.redraw('mix', { focusQuery: event.detail.row });
    });
    this.root.addEventListener('click', (event) => {
      const button = event.target.closest('[data-export]');
      if (button) exportFigure(button.closest('figure'), button.dataset.export, this.current);
    });
    const share = shareBar({
      link: () => {
        this.link.write();
        return location.href;
      },
      embedCode: () => this.embedCode(),
      say: (text) => { this.status.textContent = text; },
    });
    this.guide = new TourGuide(tourHost(this), share.button);
    this.linkButton = share.finish();
    this.share = share.bar;
    this.compareButton = element('button', 'compare-button');
    this.compareButton.type = 'button';
    this.empty = element('p', 'empty-state', 'Type a sentence above to see how its words attend to each other.');
    const tokens = element('section', 'tokens');
    tokens.setAttribute('aria-label', 'Tokens');
    tokens.append(this.slots.tokens);
    const edit = (change) => this.edit(change);
    const parts = { slots: this.slots, core: this.core, edit, state: () => this.current, lineControls: this.lineControls, labControls: this.labControls,
      simplexControls: this.simplexControls, compareButton: this.compareButton, target: this.target };
    this.parts = { views: { tokens: [tokens] }, groups: [], controls: this.controls.form, sentence: [this.input.parentElement],
      share: this.share, figureControls: [] };
    this.tabs = new ChapterTabs(parts, (chapter) => this.applyChange({ chapter }));
    this.chapters = this.tabs.sections;
    this.lessons = [];  // the chapters' parts that follow the state (their own controls), synced at every update
    const messages = {};
    for (const built of this.tabs.chapters().values()) {
      Object.assign(this.parts.views, built.views);
      Object.assign(messages, built.messages);
      this.parts.figureControls.push(...built.figureControls);
      this.parts.groups.push(built.section);
      this.lessons.push(...(built.lessons ?? []));
    }
    this.lensData = new LensData(this.core, messages);
    for (const [name, elements] of Object.entries(this.parts.views)) for (const el of elements) el.dataset.view = name;
    const bar = this.chapterBar = element('div', 'chapter-bar');
    bar.append(this.tabs.nav, this.share);
    this.moreSettings = this.controls.form.querySelector('.more-settings');
    // Last, so that it docks at the bottom (position: sticky) while everything above it scrolls.
    this.root.append(this.configErrors, this.input.parentElement, this.second.parentElement, tokens, bar, this.controls.form,
      this.notice, this.empty, this.chapters, this.guide.panel.panel);
    this.applyConfiguration();
  }

  /** Only the open chapter is laid out (so only its figures draw); the tabs follow, and the sentence steps aside for a chapter that does not read it. */
  syncChapters() {
    this.openChapter = this.tabs.sync(this.current.chapter, this.chosen.views);
    this.root.classList.toggle('without-sentence', this.openChapter?.usesSentence === false);
  }

  /** The <attention-explorer> tag that reproduces this view. */
  embedCode() {
    return embedCode(this.current, this.core.dModel, ELEMENT_MODULE_URL, { views: this.getAttribute('views'), controls: this.getAttribute('controls') });
  }

  /** Views, controls, height and readonly from the attributes. */
  applyConfiguration() {
    showChosen(this.parts, this.chosen);
    this.syncChapters();
    for (const theme of THEMES) this.root.classList.toggle(`theme-${theme}`, this.chosen.theme === theme);
    this.visibleFigures.setTheme(this.root);
    // More settings, and the bar of chapters and sharing, only when something in them shows.
    this.moreSettings.hidden = [...this.moreSettings.querySelectorAll('.control')].every((control) => control.hidden);
    this.chapterBar.hidden = this.tabs.nav.hidden && this.share.hidden;
    this.linkButton.hidden = !this.hasAttribute('url-state');
    const height = this.getAttribute('height');
    this.root.style.height = height ? (/^\d+$/.test(height) ? `${height}px` : height) : '';
    this.root.classList.toggle('fixed-height', Boolean(height));
    // In a box of fixed height the weights' cells shrink so the heatmap fits in it with the controls above.
    const px = /^\d+$/.test(height ?? '') ? Number(height) : null;
    this.visibleFigures.extra.attention = { cellBudget: px ? Math.max(120, px - 340) : undefined };
    const readonly = this.hasAttribute('readonly');
    for (const box of [this.input, this.second, this.target]) box.readOnly = readonly;
    for (const form of [this.controls.form, ...this.parts.figureControls]) {
      for (const control of form.elements) control.disabled = readonly;
    }
    this.compareButton.disabled = readonly;
    if (!readonly) this.syncInputs();  // re-applies the controls' own enabled states
    this.guide.sync();
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
    this.current = withChange(this.current, partial);
    if (typing) this.scheduleUpdate();
    else this.update();
    if (typing) this.link.later();
    else this.link.write();
    this.dispatchEvent(new CustomEvent('change', { detail: this.state }));
  }

  /** A link edited by hand (or history navigation) changes the view. */
  followHash() {
    if (!this.core || !this.hasAttribute('url-state')) return;
    this.link.cancel();  // the link wins over a keystroke's pending write
    if (this.link.shows(this.current)) return;
    const tour = this.current.tour;
    this.current = this.link.apply(this.defaults);
    if (this.current.tour && this.current.tour !== tour) this.guide.resume(this.link.read());  // applies the step's state
    else this.update();
  }

  /** One core call for the current state (and the lenses on screen); on error, says why and keeps the last good figures. */
  compute() {
    const { sentence, compare, compareSentence } = this.current;
    // The trace's optional parts only for the figures on screen: one core call computes what is shown.
    const options = { ...explainOptions(this.current), positionChecks: this.wants(figuresNeeding('checks')),
      encoderBlock: this.wants(figuresNeeding('block')), project2d: this.wants(figuresNeeding('projection')) };
    if (!compare) {
      const trace = this.core.explain(sentence, options);
      return { trace, ...this.lensesFor(trace), projected: { traces: [trace], projection: trace.projection } };
    }
    const pair = this.core.compareContexts(sentence, compareSentence, options);
    return { trace: pair.first, ...this.lensesFor(pair.first), projected: { traces: [pair.first, pair.second], projection: pair.projection } };
  }

  /** The lenses' data for this trace: for the figures on screen (see LensData). */
  lensesFor(trace) {
    return this.lensData.forTrace(trace, this.current, (figures) => this.wants(figures));
  }

  /** Whether any of these figures is on screen. */
  wants(names) {
    return this.visibleFigures.wants(names);
  }

  update() {
    this.pending = false;
    this.syncChapters();
    this.syncInputs();
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
    const previous = this.trace;
    this.trace = result.trace;
    this.syncLabControls();
    this.render(result, previous);
  }

  syncInputs() {
    const { sentence, compare, compareSentence } = this.current;
    if (this.input.value !== sentence) this.input.value = sentence;
    if (this.second.value !== (compareSentence ?? '')) this.second.value = compareSentence ?? '';
    if (this.target.value !== this.current.crossTarget) this.target.value = this.current.crossTarget;
    const context = { readonly: this.hasAttribute('readonly'), open: this.openChapter?.id, autoplay: this.hasAttribute('autoplay') };
    for (const lesson of this.lessons) lesson.sync(this.current, context);
    this.second.parentElement.hidden = !compare || !this.chosen.controls.has('sentence');
    this.compareButton.textContent = compare ? 'Back to one sentence' : `Compare “bank”: “${COMPARISON[0]}” vs. “${COMPARISON[1]}”`;
    if (this.hasAttribute('readonly')) return;
    this.controls.sync(this.current);
    this.lineControls.sync(this.current);
    this.simplexControls.sync(simplexInputs(this.current));
  }

  /** The lab's token selects follow the sentence: synced after each trace while the lab is on screen
   * (rebuilding hundreds of options per keystroke off screen would cost the frame). */
  syncLabControls() {
    if (this.wants([...figuresNeeding('lab'), ...figuresNeeding('checks')])) this.labControls.sync(this.current, this.trace.tokens);
  }

  render(result, previous) {
    const { trace } = result;
    const empty = trace.tokens.length === 0;
    this.empty.hidden = !empty;
    this.chapters.hidden = empty && !(this.openChapter && drawsWithoutSentence(this.openChapter));
    this.notice.textContent = [
      trace.truncated && `Showing the first ${trace.tokens.length} of ${trace.totalTokens} tokens (the explorer traces at most ${this.core.maxTokens}).`,
      this.openChapter && this.openChapter.id !== this.current.chapter && this.tabs.unknown(this.current.chapter),
    ].filter(Boolean).join(' ');
    keepFocus(this.slots.tokens, () => this.slots.tokens.replaceChildren(tokenStrip(trace, { vocabSize: this.core.vocabSize })));
    if (empty && this.chapters.hidden) return;
    this.visibleFigures.draw(result, previous, this.current);
  }

  /** Bad attributes are named (they set nothing) until they are fixed. */
  showConfigErrors(errors) {
    this.configErrors.textContent = errors.map((error) => `Attribute ${error}.`).join(' ');
  }

  showError(message) {
    this.status.textContent = message;
    this.status.classList.add('error');
  }

  /** Clicking a token replaces it by [MASK]; clicking again restores it. */
  toggleMask(item) {
    if (!item || this.hasAttribute('readonly')) return;
    const index = Number(item.dataset.index);
    const masked = this.current.maskedPositions;
    this.applyChange({ maskedPositions: masked.includes(index) ? masked.filter((i) => i !== index) : [...masked, index] });
  }
}

if (!customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorer);
