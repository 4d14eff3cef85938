// The cloze benchmark's items (scripts/lm/cloze-items.mjs): deterministic, and every item keeps the rule.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
  MAX_WORDS,
  MIN_WORDS,
  clozeItems,
  isContentWord,
  itemOf,
  loadWordNet,
  mostFrequentWords,
  parseExceptions,
  parseIndex,
  toTsv,
} from '../../scripts/lm/cloze-items.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CORPUS = join(ROOT, 'build/lm/corpus');

// A tiny WordNet in the files' own formats.
const WORDNET = {
  noun: {
    lemmas: parseIndex('  1 license line\ncat n 1 1 @ 1 0 02121620  \ndog n 1 1 @ 1 0 02084071  \nmouse n 1 0 0\n'),
    exceptions: parseExceptions('mice mouse\n'),
  },
  verb: {
    lemmas: parseIndex('chase v 1 0 0\nrun v 1 0 0\nsit v 1 0 0\n'),
    exceptions: parseExceptions('ran run\nsat sit\n'),
  },
  adj: { lemmas: parseIndex('big a 1 0 0\nlarge a 1 0 0\n'), exceptions: parseExceptions('bigger big\n') },
};
const FREQUENT = new Set(['the', 'a', 'run']);
const LINES = [
  'the big dog chased the cat across a yard', // big, dog, chased, cat
  'Cats and mice sat on the mat today', // mice, sat (Cats is first and capitalised)
  'the dog ran', // too short
  'the dog, the cat, and the mouse were quiet here', // "dog," and "cat," are not /^[a-z]+$/; mouse
  'nothing in this line is a content word at all', // none
  `the ${Array.from({ length: 30 }, () => 'cat').join(' ')}`, // 31 words: too long
];

test('isContentWord: lemmas, exception lists and morphy suffixes', () => {
  for (const w of [
    'cat',
    'cats',
    'dogs',
    'mice',
    'chased',
    'chases',
    'chasing',
    'ran',
    'larger',
    'largest',
    'bigger',
  ]) {
    assert.ok(isContentWord(w, WORDNET), w);
  }
  for (const w of ['the', 'quickly', 'catly', 'xyz', 's']) assert.ok(!isContentWord(w, WORDNET), w);
});

test('mostFrequentWords: lowercased whitespace pieces, ties in code-unit order', () => {
  assert.deepEqual([...mostFrequentWords('The the cat CAT dog b a', 3)], ['cat', 'the', 'a']);
});

test('items keep the rule on a fixture, and are the same on every run', () => {
  const { items, eligible } = clozeItems(LINES, WORDNET, FREQUENT);
  assert.equal(eligible, 3);
  assert.deepEqual(items, clozeItems(LINES, WORDNET, FREQUENT).items);
  const [first, second, third] = items;
  assert.ok(['big', 'dog', 'chased', 'cat'].includes(first.answer), first.answer);
  assert.equal(`${first.left} ${first.answer} ${first.right}`, LINES[0]);
  assert.ok(['mice', 'sat'].includes(second.answer), second.answer);
  assert.equal(third.answer, 'mouse');
  assert.equal(third.right, 'were quiet here');
  assert.deepEqual(clozeItems(LINES, WORDNET, FREQUENT, 2).items, [first, second]); // item ⌊k · 3 / 2⌋
  assert.deepEqual(clozeItems(LINES, WORDNET, FREQUENT, 1).items, [first]);
  assert.equal(itemOf('the big dog', WORDNET, FREQUENT), null);
  const tsv = toTsv(items, 'fixture');
  assert.ok(tsv.startsWith('# fixture\n'));
  assert.equal(tsv.split('\n')[1], `${first.left}\t${first.answer}\t${first.right}`);
});

test('the real held-out items keep the rule and number at least 2,000', (t) => {
  if (!existsSync(join(CORPUS, 'held-out.raw.txt')) || !existsSync('/usr/share/wordnet/index.noun')) {
    t.skip('build/lm/corpus is not built (node scripts/lm/corpus-text.mjs build/lm/corpus)');
    return;
  }
  const wordnet = loadWordNet();
  const frequent = mostFrequentWords(readFileSync(join(CORPUS, 'train.raw.txt'), 'utf8'));
  assert.equal(frequent.size, 100);
  const lines = readFileSync(join(CORPUS, 'held-out.raw.txt'), 'utf8').split('\n').filter(Boolean);
  const { items, eligible } = clozeItems(lines, wordnet, frequent);
  assert.ok(items.length >= 2000, `${items.length} items`);
  assert.ok(eligible >= items.length);
  for (const { left, answer, right } of items) {
    const words = [left, answer, right].join(' ').trim().split(/\s+/);
    assert.ok(words.length >= MIN_WORDS && words.length <= MAX_WORDS, `${words.length} words`);
    assert.ok(left.length > 0, 'the answer is never the first word');
    assert.match(answer, /^[a-z]+$/);
    assert.ok(!frequent.has(answer), answer);
    assert.ok(isContentWord(answer, wordnet), answer);
  }
  // Evenly spaced through the file, so the later sources (the Bible, Austen) are in the items too
  const austenPath = join(CORPUS, 'held-out.austen.raw.txt');
  if (existsSync(austenPath)) {
    const austen = new Set(readFileSync(austenPath, 'utf8').split('\n'));
    const fromAusten = items.filter(({ left, answer, right }) =>
      austen.has([left, answer, right].join(' ').trim()),
    ).length;
    assert.ok(fromAusten > 0.1 * items.length && fromAusten < 0.5 * items.length, `${fromAusten} items from Austen`);
  }
});
