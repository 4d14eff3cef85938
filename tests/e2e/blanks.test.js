// The encoder's blanks belong to words, not to slots: a blank stays only on the same word at the same
// place (settings/blanks.js), so select-all and typing a new sentence leaves no [MASK] behind, in the
// figures or in the link.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, flush, openSite } from './browser.js';

const shared = distAndBrowser();

/** The blanks as the page holds and shows them: the state, the tokens drawn as [MASK], the link's key. */
function blanks(page) {
  return page.$eval('attention-explorer', (el) => ({
    state: [...el.state.maskedPositions],
    shown: [...el.shadowRoot.querySelectorAll('.token.masked')].map((t) => Number(t.dataset.index)),
    link: new URLSearchParams(location.hash.slice(1)).get('maskedPositions'),
  }));
}

/** Waits until the link has caught up with the typing (it is written once the keystrokes pause). */
async function linkSettled(page) {
  await flush(page);
  await page.waitForFunction(() => {
    const el = document.querySelector('attention-explorer');
    const link = new URLSearchParams(location.hash.slice(1));
    return link.get('sentence') === el.state.sentence;
  });
}

test('with the encoder, a blank clicked, then select-all and a new sentence typed: no blank stays', async () => {
  const { page, errors } = await openSite(shared, 'model=masked&sentence=the%20door%20was%20opened%20by%20the%20wind');
  await page.waitForSelector('attention-explorer [data-figure="predictions"]', { timeout: 30000 });
  await page.click('attention-explorer .token[data-index="3"]');
  await linkSettled(page);
  assert.deepEqual(await blanks(page), { state: [3], shown: [3], link: '3' }, '"opened" blanked');

  await page.focus('attention-explorer textarea');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('she said the shop closed early today');
  await linkSettled(page);
  assert.deepEqual(await blanks(page), { state: [], shown: [], link: null }, 'the new sentence has no blank');
  const sections = await page.$$eval('attention-explorer [data-figure="predictions"] section', (s) => s.length);
  assert.equal(sections, 0, 'no blank is predicted');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a blank stays while the learner edits elsewhere, and goes when its own word changes', async () => {
  const { page, errors } = await openSite(shared, 'model=masked&sentence=the%20door%20was%20opened%20by%20the%20wind');
  await page.waitForSelector('attention-explorer [data-figure="predictions"]', { timeout: 30000 });
  await page.click('attention-explorer .token[data-index="1"]');
  await page.focus('attention-explorer textarea');
  await page.keyboard.press('End');
  await page.keyboard.type(' last night');
  await linkSettled(page);
  assert.deepEqual(await blanks(page), { state: [1], shown: [1], link: '1' }, '"door" is still blanked');
  // The same word, capitalised, is the same word; a word inserted before it moves it: the blank goes.
  await page.$eval('attention-explorer', (el) => {
    el.sentence = 'The DOOR was opened by the wind last night';
  });
  assert.deepEqual((await blanks(page)).state, [1], 'case does not make another word');
  await page.$eval('attention-explorer', (el) => {
    el.sentence = 'the old door was opened by the wind';
  });
  await linkSettled(page);
  assert.deepEqual(await blanks(page), { state: [], shown: [], link: null }, 'position 1 is now "old"');
  // A change that names its blanks is taken as it is.
  await page.$eval('attention-explorer', (el) => el.change({ sentence: 'a cat sat on the mat', maskedPositions: [2] }));
  assert.deepEqual((await blanks(page)).state, [2]);
  assert.deepEqual(errors, []);
  await page.close();
});
