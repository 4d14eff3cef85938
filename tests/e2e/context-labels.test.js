// Other lenses, "Context moves meaning": the words' labels in the plane of the two principal components never lie over
// one another (views/label-placement.js; a repeated word's coinciding points share one label, projection-view.js),
// at a short sentence, one past what the force layout places (views/label-placement.js MAX_PLACED), and 48 tokens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const shared = distAndBrowser();

const SENTENCES = {
  default: 'the river bank was muddy after the storm',
  '18 tokens': 'the cat sat on the mat because it was tired and the dog ran to the park',
  '48 tokens': Array(6).fill('the river bank was muddy after the storm').join(' '),
};

for (const [name, sentence] of Object.entries(SENTENCES)) {
  test(`context moves meaning, ${name}, 1280×720: no label over another, every distinct word named at least once`, async () => {
    const { page, errors } = await openSite(shared, `chapter=lenses&sentence=${encodeURIComponent(sentence)}`, {
      width: 1280,
      height: 720,
    });
    await showSlot(page, 'projection');
    const labels = await page.$eval('attention-explorer', (el) =>
      // The labels drawn (a word named by another label, or without a free place, keeps a hidden one for later updates).
      [...el.shadowRoot.querySelectorAll('.slot-projection .point-label:not([display="none"])')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    const over = [];
    labels.forEach((a, i) =>
      labels.slice(i + 1).forEach((b) => {
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) over.push(`${a.text} / ${b.text}`);
      }),
    );
    assert.deepEqual(over, [], 'labels over one another');
    const words = new Set(sentence.split(' '));
    if (words.size <= 16)
      assert.deepEqual(new Set(labels.map((l) => l.text.toLowerCase())), words, 'every distinct word named');
    assert.deepEqual(errors, []);
    await page.close();
  });
}
