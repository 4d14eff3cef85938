// <attention-explorer sentence="…" url-state>: type a sentence and watch self-attention, every step of a head,
// and sinusoidal positional encodings recomputed by the C++ core on every keystroke. One core call per
// update (core.explain, or core.compareContexts in comparison mode) → trace; every figure is a pure
// function of the trace. With url-state, the whole state lives in the URL hash (a shareable link).
import { createAttentionCore } from '../core/index.js';
import { attentionHeatmap } from '../views/attention-heatmap.js';
import { binaryPositions } from '../views/binary-positions.js';
import { encodingCurves } from '../views/encoding-curves.js';
import { formula } from '../views/formulas.js';
import { headGrid } from '../views/head-grid.js';
import { labEncoding } from '../views/lab-encoding.js';
import { lineView } from '../views/line-view.js';
import { normBars } from '../views/norm-bars.js';
import { pipeline } from '../views/pipeline.js';
import { positionSimilarity } from '../views/position-similarity.js';
import { positionalHeatmap } from '../views/positional-heatmap.js';
import { projectionView } from '../views/projection-view.js';
import { repeatedWord } from '../views/repeated-word.js';
import { rotationView } from '../views/rotation-view.js';
import { scoreTerms } from '../views/score-terms.js';
import { shuffleCheck } from '../views/shuffle-check.js';
import { tokenStrip } from '../views/token-strip.js';
import { buildControls, buildLineControls } from './controls.js';
import { buildLabControls } from './lab-controls.js';
import { COMPARISON, D2L_PRESET, defaultState, explainOptions, labOptions, rotationPair, withChange } from './state.js';
import { stateFromHash, stateToHash } from './url-state.js';
import './explorer.css';

/** Every figure as a pure function of (the computed result, the previous trace, the state). */
const FIGURES = {
  heads: ({ trace }, _, { head }) => headGrid(trace, { head }),
  attention: ({ trace }, previous, { head }) => attentionHeatmap(trace, { head, previous }),
  lines: ({ trace }, _, { lineHeads, lineQuery, lineThreshold }) => lineView(trace, {
    heads: lineHeads, query: lineQuery !== null && lineQuery < trace.tokens.length ? lineQuery : null, threshold: lineThreshold }),
  pipeline: ({ trace }, _, { head }) => pipeline(trace, { head }),
  projection: ({ projected }) => projectionView(projected),
  positional: ({ trace }) => positionalHeatmap(trace),
  labEncoding: ({ trace, lab }, _, { labBase }) => labEncoding(lab, { tokens: trace.tokens, base: labBase }),
  binaryPositions: ({ trace, lab }) => binaryPositions(lab, { tokens: trace.tokens }),
  encodingCurves: ({ lab }, _, { labFirstColumn, labBase }) => encodingCurves(lab, { firstColumn: labFirstColumn, base: labBase }),
  positionSimilarity: ({ trace, lab }, _, { labCosine }) => positionSimilarity(lab, { cosine: labCosine, tokens: trace.tokens }),
  rotation: ({ trace, lab }, _, state) => rotationView(lab, { ...rotationPair(state, trace.tokens.length), tokens: trace.tokens }),
  shuffle: ({ trace }, _, { head }) => shuffleCheck(trace, { head }),
  repeated: ({ trace }, _, { head }) => repeatedWord(trace, { head }),
  scoreTerms: ({ trace }, _, { head }) => scoreTerms(trace, { head }),
  norms: ({ trace }) => normBars(trace),
};

/** Figures that need more than the plain trace: their data is computed only while one of them is on screen. */
const NEEDS_CHECKS = ['shuffle', 'repeated', 'scoreTerms', 'norms'];
const NEEDS_LAB = ['labEncoding', 'binaryPositions', 'encodingCurves', 'positionSimilarity', 'rotation'];

let sharedCore;  // every explorer on a page shares one wasm module and one embedding asset
function loadCore() {
  sharedCore ??= createAttentionCore();
  return sharedCore;
}

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

