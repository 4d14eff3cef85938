// <attention-explorer sentence="…">: type a sentence and watch self-attention and sinusoidal
// positional encodings recomputed by the C++ core on every keystroke. One core call per update
// (core.explain → trace); every figure is a pure function of the trace.
import { createAttentionCore } from '../core/index.js';
import { attentionHeatmap } from '../views/attention-heatmap.js';
import { formula } from '../views/formulas.js';
import { positionalHeatmap } from '../views/positional-heatmap.js';
import { tokenStrip } from '../views/token-strip.js';
import { buildControls } from './controls.js';
import { defaultState, explainOptions, withChange } from './state.js';
import './explorer.css';

let sharedCore;  // every explorer on a page shares one wasm module and one embedding asset
function loadCore() {
  sharedCore ??= createAttentionCore();
  return sharedCore;
}

function section(title, ...children) {
  const el = document.createElement('section');
  const heading = el.appendChild(document.createElement('h3'));
  heading.textContent = title;
  el.append(...children);
  return el;
}

export class AttentionExplorer extends HTMLElement {
  connectedCallback() {
    if (this.root) return;
    this.state = withChange(defaultState(), this.hasAttribute('sentence') ? { sentence: this.getAttribute('sentence') } : {});
    this.root = this.appendChild(document.createElement('div'));
    this.root.className = 'ae-root';
    this.status = document.createElement('p');
    this.status.className = 'status';
    this.status.setAttribute('role', 'status');
    this.status.textContent = 'Loading the attention core and 20,000 word vectors…';
    this.root.append(this.status);
    loadCore().then((core) => this.start(core), (error) => this.showError(`Could not load the attention core: ${error.message}`));
  }

  start(core) {
    this.core = core;
    const label = document.createElement('label');
    label.className = 'sentence-label';
    label.textContent = 'Sentence';
    this.input = label.appendChild(document.createElement('textarea'));
    this.input.rows = 2;
    this.input.spellcheck = false;
    this.input.value = this.state.sentence;
    this.input.addEventListener('input', () => this.change({ sentence: this.input.value }));

    this.controls = buildControls(core.dModel);
    this.controls.form.addEventListener('input', () => this.change(this.controls.read()));
    this.controls.form.addEventListener('change', () => this.change(this.controls.read()));

    this.notice = document.createElement('p');
    this.notice.className = 'notice';
    this.tokenSlot = document.createElement('div');
    this.tokenSlot.addEventListener('click', (event) => this.selectToken(event.target.closest('[data-start]')));
    this.attentionSlot = document.createElement('div');
    this.positionalSlot = document.createElement('div');
    this.empty = document.createElement('p');
    this.empty.className = 'empty-state';
    this.empty.textContent = 'Type a sentence above to see how its words attend to each other.';

    this.figures = document.createElement('div');
    this.figures.className = 'figures';
    this.figures.append(
      section('Self-attention', formula('attention'), this.attentionSlot),
      section('Sinusoidal positional encoding', formula('positional'), this.positionalSlot));
    this.status.textContent = '';
    this.root.append(label, this.controls.form, this.notice, section('Tokens', this.tokenSlot), this.empty, this.figures);
    this.update();
  }

  change(partial) {
    this.state = withChange(this.state, partial);
    this.update();
  }

  /** Recomputes the trace and redraws; on error, says why and keeps the last good figures. */
  update() {
    this.controls.sync(this.state);
    let trace;
    try {
      trace = this.core.explain(this.state.sentence, explainOptions(this.state));
    } catch (error) {
      this.showError(error.message);
      return;
    }
    this.status.textContent = '';
    this.status.classList.remove('error');
    this.trace = trace;
    this.render(trace);
  }

  render(trace) {
    const empty = trace.tokens.length === 0;
    this.empty.hidden = !empty;
    this.figures.hidden = empty;
    this.notice.textContent = trace.truncated
      ? `Showing the first ${trace.tokens.length} of ${trace.totalTokens} tokens (the explorer traces at most ${this.core.maxTokens}).`
      : '';
    this.tokenSlot.replaceChildren(tokenStrip(trace));
    if (empty) return;
    this.attentionSlot.replaceChildren(attentionHeatmap(trace, { head: this.state.head }));
    this.positionalSlot.replaceChildren(positionalHeatmap(trace));
  }

  showError(message) {
    this.status.textContent = message;
    this.status.classList.add('error');
  }

  /** Clicking a token selects its span in the sentence box. */
  selectToken(item) {
    if (!item) return;
    this.input.focus();
    this.input.setSelectionRange(Number(item.dataset.start), Number(item.dataset.end));
  }

  /** The last trace drawn (see core.explain). */
  getTrace() {
    return this.trace;
  }
}

if (!customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorer);
