// Keystroke → next paint in headless Chromium (Event Timing, the measure of INP), shared by the page benchmarks
// (latency.mjs; gpt2.mjs): real key presses in a text box, each interaction's duration the longest of its events.

/** The q-quantile of values (the nearest rank below). */
export const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** Chooses a model and waits until its figures are drawn; returns how long that took. */
export function chooseModel(page, model) {
  return page.evaluate(
    (model) =>
      new Promise((resolve) => {
        const el = document.querySelector('attention-explorer');
        const start = performance.now();
        el.change({ model });
        // Drawn: the Run on screen is the model's, loaded (a trained model loads once, when first chosen).
        const drawn = () => el.getRun()?.model === model && el.getRun().status === 'ready';
        const wait = () => (drawn() ? resolve({ readyMs: performance.now() - start }) : requestAnimationFrame(wait));
        wait();
      }),
    model,
  );
}

/**
 * Keystroke → next paint as the browser reports it (Event Timing, the measure of INP): real key presses
 * in the sentence box after a sentence of `tokens − 1` words, each interaction's duration the longest
 * of its events. Entries below 16 ms are not reported (the API's least threshold), so a keystroke
 * without an entry counts as under 16 ms. Also the shadow DOM's node count on the first screen.
 */
export async function keystrokeToPaint(page, tokenCounts = [32, 128], box = 'attention-explorer textarea') {
  await page.bringToFront(); // a tab in the background gets no frames: nothing would paint
  const out = {
    nodes: await page.evaluate(() => {
      const count = (node) => 1 + [...node.childNodes].reduce((sum, child) => sum + count(child), 0);
      return count(document.querySelector('attention-explorer')?.shadowRoot ?? document.body);
    }),
  };
  // Figures painted: from the key's input event to the frame after the update that drew them (an
  // upper bound: the timer runs after that frame's paint).
  if (!tokenCounts.length) return out;
  await page.evaluate(() => {
    if (window.figuresPainted) return; // installed by an earlier measurement
    const el = document.querySelector('attention-explorer');
    window.figuresPainted = [];
    if (!el) return; // a bare text box: no figures
    let typedAt = null;
    el.shadowRoot.querySelector('textarea').addEventListener(
      'input',
      (event) => {
        typedAt ??= event.timeStamp;
      },
      true,
    );
    const update = el.update.bind(el);
    el.update = () => {
      update();
      if (typedAt === null) return;
      const from = typedAt;
      typedAt = null;
      requestAnimationFrame(() => setTimeout(() => window.figuresPainted.push(performance.now() - from)));
    };
  });
  // The same at a millisecond's resolution (Event Timing reports 8 ms steps from 16 ms): from the key's event to a
  // task right after the next frame (its requestAnimationFrame callback, then a timer: after that frame's paint).
  await page.evaluate(() => {
    if (window.keyFrames) return;
    window.keyFrames = [];
    document.addEventListener(
      'keydown',
      (event) => {
        const from = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => window.keyFrames.push(performance.now() - from)));
      },
      true,
    );
  });
  await page.evaluate(() => {
    if (window.interactions) return;
    window.interactions = new Map();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.interactionId)
          window.interactions.set(
            entry.interactionId,
            Math.max(window.interactions.get(entry.interactionId) ?? 0, entry.duration),
          );
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: false });
  });
  const words = 'the river bank was muddy after the storm'.split(' ');
  for (const tokens of tokenCounts) {
    const base = Array.from({ length: tokens - 1 }, (_, i) => words[i % words.length]).join(' ');
    await page.fill(box, `${base} cloud`);
    await page.focus(box);
    await page.keyboard.press('End');
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      window.interactions.clear();
      window.figuresPainted = [];
      window.keyFrames = [];
    });
    const presses = 60;
    for (let k = 0; k < presses; k++) {
      // "clouds" ↔ "cloud": every press changes a token. A key is held 80 ms, as a typist's is (keyup
      // is part of the interaction: pressed in the same instant, it would queue behind the figures' update).
      await page.keyboard.press(k % 2 ? 'Backspace' : 's', { delay: 80 });
      await page.waitForTimeout(120); // a typist's pace; each press paints before the next
    }
    await page.waitForTimeout(500);
    const reported = await page.evaluate(() => [...window.interactions.values()]);
    const durations = [...reported, ...Array(Math.max(0, presses - reported.length)).fill(0)]; // 0: under 16 ms
    const figures = await page.evaluate(() => window.figuresPainted);
    const frames = await page.evaluate(() => window.keyFrames);
    out[tokens] = {
      presses,
      reported,
      median: quantile(durations, 0.5),
      p95: quantile(durations, 0.95),
      frame: { median: quantile(frames, 0.5), p95: quantile(frames, 0.95), count: frames.length },
      figures: { median: quantile(figures, 0.5), p95: quantile(figures, 0.95), count: figures.length },
    };
  }
  await page.fill(box, 'The river bank was muddy after the storm');
  return out;
}
