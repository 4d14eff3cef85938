// The data of the figures that need more than the trace (the positional lab, the score functions'
// costs, the simplex, the soft lookup, cross-attention, the cost of a layer): computed only for figures
// on screen, and again only when their own inputs change, since most keystrokes leave them alone.
import { costData, costInputs } from '../lessons/lenses/cost-section.js';
import { figuresNeeding } from './figures.js';
import { lookupData, lookupInputs } from '../lessons/lenses/lookup-section.js';
import { simplexData, simplexInputs } from '../lessons/lenses/simplex-data.js';
import { explainOptions, labOptions, scoreCostInputs, scoreCosts } from './state.js';

/** The data of a lens that failed before it ever worked: its figures draw nothing. */
export const NOTHING = Object.freeze({});

export class LensData {
  /**
   * @param {object} core  createAttentionCore()'s core
   * @param {{ lookup: HTMLElement, cost: HTMLElement }} messages  where those sections say why a change drew nothing new
   */
  constructor(core, messages) {
    this.core = core;
    this.messages = messages;
    this.memos = new Map();  // lens → { key: its inputs as JSON, value: its data }
  }

  /**
   * @param {object} trace  the update's trace (core.explain)
   * @param {object} state  the explorer's state
   * @param {(figures: string[]) => boolean} wants  whether any of these figures is on screen
   * @returns {{ lab, scoreCosts, simplex, lookup, cross, cost }}  each null while its figures are off screen
   */
  forTrace(trace, state, wants) {
    const core = this.core, n = trace.tokens.length;
    const when = (needs, compute) => (wants(figuresNeeding(needs)) ? compute() : null);
    return {
      lab: when('lab', () => this.memo('lab', labOptions(state, n), (options) => core.positionalEncodingLab(options))),
      scoreCosts: when('scoreCosts', () => this.memo('scoreCosts', scoreCostInputs(state, n, core.dModel), (inputs) => scoreCosts(core, inputs))),
      simplex: when('simplex', () => this.memo('simplex', simplexInputs(state), (inputs) => simplexData(core, inputs))),
      lookup: when('lookup', () => this.sectionData('lookup', lookupInputs(state), (inputs) => lookupData(core, inputs),
        'The figure shows the last table that worked.')),
      cross: when('cross', () => this.memo('cross', [state.sentence, state.crossTarget, explainOptions(state)],
        ([source, target, options]) => core.explainCross(source, target, options))),
      cost: when('cost', () => this.sectionData('cost', costInputs(state, trace.totalTokens, core.dModel),
        (sizes) => costData(core, sizes), 'The figures show the last sizes that worked.')),
    };
  }

  /** compute(inputs), again only when the inputs differ from the last call's. */
  memo(lens, inputs, compute) {
    const key = JSON.stringify(inputs);
    const last = this.memos.get(lens);
    if (last?.key === key) return last.value;
    const value = compute(inputs);
    this.memos.set(lens, { key, value });
    return value;
  }

  /** memo() for a section with its own message: a failure is said there, and its figures keep the last good data (or NOTHING). */
  sectionData(lens, inputs, compute, kept) {
    const message = this.messages[lens];
    try {
      const value = this.memo(lens, inputs, compute);
      message.textContent = '';
      return value;
    } catch (error) {
      const last = this.memos.get(lens)?.value;
      message.textContent = last ? `${error.message} ${kept}` : error.message;
      return last ?? NOTHING;
    }
  }
}
