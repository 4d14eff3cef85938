// With a trained model, the figures that follow the designed heads' trace say so once where they are, not under each
// figure (models/run-figures.js whenTrace): the positions chapter's four checks share one note.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const shared = distAndBrowser();

for (const chapter of ['positions', 'attention', 'lenses']) {
  test(`trained decoder, ${chapter} chapter, 1280×720: the designed heads' note is shown at most once`, async () => {
    const { page, errors } = await openSite(shared, `model=causal&chapter=${chapter}`, { width: 1280, height: 720 });
    // Each figure of the chapter drawn: scroll through it.
    await page.$eval('attention-explorer', async (el) => {
      for (const slot of el.shadowRoot.querySelectorAll('.chapter:not(.closed) .slot')) {
        slot.closest('details')?.setAttribute('open', '');
        slot.scrollIntoView();
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 80)));
      }
    });
    const notes = await page.$eval('attention-explorer', (el) =>
      [...el.shadowRoot.querySelectorAll('.chapter:not(.closed) .empty-figure')]
        .filter((p) => p.checkVisibility() && /follows? the designed heads/.test(p.textContent))
        .map((p) => p.textContent),
    );
    console.log(`# ${chapter}: ${JSON.stringify(notes)}`);
    assert.ok(notes.length <= 1, `${notes.length} notes: ${notes.join(' | ')}`);
    if (chapter === 'positions') assert.equal(notes.length, 1, 'the checks say why they are not drawn');
    assert.deepEqual(errors, []);
    await page.close();
  });
}
