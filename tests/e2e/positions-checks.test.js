// The Positions chapter at its defaults agrees with its takeaway ("adding a positional encoding P … is what lets it
// tell 'dog bites man' from 'man bites dog'"): its checks run on a head that reads P (checked-head.js), so with P
// added a repeated word's queries and keys differ at its two positions and the shuffled sentence attends differently;
// without P they say attention cannot see order. Which head is checked is said in the figures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite, showSlot } from './browser.js';

const shared = distAndBrowser();

/** The check figures' texts: the note on the checked head, each verdict, the captions. */
function checks(page) {
  return page.$eval('attention-explorer', (el) => {
    const root = el.shadowRoot;
    const text = (selector) => [...root.querySelectorAll(selector)].map((e) => e.textContent);
    return {
      takeaway: root.querySelector('[data-chapter="positions"] .takeaway')?.textContent ?? '',
      notes: text('[data-chapter="positions"] .checked-head'),
      shuffle: text('[data-figure="shuffle-check"] .verdict'),
      repeated: text('[data-figure="repeated-word"] .verdict'),
      sums: text('[data-figure="score-terms"] figcaption'),
    };
  });
}

/** The largest |difference| of queries and of keys a repeated-word verdict reports. */
function queryKeyDifferences(verdict) {
  const number = (name) => Number(verdict.match(new RegExp(`${name} (\\d\\.\\de[-+]\\d+)`))[1]);
  return { queries: number('queries'), keys: number('keys') };
}

test('at its defaults (designed heads, sinusoidal P), every verdict of the Positions chapter agrees with its takeaway', async () => {
  const { page, errors } = await openSite(shared, 'chapter=positions&sentence=the%20dog%20chased%20the%20cat');
  for (const slot of ['shuffle', 'repeated', 'scoreTerms']) await showSlot(page, slot);
  const shown = await checks(page);
  assert.equal(shown.notes.length, 3, 'each check says which head it checks');
  for (const note of shown.notes) assert.match(note, /projected head .*\(X \+ P\)·W/);
  assert.equal(shown.shuffle.length, 1);
  assert.match(shown.shuffle[0], /^Different — .*because of the sinusoidal encoding/);
  assert.doesNotMatch(shown.shuffle[0], /cannot see word order/);
  assert.equal(shown.repeated.length, 1);
  const { queries, keys } = queryKeyDifferences(shown.repeated[0]);
  assert.ok(queries > 0 && keys > 0, `"the" at 0 and 3: q and k differ with P added (${shown.repeated[0]})`);
  assert.match(shown.repeated[0], /different: position information tells them apart/);
  assert.deepEqual(errors, []);

  // Without P the same checks say what the takeaway says of attention without position information.
  await page.$eval('attention-explorer', (el) => el.change({ positionalEncoding: 'none' }));
  const none = await checks(page);
  assert.match(none.shuffle[0], /^Equal — .*cannot see word order/);
  assert.deepEqual(queryKeyDifferences(none.repeated[0]), { queries: 0, keys: 0 });
  await page.close();
});

test('a projected head selected is checked itself, and the figures say so', async () => {
  const { page } = await openSite(shared, 'chapter=positions&sentence=the%20dog%20chased%20the%20cat');
  await page.$eval('attention-explorer', (el) =>
    el.change({ numHeads: 2, headKinds: ['semantic'], head: { layer: 0, head: 1 } }),
  );
  await showSlot(page, 'repeated');
  const shown = await checks(page);
  assert.match(shown.notes[0], /^Checked on head 2, the selected head: it is projected/);
  const { queries, keys } = queryKeyDifferences(shown.repeated[0]);
  assert.ok(queries > 0 && keys > 0);
  await page.close();
});

test('score decomposition at 60 tokens: five panels side by side, every token labelled, scrolled together', async () => {
  const words = Array.from({ length: 60 }, (_, i) => 'the river bank was muddy after the storm'.split(' ')[i % 8]);
  const { page, errors } = await openSite(shared, `sentence=${encodeURIComponent(words.join(' '))}`);
  await showSlot(page, 'scoreTerms');
  const seen = await page.$eval('attention-explorer', async (el) => {
    const panels = [...el.shadowRoot.querySelectorAll('[data-figure="score-terms"] .heatmap')];
    const boxes = panels.map((f) => f.querySelector('.heatmap-scroll'));
    boxes[2].scrollTo(200, 300); // a reader scrolls the third term
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return {
      tops: [...new Set(panels.map((f) => Math.round(f.getBoundingClientRect().top)))].length,
      labels: panels.map((f) => f.querySelectorAll('.axis-rows .tick').length),
      scrolled: boxes.map((b) => [b.scrollLeft, b.scrollTop]),
    };
  });
  assert.deepEqual(seen.labels, [60, 60, 60, 60, 60], 'a label for every query in each panel');
  assert.ok(seen.tops <= 2, `the five panels take ${seen.tops} rows`);
  assert.deepEqual(new Set(seen.scrolled.map(String)), new Set(['200,300']), JSON.stringify(seen.scrolled));
  assert.deepEqual(errors, []);
  await page.close();
});
