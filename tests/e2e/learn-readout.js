// The Learn chapter's readout as the page shows it, read in headless Chromium: the step, loss, accuracy and
// every head's scores (learn.test.js, learn-embedded.test.js).

export const HOST = 'attention-explorer';

/** The readout's numbers and every head's scores, as the page shows them (step null while the element is loading). */
export function readLearn(page, host = HOST) {
  return page.$eval(host, (el) => {
    const root = el.shadowRoot;
    const readout = root.querySelector('.learn-readout');
    if (!readout) return { step: null, heads: [] };
    return {
      step: readout.dataset.step === undefined ? null : Number(readout.dataset.step),
      loss: Number(readout.dataset.loss),
      accuracy: Number(readout.dataset.accuracy),
      running: readout.dataset.running === 'true',
      text: readout.textContent,
      heads: [...root.querySelectorAll('.learn-head')].map((h) => ({
        layer: Number(h.dataset.layer),
        head: Number(h.dataset.head),
        prefixMatching: Number(h.dataset.prefixMatching),
        previousToken: Number(h.dataset.previousToken),
        ablated: h.dataset.ablated === 'true',
        outlinedWeight: h.dataset.outlinedWeight === undefined ? null : Number(h.dataset.outlinedWeight),
        outlinedPeaks: h.dataset.outlinedPeaks === undefined ? null : Number(h.dataset.outlinedPeaks),
        outlines: h.querySelectorAll('.induction-cell').length,
      })),
    };
  });
}

/** Polls the page until `done(state)` holds or `seconds` pass; returns the last state and when it held. */
export async function until(page, done, seconds, host = HOST) {
  const start = Date.now();
  let state;
  while (Date.now() - start < seconds * 1000) {
    state = await readLearn(page, host);
    if (state.step !== null && done(state)) return { state, seconds: (Date.now() - start) / 1000 };
    await page.waitForTimeout(100);
  }
  return { state, seconds: null };
}
