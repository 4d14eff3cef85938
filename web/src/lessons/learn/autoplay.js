// The element's `autoplay`: training starts the first time the Learn chapter is open and the element is seen (at
// least half on screen: explorer/on-screen.js), pauses while the element is not seen, and goes on when it is seen
// again, unless the learner paused it in between. Without `autoplay`, only the learner starts and stops training.

export class Autoplay {
  constructor() {
    this.started = false; // autoplay has started training once
    this.hiddenPause = false; // training was paused because the element went out of sight
  }

  /**
   * What to do with training now.
   * @param {{ autoplay: boolean, seen: boolean, open: boolean, running: boolean }} now  autoplay: the attribute is
   *   set; seen: the element is on screen; open: the Learn chapter is shown; running: training is running
   * @returns {'run' | 'pause' | null}
   */
  decide({ autoplay, seen, open, running }) {
    if (!autoplay) return null;
    if (!this.started) {
      if (!(open && seen)) return null;
      this.started = true;
      return running ? null : 'run';
    }
    if (running && !seen) {
      this.hiddenPause = true;
      return 'pause';
    }
    if (this.hiddenPause && seen && open && !running) {
      this.hiddenPause = false;
      return 'run';
    }
    return null;
  }

  /** The learner paused, stepped or reset: seeing the element again does not start training. */
  stoppedByLearner() {
    this.hiddenPause = false;
  }
}
