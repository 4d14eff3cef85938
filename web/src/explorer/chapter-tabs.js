// The page's chapters (lessons/chapters.js) as tabs over their sections: each chapter's section (its
// title, takeaway and content), the tab list (arrow keys move between tabs, as the ARIA tabs pattern
// has it), and which chapter is open — only the open one is laid out, so only its figures draw.
import { CHAPTERS } from '../lessons/chapters.js';
import { element } from '../views/layout.js';
import { setHidden } from '../views/dom-update.js';

export class ChapterTabs {
  /**
   * @param {object} parts  what the chapters' build functions take (lessons/chapters.js)
   * @param {(chapter: string) => void} open  called when the learner picks a chapter
   */
  constructor(parts, open) {
    this.sections = element('div', 'chapters');
    this.built = new Map(); // chapter id → { section, tab, content, views, figureControls, … }
    this.nav = element('nav', 'toc');
    this.nav.setAttribute('aria-label', 'Chapters');
    const list = this.nav.appendChild(element('div', 'toc-tabs'));
    list.setAttribute('role', 'tablist');
    for (const chapter of CHAPTERS) {
      const built = chapter.build(parts);
      const section = this.sections.appendChild(element('section', 'chapter'));
      section.dataset.chapter = chapter.id;
      section.id = `chapter-${chapter.id}`;
      section.setAttribute('role', 'tabpanel');
      section.append(
        element('h2', 'chapter-title', chapter.title),
        element('p', 'takeaway', typeof chapter.takeaway === 'string' ? chapter.takeaway : ''),
        ...built.content,
      );
      const tab = list.appendChild(element('button', 'toc-tab', chapter.title));
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.dataset.chapterTab = chapter.id;
      tab.setAttribute('aria-controls', section.id);
      tab.addEventListener('click', () => open(chapter.id));
      this.built.set(chapter.id, { ...built, section, tab });
    }
    list.addEventListener('keydown', (event) => {
      const shown = [...this.built.values()].map(({ tab }) => tab).filter((tab) => !tab.hidden);
      const at = shown.indexOf(event.target);
      const by = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (at < 0 || !by) return;
      const next = shown[(at + by + shown.length) % shown.length];
      next.focus();
      next.click();
      event.preventDefault();
    });
  }

  /** The message for a chapter id (from a link) that names no chapter, or '' when it names one. */
  unknown(id) {
    return CHAPTERS.some((chapter) => chapter.id === id)
      ? ''
      : `There is no chapter “${id}” (chapters: ${CHAPTERS.map((chapter) => chapter.id).join(', ')}); showing the first.`;
  }

  /** What every chapter built: { id → { section, tab, content, views, figureControls, … } }. */
  chapters() {
    return this.built;
  }

  /**
   * Opens the state's chapter, or the first one whose views the element shows; a chapter with none of
   * them loses its tab, and with fewer than two tabs there is no tab list and no takeaway (an element
   * showing one chapter's views is a figure in someone's lesson: their page says the takeaway).
   * A takeaway that depends on the state (a function of it) is written anew.
   * @param {object} state  the explorer's state (state.chapter: the chapter wanted)  @param {Set<string>} views  the
   *   element's `views`
   * @returns {object | undefined} the open chapter (lessons/chapters.js)
   */
  sync(state, views) {
    const wanted = state.chapter;
    const shown = CHAPTERS.filter((chapter) => chapter.views.some((view) => views.has(view)));
    const openChapter = shown.find((chapter) => chapter.id === wanted) ?? shown[0];
    const open = openChapter?.id;
    for (const chapter of CHAPTERS) {
      const { tab, section } = this.built.get(chapter.id);
      const selected = chapter.id === open;
      setHidden(tab, !shown.includes(chapter));
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      section.classList.toggle('closed', !selected);
      if (typeof chapter.takeaway === 'function') {
        const text = chapter.takeaway(state);
        const takeaway = section.querySelector(':scope > .takeaway');
        if (takeaway.textContent !== text) takeaway.textContent = text;
      }
    }
    setHidden(this.nav, shown.length < 2);
    for (const takeaway of this.sections.querySelectorAll('.takeaway')) setHidden(takeaway, this.nav.hidden);
    return openChapter;
  }
}
