// The page's chapters, in reading order. Each is a folder of web/src/lessons/ holding its figures,
// controls and layout; a chapter lists the `views` (attributes.js VIEWS) it holds, so an embedded
// element that shows only some views shows only their chapters. Only the open chapter is in the
// layout, so only its figures compute and draw (visible-figures.js).
import { attentionChapter } from './attention/chapter.js';
import { insideHeadChapter } from './inside-head/chapter.js';
import { learnChapter } from './learn/chapter.js';
import { lensesChapter } from './lenses/chapter.js';
import { positionsChapter } from './positions/chapter.js';
import { defaultsOf } from '../settings/schema.js';
import { BASE_SETTINGS, withBaseChange } from '../settings/state.js';

/**
 * @type {{ id: string, title: string, takeaway: string | ((state: object) => string), views: string[],
 *   settings: import('../settings/schema.js').Setting[], state: () => object, consistent?: (state: object) => object,
 *   lenses?: object, figures: object, tour: object[], usesSentence?: boolean,
 *   build: (parts: ChapterParts) => BuiltChapter }[]}
 *   id: stable, in links (#chapter=<id>) — never rename one; title: the table of contents' text;
 *   takeaway: the one sentence the chapter opens with (a function of the state where its truth depends on it);
 *   settings: its slice of the state, as entries of the state schema
 *   (each with its default, range or names, and the element's attribute that sets it, if any); state: its slice's
 *   defaults (a fresh object); consistent: keeps its slice consistent with the rest after a change (withChange);
 *   lenses: data its figures need beyond the Run (explorer/lens-data.js); figures: its figures
 *   (explorer/figures.js); tour: its steps of the guided tour; usesSentence: false for a chapter that does not read the
 *   sentence (the sentence box, tokens and attention settings step aside while it is open); build: builds, wires and
 *   syncs all its own content and controls (the contract below).
 */
export const CHAPTERS = [attentionChapter, insideHeadChapter, positionsChapter, lensesChapter, learnChapter];

/** The chapter holding `view`, or undefined. */
export function chapterOfView(view) {
  return CHAPTERS.find((chapter) => chapter.views.includes(view));
}

/**
 * What a chapter's build() receives.
 * @typedef {object} ChapterParts
 * @property {object} core  createAttentionCore()'s core
 * @property {() => object} state  the explorer's current state
 * @property {(change: object, options?: { typing?: boolean }) => void} edit  a change of the state from the chapter's own
 *   controls (ignored when readonly); typing: a keystroke in a text box (its update waits for the next frame)
 * @property {Record<string, HTMLElement>} slots  one element per figure name of every chapter's `figures`, where it is drawn
 * @property {(figure: string, extra: object) => void} redraw  redraws one figure on screen with `extra` on top of the
 *   state (what the pointer hovers: not state, not in the URL)
 * @property {(key: string, data: object) => void} publish  data the chapter receives on its own (not from the update's core
 *   call: Learn's training snapshots), for its figures whose `needs` is key and `published` true: drawn at once if on screen
 * @property {() => void} refresh  computes and draws again: data its lenses read has become ready (a model has loaded)
 */

/**
 * What a chapter's build() returns.
 * @typedef {object} BuiltChapter
 * @property {HTMLElement[]} content  its sections in reading order
 * @property {Record<string, HTMLElement[]>} views  the elements of each name of its `views` (attributes.js VIEWS)
 * @property {HTMLElement[]} figureControls  its forms (shown with the `figures` control, disabled when readonly)
 * @property {(state: object, context: { readonly: boolean, open: string | undefined, autoplay: boolean, views: Set<string> }) => void} [sync]
 *   its controls follow the state, at every update, before the core is called; open: the open chapter's id; views: the
 *   views the element shows (its `views` attribute)
 * @property {(state: object, run: import('../models/run.js').Run, wants: (figures: string[]) => boolean) => void} [syncRun]
 *   its controls that follow the Run (the tokens), after each core call; wants: whether any of these figures is on screen
 * @property {Record<string, HTMLElement>} [messages]  where a lens with `kept` says why a change drew nothing new
 *   (explorer/lens-data.js)
 */

/**
 * The state schema (settings/schema.js): the settings every chapter reads (settings/state.js), then each chapter's
 * slice. URL parsing, the element's attributes, el.change()'s checks and the defaults come from it; the .d.ts's
 * ExplorerState is tested against it (tests/js/state-schema.test.js).
 * @type {readonly import('../settings/schema.js').Setting[]}
 */
export const STATE_SCHEMA = Object.freeze([...BASE_SETTINGS, ...CHAPTERS.flatMap((chapter) => chapter.settings)]);

/** Each setting of STATE_SCHEMA by its name. */
export const SETTINGS = new Map(STATE_SCHEMA.map((setting) => [setting.name, setting]));

/** @returns {object} the default state: every setting of STATE_SCHEMA at its default (a fresh object, lists copied) */
export function defaultState() {
  return defaultsOf(STATE_SCHEMA);
}

/** Applies a change and keeps the state consistent: the base settings (the selected head exists), then each chapter's slice. */
export function withChange(state, change) {
  return CHAPTERS.reduce(
    (next, chapter) => (chapter.consistent ? chapter.consistent(next) : next),
    withBaseChange(state, change),
  );
}
