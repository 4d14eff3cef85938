// The share bar: the guided tour's start button, "Copy link to this view" (shown with url-state) and
// "Copy embed code", with the copied text shown for copying by hand when the clipboard is refused (the
// embed code always). What a copy did is said in the bar's own line beside the buttons, so that saying it moves
// nothing on the page.
import { element } from '../views/layout.js';

/** How long "… copied." stays beside the buttons. */
const SAID_MS = 4000;

/**
 * @param {{ link: () => string, embedCode: () => string }} actions  link: the view's URL (after writing the state
 *   into it); embedCode: the tag that reproduces the view
 * @returns {{ bar: HTMLElement, button: (text: string, onClick: () => void) => HTMLButtonElement,
 *   finish: () => HTMLButtonElement }}  button adds a button to the bar (the tour's start); finish adds
 *   the two copy buttons after it and returns the link's (hidden without url-state)
 */
export function shareBar({ link, embedCode }) {
  const bar = element('div', 'share');
  const button = (text, onClick) => {
    const el = bar.appendChild(element('button', 'share-button', text));
    el.type = 'button';
    el.addEventListener('click', onClick);
    return el;
  };
  const output = element('pre', 'embed-code');
  output.hidden = true;
  const note = element('span', 'share-note');
  note.setAttribute('role', 'status');
  let clearing;
  const say = (text, { stays = false } = {}) => {
    clearTimeout(clearing);
    note.textContent = text;
    if (!stays) clearing = setTimeout(() => (note.textContent = ''), SAID_MS);
  };
  const copy = (text, what, isCode) => {
    output.hidden = !isCode;
    if (isCode) output.textContent = text;
    navigator.clipboard.writeText(text).then(
      () => say(`${what} copied.`),
      () => say(isCode ? `${what}: select it below.` : `${what}: ${text}`, { stays: true }),
    );
  };
  return {
    bar,
    button,
    finish() {
      const linkButton = button('Copy link to this view', () => copy(link(), 'Link to this view', false));
      button('Copy embed code', () => copy(embedCode(), 'Embed code', true));
      bar.append(note, output);
      return linkButton;
    },
  };
}
