// Whether the element is seen, for `autoplay`: at least half of it on screen — half of its height, or half of the
// viewport's for an element taller than the viewport (else a tall Learn chapter on a phone would never count) — drawn
// (checkVisibility: not under `opacity: 0` or `visibility: hidden`, as reveal.js hides the slides not shown when its
// transition fades or is none), in a page that is not hidden (another tab). It stops counting as seen once it is off
// screen entirely. IntersectionObserver reports geometry only, so while the element is in view and someone listens
// (an element with autoplay), a slow poll notices when it is drawn or hidden in place (a reveal.js slide shown or left
// by a change of its opacity).

/** Thresholds at every 5 % of the element's area: the callback runs often enough to measure "half of the viewport". */
const THRESHOLDS = Array.from({ length: 21 }, (_, i) => i / 20);
/** How often an element in view is looked at again while someone listens (ms). */
const POLL_MS = 250;

export class OnScreen {
  /**
   * @param {Element} target  the element watched
   * @param {(seen: boolean) => void} onChange  called when `seen` changes (never from the constructor)
   * @param {() => boolean} listening  whether anyone needs to know now (polls run only then)
   */
  constructor(target, onChange, listening) {
    this.target = target;
    this.onChange = onChange;
    this.listening = listening;
    this.seen = false;
    this.inView = false; // at least half on screen since it was last entirely off screen
    this.poll = undefined;
    if (!globalThis.IntersectionObserver) {
      // No way to tell (an old engine): it counts as seen, as it did before this check existed.
      this.inView = this.seen = true;
      return;
    }
    this.observer = new IntersectionObserver((entries) => this.measure(entries.at(-1)), { threshold: THRESHOLDS });
    this.observer.observe(target);
    this.onVisibility = () => this.check();
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  /** @param {IntersectionObserverEntry} entry */
  measure(entry) {
    if (!entry.isIntersecting) this.inView = false;
    else {
      const viewport = entry.rootBounds?.height ?? globalThis.innerHeight;
      const shown = entry.intersectionRect.height;
      if (shown > 0 && shown >= Math.min(entry.boundingClientRect.height, viewport) / 2) this.inView = true;
    }
    this.check();
  }

  check() {
    clearTimeout(this.poll);
    const drawn = this.target.checkVisibility?.({ opacityProperty: true, visibilityProperty: true }) ?? true;
    const seen = this.inView && drawn && !document.hidden;
    if (this.inView && this.listening()) this.poll = setTimeout(() => this.check(), POLL_MS);
    if (seen === this.seen) return;
    this.seen = seen;
    this.onChange(seen);
  }

  disconnect() {
    clearTimeout(this.poll);
    this.observer?.disconnect();
    if (this.onVisibility) document.removeEventListener('visibilitychange', this.onVisibility);
  }
}
