// An explorer's state in the page's URL hash (the url-state attribute): read at start and when a link
// is edited by hand, written after each change — after a pause while typing, since
// history.replaceState costs a keystroke ~3 ms of its frame in Chromium. The encoding is url-state.js.
import { tourStepId } from './tour-steps.js';
import { stateFromHash, stateToHash } from './url-state.js';
import { withChange } from '../lessons/chapters.js';

const HASH_DELAY_MS = 300; // typing: the URL follows once the keystrokes pause this long

export class UrlLink {
  /**
   * @param {{ enabled: () => boolean, state: () => object, defaults: () => object }} host  enabled: the
   *   url-state attribute is present; state: the explorer's state now; defaults: its defaults (the hash
   *   holds only what differs from them)
   */
  constructor(host) {
    this.host = host;
    this.timer = null;
  }

  /** What the hash sets ({} without url-state); a tour step may be given by its number, as in the attribute (an unknown one is dropped). */
  read() {
    if (!this.host.enabled()) return {};
    const change = stateFromHash(location.hash, this.host.defaults());
    if ('tour' in change && change.tour !== '') {
      try {
        change.tour = tourStepId(change.tour);
      } catch {
        delete change.tour;
      }
    }
    return change;
  }

  /** `state` with what the hash sets. */
  apply(state) {
    return withChange(state, this.read());
  }

  /** Whether the hash already says `state`. */
  shows(state) {
    return location.hash.slice(1) === stateToHash(state, this.host.defaults());
  }

  /** The hash says the state now (a pending write is dropped). */
  write() {
    this.cancel();
    if (this.host.enabled()) history.replaceState(null, '', `#${stateToHash(this.host.state(), this.host.defaults())}`);
  }

  /** Writes once the keystrokes pause. */
  later() {
    this.cancel();
    if (this.host.enabled()) this.timer = setTimeout(() => this.write(), HASH_DELAY_MS);
  }

  /** Drops a pending write (a link edited by hand wins over a keystroke's). */
  cancel() {
    clearTimeout(this.timer);
  }
}