function section(title, intro, ...children) {
  const el = element('section');
  el.append(element('h3', '', title));
  if (intro) el.append(element('p', 'intro', intro));
  el.append(...children);
  return el;
}

export class AttentionExplorer extends HTMLElement {
  connectedCallback() {
    if (this.root) return;
    // The state's defaults: the built-in ones and the attributes. With url-state, the URL hash holds
    // what differs from them, so the view can be shared as a link.
    this.defaults = withChange(defaultState(), this.hasAttribute('sentence') ? { sentence: this.getAttribute('sentence') } : {});
    this.state = this.withHash(this.defaults);
    if (this.hasAttribute('url-state')) {
      window.addEventListener('hashchange', () => {
        if (location.hash.slice(1) === stateToHash(this.state, this.defaults)) return;
        this.state = this.withHash(this.defaults);
        if (this.core) this.update();
      });
    }
    this.root = this.appendChild(element('div', 'ae-root'));
    this.status = element('p', 'status', 'Loading the attention core and 20,000 word vectors…');
    this.status.setAttribute('role', 'status');
    this.root.append(this.status);
    loadCore().then((core) => this.start(core), (error) => this.showError(`Could not load the attention core: ${error.message}`));
  }

  start(core) {
    this.core = core;
    this.input = this.textBox('Sentence', (value) => this.change({ sentence: value }));
    this.second = this.textBox('Compared with', (value) => this.change({ compareSentence: value }));
    this.controls = buildControls(core.dModel, core.maxTokens);
    this.controls.form.addEventListener('input', (event) => this.change(this.controls.read(event.target.name)));
    this.lineControls = buildLineControls();
    this.lineControls.form.addEventListener('input', () => this.change(this.lineControls.read()));
    this.labControls = buildLabControls();
    for (const form of [this.labControls.encoding, this.labControls.rotation, this.labControls.input]) {
      form.addEventListener('input', () => this.change(this.labControls.read()));
      form.addEventListener('click', (event) => this.labAction(event.target.closest('button')?.dataset.action));
    }
    this.notice = element('p', 'notice');
    this.slots = Object.fromEntries(['tokens', ...Object.keys(FIGURES)].map((name) => [name, element('div', `slot slot-${name}`)]));
    this.watchVisibility();
    this.slots.tokens.addEventListener('click', (event) => this.toggleMask(event.target.closest('[data-index]')));
    this.slots.tokens.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') this.toggleMask(event.target.closest('[data-index]'));
    });
    this.root.addEventListener('select-head', (event) => this.change({ head: event.detail }));
    this.root.addEventListener('select-query', (event) => this.change({ lineQuery: event.detail }));
    this.linkButton = element('button', 'link-button', 'Copy link to this view');
    this.linkButton.type = 'button';
    this.linkButton.hidden = !this.hasAttribute('url-state');
    this.linkButton.addEventListener('click', () => this.copyLink());
    this.compareButton = element('button', 'compare-button');
    this.compareButton.type = 'button';
    this.compareButton.addEventListener('click', () => this.toggleComparison());
    this.empty = element('p', 'empty-state', 'Type a sentence above to see how its words attend to each other.');
    const linePanel = element('div', 'line-panel');
    linePanel.append(this.lineControls.form, this.slots.lines);
    const pair = element('div', 'side-by-side');
    pair.append(this.slots.attention, linePanel);
    this.figures = element('div', 'figures');
    this.figures.append(
      section('Self-attention', 'All heads at a glance (click one to select it), the selected head in detail, and who attends to whom.',
        formula('attention'), this.slots.heads, pair),
      section('Every step of the selected head', 'From word vectors to the encoder block\'s output. Hover any cell for its value and origin.', this.slots.pipeline),
      section('Context moves meaning', 'The same word starts at the same point; attention pulls it toward its context. ' +
        'The comparison uses identity projections and no positional encoding, so the arrows show word-vector context alone.',
      this.compareButton, this.slots.projection),
      section('Sinusoidal positional encoding', '', formula('positional'), this.slots.positional),
      this.positionalLab());
    this.status.textContent = '';
    this.root.append(this.input.parentElement, this.second.parentElement, this.controls.form, this.linkButton, this.notice,
      section('Tokens', 'Click a word to replace it by [MASK] (the mean word vector), click again to restore it.', this.slots.tokens),
      this.empty, this.figures);
    this.update();
  }

  /** The positional-encoding lab: the encoding itself, relative position, and why it matters for attention. */
  positionalLab() {
    const lab = element('section', 'positional-lab');
    lab.append(element('h2', '', 'Positional-encoding lab'));
    const pair = (...names) => {
      const row = element('div', 'side-by-side');
      row.append(...names.map((name) => this.slots[name]));
      return row;
    };
    lab.append(
      section('1. The encoding itself', 'Its own d_model, base and number of positions (independent of the 100-d word vectors). ' +
        'Each row is a position; fast columns on the left, slow ones on the right — like the low and high bits of a binary counter.',
      this.labControls.encoding, pair('labEncoding', 'binaryPositions'), this.slots.encodingCurves),
      section('2. Relative position', 'Positions close together have similar encodings, and moving by δ is the same rotation wherever you start.',
        this.slots.positionSimilarity, this.labControls.rotation, this.slots.rotation),
      section('3. Why it matters for attention', 'The sentence above, through the selected head. Switch the position information, shuffle the words, ' +
        'and change how loud P is against the word vectors.',
      this.labControls.input, this.slots.shuffle, this.slots.repeated, this.slots.scoreTerms, this.slots.norms));
    return lab;
  }

  labAction(action) {
    if (action === 'd2l-preset') this.change(D2L_PRESET);
    else if (action === 'shuffle') this.change({ shuffleSeed: this.state.shuffleSeed + 1 });
  }

  /** The lab's encoding study for a sentence of seqLen tokens, recomputed only when its inputs change. */
  labFor(seqLen) {
    const options = labOptions(this.state, seqLen);
    const key = JSON.stringify(options);
    if (this.labKey !== key) {
      this.labResult = this.core.positionalEncodingLab(options);
      this.labKey = key;
    }
    return this.labResult;
  }

  textBox(labelText, onInput) {
    const label = element('label', 'sentence-label', labelText);
    const box = label.appendChild(document.createElement('textarea'));
    box.rows = 2;
    box.spellcheck = false;
    box.addEventListener('input', () => onInput(box.value));
    return box;
  }

  change(partial) {
    this.state = withChange(this.state, partial);
    this.update();
    if (this.hasAttribute('url-state')) history.replaceState(null, '', `#${stateToHash(this.state, this.defaults)}`);
  }

  /** `state` with what the URL hash sets (only with the url-state attribute). */
  withHash(state) {
    return this.hasAttribute('url-state') ? withChange(state, stateFromHash(location.hash, this.defaults)) : state;
  }

  /** Copies the link of the current view; if the clipboard is not available, shows the link instead. */
  copyLink() {
    navigator.clipboard.writeText(location.href).then(
      () => { this.status.textContent = 'Link to this view copied.'; },
      () => { this.status.textContent = `Link to this view: ${location.href}`; });
  }

  /** One core call for the current state; on error, says why and keeps the last good figures. */
  compute() {
    const { sentence, compare, compareSentence } = this.state;
    const options = { ...explainOptions(this.state), positionChecks: this.wants(NEEDS_CHECKS) };
    const lab = (trace) => (this.wants(NEEDS_LAB) ? this.labFor(trace.tokens.length) : null);
    if (!compare) {
      const trace = this.core.explain(sentence, options);
      return { trace, lab: lab(trace), projected: { traces: [trace], projection: trace.projection } };
    }
    const pair = this.core.compareContexts(sentence, compareSentence, options);
    return { trace: pair.first, lab: lab(pair.first), projected: { traces: [pair.first, pair.second], projection: pair.projection } };
  }

  /** Whether any of these figures is on screen. */
  wants(names) {
    return names.some((name) => this.visible.has(name));
  }

  /** Whether a result has the data figure `name` draws from. */
  static hasDataFor(result, name) {
    if (NEEDS_CHECKS.includes(name)) return result.trace.positionChecks !== null;
    if (NEEDS_LAB.includes(name)) return result.lab !== null;
    return true;
  }

  update() {
    this.syncInputs();
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
    const { sentence, compare, compareSentence } = this.state;
    if (this.input.value !== sentence) this.input.value = sentence;
    if (this.second.value !== (compareSentence ?? '')) this.second.value = compareSentence ?? '';
    this.second.parentElement.hidden = !compare;
    this.compareButton.textContent = compare ? 'Back to one sentence' : `Compare “bank”: “${COMPARISON[0]}” vs. “${COMPARISON[1]}”`;
    this.controls.sync(this.state);
    this.lineControls.sync(this.state);
  }

  /** The lab's token selects follow the sentence: synced after each trace while the lab is on screen
   * (rebuilding hundreds of options per keystroke off screen would cost the frame). */
  syncLabControls() {
    if (this.wants([...NEEDS_LAB, ...NEEDS_CHECKS])) this.labControls.sync(this.state, this.trace.tokens);
  }

  render(result, previous) {
    const { trace } = result;
    const empty = trace.tokens.length === 0;
    this.empty.hidden = !empty;
    this.figures.hidden = empty;
    this.notice.textContent = trace.truncated
      ? `Showing the first ${trace.tokens.length} of ${trace.totalTokens} tokens (the explorer traces at most ${this.core.maxTokens}).`
      : '';
    this.slots.tokens.replaceChildren(tokenStrip(trace));
    if (empty) return;
    this.drawn = { result, previous, state: this.state };
    // Only figures on screen are redrawn now; the others are marked stale and drawn when they scroll in.
    for (const name of Object.keys(FIGURES)) {
      if (this.visible.has(name)) this.renderFigure(name);
      else this.slots[name].dataset.stale = '';
    }
  }

  renderFigure(name) {
    const { result, previous, state } = this.drawn;
    if (!AttentionExplorer.hasDataFor(result, name)) {
      this.update();  // it scrolled in: compute its data now
      return;
    }
    this.slots[name].replaceChildren(FIGURES[name](result, previous, state));
    delete this.slots[name].dataset.stale;
  }

  watchVisibility() {
    this.visible = new Set();
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) this.visible.add(entry.target.dataset.slot);
        else this.visible.delete(entry.target.dataset.slot);
      }
      for (const entry of entries) {
        const name = entry.target.dataset.slot;
        if (entry.isIntersecting && 'stale' in entry.target.dataset && this.drawn) this.renderFigure(name);
      }
    }, { rootMargin: '300px' });
    for (const name of Object.keys(FIGURES)) {
      this.slots[name].dataset.slot = name;
      observer.observe(this.slots[name]);
    }
  }

  showError(message) {
    this.status.textContent = message;
    this.status.classList.add('error');
  }

  /** Clicking a token replaces it by [MASK]; clicking again restores it. */
  toggleMask(item) {
    if (!item) return;
    const index = Number(item.dataset.index);
    const masked = this.state.maskedPositions;
    this.change({ maskedPositions: masked.includes(index) ? masked.filter((i) => i !== index) : [...masked, index] });
  }

  toggleComparison() {
    this.change(this.state.compare
      ? { compare: false }
      : { compare: true, sentence: COMPARISON[0], compareSentence: COMPARISON[1], positionalEncoding: 'none', projection: 'identity' });
  }

  /** The last trace drawn (see core.explain). */
  getTrace() {
    return this.trace;
  }
}

if (!customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorer);
