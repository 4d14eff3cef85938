// The element's configuration applied to its content: which views and controls show (show-chosen.js), the theme, the
// height, readonly; run when an attribute that is not a setting of the state changes.
import { THEMES } from './attributes.js';
import { showChosen } from './show-chosen.js';
import { setHidden } from '../views/dom-update.js';

/**
 * Shows the element as its attributes configure it (explorer.chosen: views, controls, theme; height; readonly).
 * @param {import('./attention-explorer.js').AttentionExplorer} explorer
 */
export function applyConfiguration(explorer) {
  showChosen(explorer.parts, explorer.chosen);
  explorer.syncChapters();
  for (const theme of THEMES) explorer.root.classList.toggle(`theme-${theme}`, explorer.chosen.theme === theme);
  explorer.visibleFigures.setTheme(explorer.root);
  // More settings, and the bar of chapters and sharing, only when something in them shows.
  explorer.moreSettings.hidden = [...explorer.moreSettings.querySelectorAll('.control')].every(
    (control) => control.hidden,
  );
  setHidden(explorer.chapterBar, explorer.tabs.nav.hidden && explorer.share.hidden);
  setHidden(explorer.linkButton, !explorer.hasAttribute('url-state'));
  const height = explorer.getAttribute('height');
  explorer.root.style.height = height ? (/^\d+$/.test(height) ? `${height}px` : height) : '';
  explorer.root.classList.toggle('fixed-height', Boolean(height));
  // A height in pixels is the figures' too (a figure may fit itself in it: visible-figures.js environment).
  explorer.visibleFigures.height = /^\d+$/.test(height ?? '') ? Number(height) : undefined;
  const readonly = explorer.hasAttribute('readonly');
  for (const box of [explorer.input, explorer.second]) box.readOnly = readonly;
  for (const form of [explorer.controls.form, ...explorer.parts.figureControls]) {
    for (const control of form.elements) control.disabled = readonly;
  }
  if (!readonly) explorer.syncInputs(); // re-applies the controls' own enabled states
  explorer.guide.sync();
}
