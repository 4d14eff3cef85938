// The <attention-explorer> element's content, built once its core has loaded: the sentence boxes, the model
// choice, the settings, one slot per figure of every chapter, the chapters' tabs, the share bar and the tour
// panel, in the order they show, with the events that turn what the learner does into changes of state.
import { ChapterTabs } from './chapter-tabs.js';
import { FIGURES } from './figures.js';
import { LensData } from './lens-data.js';
import { modelChoice } from './model-choice.js';
import { buildControls } from './settings-form.js';
import { shareBar } from './share-bar.js';
import { TourGuide } from './tour-guide.js';
import { tourHost } from './tour-host.js';
import { VisibleFigures } from './visible-figures.js';
import { exportFigure } from '../views/figure-export.js';
import { element, textBox } from '../views/layout.js';

/**
 * Builds and wires the explorer's content, keeping its parts on the element (input, controls, slots, visibleFigures,
 * guide, tabs, chapters, built, lensData, parts …), then applies its configuration.
 * @param {import('./attention-explorer.js').AttentionExplorer} explorer
 */
export function buildExplorer(explorer) {
  explorer.input = textBox('Sentence', (value) => explorer.edit({ sentence: value }, { typing: true }));
  explorer.second = textBox('Compared with', (value) => explorer.edit({ compareSentence: value }, { typing: true }));
  explorer.controls = buildControls(explorer.core.dModel);
  explorer.controls.form.addEventListener('input', (event) => explorer.edit(explorer.controls.read(event.target.name)));
  explorer.models = modelChoice((model) => explorer.edit({ model }));
  explorer.notice = element('p', 'notice');
  explorer.configErrors = element('p', 'status error config-errors');
  explorer.configErrors.setAttribute('role', 'alert');
  explorer.slots = Object.fromEntries(
    ['tokens', ...Object.keys(FIGURES)].map((name) => [name, element('div', `slot slot-${name}`)]),
  );
  explorer.visibleFigures = new VisibleFigures(explorer.slots, {
    needData: () => explorer.update(),
    afterDraw: () => {
      explorer.guide.afterDraw();
      explorer.hostPage.drawn();
    },
  });
  explorer.slots.tokens.addEventListener('click', (event) => explorer.toggleMask(event.target.closest('[data-index]')));
  explorer.slots.tokens.addEventListener(
    'keydown',
    (event) =>
      (event.key === 'Enter' || event.key === ' ') && explorer.toggleMask(event.target.closest('[data-index]')),
  );
  // What a figure chooses to look at (a head, a step, a query) is a change of state that readonly allows: it sets no setting.
  explorer.root.addEventListener('choose', (event) => explorer.applyChange(event.detail));
  explorer.root.addEventListener('click', (event) => {
    const button = event.target.closest('[data-export]');
    if (button) exportFigure(button.closest('figure'), button.dataset.export, explorer.current);
  });
  const share = shareBar({
    link: () => {
      explorer.link.write();
      return location.href;
    },
    embedCode: () => explorer.embedCode(),
  });
  explorer.guide = new TourGuide(tourHost(explorer), share.button);
  explorer.linkButton = share.finish();
  explorer.share = share.bar;
  explorer.empty = element('p', 'empty-state', 'Type a sentence above to see how its words attend to each other.');
  const tokens = element('section', 'tokens');
  tokens.setAttribute('aria-label', 'Tokens');
  tokens.append(explorer.slots.tokens);
  /** @type {import('../lessons/chapters.js').ChapterParts} */
  const parts = {
    core: explorer.core,
    state: () => explorer.current,
    edit: (change, options) => explorer.edit(change, options),
    slots: explorer.slots,
    redraw: (figure, extra) => explorer.visibleFigures.redraw(figure, extra),
    publish: (key, data) => explorer.visibleFigures.publish(key, data),
    refresh: () => explorer.update(),
  };
  explorer.parts = {
    views: { tokens: [tokens] },
    groups: [],
    controls: explorer.controls.form,
    sentence: [explorer.input.parentElement],
    modelChoice: explorer.models.element,
    share: explorer.share,
    figureControls: [],
  };
  explorer.tabs = new ChapterTabs(parts, (chapter) => explorer.applyChange({ chapter }));
  explorer.chapters = explorer.tabs.sections;
  explorer.built = [...explorer.tabs.chapters().values()]; // what each chapter built: its controls follow the state through sync()
  explorer.builtById = explorer.tabs.chapters(); // the same by chapter id: a keystroke syncs only the open one
  const messages = {};
  for (const built of explorer.built) {
    Object.assign(explorer.parts.views, built.views);
    Object.assign(messages, built.messages);
    explorer.parts.figureControls.push(...built.figureControls);
    explorer.parts.groups.push(built.section);
  }
  explorer.lensData = new LensData(explorer.core, messages, (message) => explorer.errors.say(message));
  for (const [name, elements] of Object.entries(explorer.parts.views))
    for (const el of elements) el.dataset.view = name;
  const bar = (explorer.chapterBar = element('div', 'chapter-bar'));
  bar.append(explorer.tabs.nav, explorer.share);
  explorer.moreSettings = explorer.controls.form.querySelector('.more-settings');
  // Last, so that it docks at the bottom (position: sticky) while everything above it scrolls.
  // The tokens and the model choice share a row: the choice goes under the tokens only when they fill it.
  const tokenRow = element('div', 'token-row');
  tokenRow.append(tokens, explorer.models.element);
  explorer.root.append(
    explorer.configErrors,
    explorer.input.parentElement,
    explorer.second.parentElement,
    tokenRow,
    bar,
    explorer.controls.form,
    explorer.notice,
    explorer.empty,
    explorer.chapters,
    explorer.guide.panel.panel,
  );
  explorer.applyConfiguration();
}
