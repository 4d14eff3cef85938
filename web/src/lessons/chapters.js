// The page's chapters, in reading order. Each is a folder of web/src/lessons/ holding its figures,
// controls and layout; a chapter lists the `views` (attributes.js VIEWS) it holds, so an embedded
// element that shows only some views shows only their chapters. Only the open chapter is in the
// layout, so only its figures compute and draw (visible-figures.js).
import { attentionChapter } from './attention/chapter.js';
import { insideHeadChapter } from './inside-head/chapter.js';
import { learnChapter } from './learn/chapter.js';
import { lensesChapter } from './lenses/chapter.js';
import { positionsChapter } from './positions/chapter.js';

/**
 * @type {{ id: string, title: string, takeaway: string, views: string[], state: () => object, lenses?: object, figures: object,
 *   tour: object[], usesSentence?: boolean, build: (parts: object) => { content: HTMLElement[], views: Record<string, HTMLElement[]>,
 *   figureControls: HTMLElement[], lessons?: { sync: (state: object, context: object) => void }[], messages?: object } }[]}
 *   id: stable, in links (#chapter=<id>) — never rename one; title: the table of contents' text;
 *   takeaway: the one sentence the chapter opens with; state: its slice of the state's defaults;
 *   lenses: data its figures need beyond the trace (explorer/lens-data.js); figures: its figures
 *   (explorer/figures.js); tour: its steps of the guided tour; usesSentence: false for a chapter that does not read the
 *   sentence (the sentence box, tokens and attention settings step aside while it is open); build: its content, from the
 *   explorer's parts, with its lessons (parts that follow the state: sync(state, { readonly, open: the open chapter's id,
 *   autoplay }) at every update) and its lenses' messages (lens-data.js)
 */
export const CHAPTERS = [attentionChapter, insideHeadChapter, positionsChapter, lensesChapter, learnChapter];

/** The chapter holding `view`, or undefined. */
export function chapterOfView(view) {
  return CHAPTERS.find((chapter) => chapter.views.includes(view));
}
