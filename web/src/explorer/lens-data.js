// The data of the figures that need more than the trace (the chapters' lenses: the positional lab, the
// score functions' costs, the simplex, the soft lookup, cross-attention, the cost of a layer), each
// declared by its chapter (lessons/<chapter>/chapter.js `lenses`): computed only while one of its
// figures is on screen, and again only when its own inputs change, since most keystrokes leave them alone.
import { CHAPTERS } from '../lessons/chapters.js';
import { figuresNeeding } from './figures.js';

/** The data of a lens that failed before it ever worked: its figures draw nothing. */
export const NOTHING = Object.freeze({});

/** Every chapter's lenses: name → { inputs, compute, kept? }. */
const LENSES = Object.assign({}, ...CHAPTERS.map((chapter) => chapter.lenses ?? {}));

export class LensData {
  /**
   * @param {object} core  createAttentionCore()'s core
   * @param {Record<string, HTMLElement>} messages  where a lens with `kept` says why a change drew nothing new
   * @param {(message: string) => void} [say]  also says such a message where authors look (author-errors.js)
   */
  constructor(core, messages, say = () => {}) {
    this.core = core;
    this.messages = messages;
    this.say = say;
    this.memos = new Map(); // lens → { key: its inputs as JSON, value: its data }
  }

  /**
   * @param {import('../models/run.js').Run} run  the update's Run (models/models.js)
   * @param {object} state  the explorer's state
   * @param {(figures: string[]) => boolean} wants  whether any of these figures is on screen
   * @returns {Record<string, object | null>}  each lens's data by name, null while its figures are off screen
   */
  forRun(run, state, wants) {
    return Object.fromEntries(
      Object.entries(LENSES).map(([name, { inputs, compute, kept }]) => {
        if (!wants(figuresNeeding(name))) return [name, null];
        const computeLens = (values) => compute(this.core, values);
        const values = inputs(state, run, this.core);
        return [name, kept ? this.sectionData(name, values, computeLens, kept) : this.memo(name, values, computeLens)];
      }),
    );
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
      this.say(message.textContent);
      return last ?? NOTHING;
    }
  }
}
