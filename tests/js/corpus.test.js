// The language-model corpus text (scripts/lm/corpus-text.mjs): built twice into temporary folders
// from the Debian packages wordnet-base, sword-text-web (+ libsword-utils for mod2imp) and
// r-cran-janeaustenr (+ r-base-core for Rscript), it must be clean (no empty lines, no markup), split by document with no document on both sides, large
// enough, hold known lines, and come out byte-identical both times.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/lm/corpus-text.mjs', import.meta.url));

function missingPackages() {
  const missing = [];
  if (!fs.existsSync('/usr/share/wordnet/data.noun')) missing.push('wordnet-base');
  const onPath = (program) =>
    (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, program)));
  if (!onPath('mod2imp')) missing.push('libsword-utils');
  if (!fs.existsSync('/usr/share/sword/mods.d/engWEB2015eb.conf')) missing.push('sword-text-web');
  if (!onPath('Rscript')) missing.push('r-base-core');
  if (!fs.existsSync('/usr/lib/R/site-library/janeaustenr')) missing.push('r-cran-janeaustenr');
  return missing;
}

const missing = missingPackages();
const skip = missing.length ? `needs the Debian packages ${missing.join(', ')}` : false;

const dirs = [];
const runs = [];
const lines = (text) => text.split('\n').slice(0, -1);
const words = (list) => list.reduce((sum, line) => sum + line.split(' ').length, 0);

before(() => {
  if (skip) return;
  for (let i = 0; i < 2; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-text-'));
    dirs.push(dir);
    const stdout = execFileSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    runs.push({
      stdout,
      train: fs.readFileSync(path.join(dir, 'train.raw.txt')),
      heldOut: fs.readFileSync(path.join(dir, 'held-out.raw.txt')),
      sources: fs.readFileSync(path.join(dir, 'sources.json')),
      wordnetBible: fs.readFileSync(path.join(dir, 'held-out.wordnet-bible.raw.txt')),
      austen: fs.readFileSync(path.join(dir, 'held-out.austen.raw.txt')),
    });
  }
});

after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('the outputs exist, one line per sentence, gloss or example, and no line is empty or padded', { skip }, () => {
  const [run] = runs;
  assert.equal(run.stdout.trim().split('\n').length, 4, 'one summary line per source, then the "wrote" line');
  for (const part of ['train', 'heldOut']) {
    const text = run[part].toString('utf8');
    assert.ok(text.length > 0, `${part} is empty`);
    assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
    assert.ok(!text.includes('\r') && !text.includes('\uFFFD'));
    const list = lines(text);
    // eslint-disable-next-line no-control-regex -- U+0001 is the corpus script's soft-break marker, which must not survive
    const bad = list.filter((line) => line === '' || line !== line.trim() || /\s\s|[\t\u00A0\u0001]/.test(line));
    assert.deepEqual(bad.slice(0, 5), [], `${part}: empty, padded or unsquashed lines`);
  }
});

test('no markup is left: no tags, no "$$$" keys, no entities', { skip }, () => {
  // WordNet's gloss of "angle bracket" quotes the brackets themselves; that is text, not markup.
  const allowed = new Set([
    "either of two punctuation marks (`<' or `>') used in computer programming and sometimes used to enclose textual material",
  ]);
  for (const part of ['train', 'heldOut']) {
    const list = lines(runs[0][part].toString('utf8'));
    assert.deepEqual(
      list.filter((line) => /[<>]/.test(line) && !allowed.has(line)).slice(0, 5),
      [],
      `${part}: < or > left`,
    );
    assert.deepEqual(
      list.filter((line) => line.includes('$$$')),
      [],
      `${part}: $$$ left`,
    );
    assert.deepEqual(
      list.filter((line) => /&(?:amp|lt|gt|quot|apos|#\d+);/.test(line)).slice(0, 5),
      [],
      `${part}: entities left`,
    );
    assert.deepEqual(
      list.filter((line) => /lemma=|strong:[GH]\d|osisID|sID=|eID=/.test(line)).slice(0, 5),
      [],
      `${part}: attributes left`,
    );
  }
});

test('known lines are present: a WordNet example, a definition and Bible sentences', { skip }, () => {
  const all = new Set([...lines(runs[0].train.toString('utf8')), ...lines(runs[0].heldOut.toString('utf8'))]);
  for (const line of [
    'they pulled the canoe up on the bank',
    'he sat on the bank of the river and watched the currents',
    'sloping land (especially the slope beside a body of water)',
    'In the beginning, God created the heavens and the earth.',
    'The earth was formless and empty.',
    // A footnote between two words leaves one space (`God</w><note>…</note><w>so loved`).
    'For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life.',
    // Austen: wrapped lines joined, "Mr." not a sentence end, underscores of italics gone.
    'It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.',
    'By a former marriage, Mr. Henry Dashwood had one son: by his present lady, three daughters.',
    '"My dear, you flatter me.',
  ]) {
    assert.ok(all.has(line), `missing line: ${line}`);
  }
  // No front matter (Genesis 0:0 preface), no glossary after Revelation 22:21, no footnote text.
  const text = [...all].join('\n');
  for (const absent of [
    'Preface to the World English Bible',
    'Abaddon is Hebrew for destruction',
    'The Hebrew word rendered',
    // Austen's title pages, headings, editors' notes and the note after Northanger Abbey.
    'by Jane Austen',
    'CHAPTER',
    'VOLUME',
    'first and second editions',
    'Signet Classic',
  ]) {
    assert.ok(!text.includes(absent), `should have been removed: ${absent}`);
  }
});

test('sources.json: counts match the files; the held-out part is ≥ 5 % of ≥ 1 M words', { skip }, () => {
  const summary = JSON.parse(runs[0].sources.toString('utf8'));
  assert.match(summary.heldOutRule, /FNV-1a 32-bit.*modulo 16, is 0/);
  assert.deepEqual(
    summary.sources.map((s) => s.package),
    ['wordnet-base', 'sword-text-web', 'r-cran-janeaustenr'],
  );
  for (const [part, file] of [
    ['train', 'train'],
    ['heldOut', 'heldOut'],
  ]) {
    const list = lines(runs[0][file].toString('utf8'));
    const sum = (key) => summary.sources.reduce((total, s) => total + s[part][key], 0);
    assert.equal(sum('lines'), list.length, `${part} lines`);
    assert.equal(sum('words'), words(list), `${part} words`);
    assert.deepEqual(summary.total[part], { documents: sum('documents'), lines: sum('lines'), words: sum('words') });
    for (const s of summary.sources) {
      assert.ok(
        s.name && s.licence && s[part].documents > 0 && s[part].lines > 0 && s[part].words > 0,
        `${s.id} ${part}`,
      );
    }
  }
  const trainWords = summary.total.train.words;
  const heldOutWords = summary.total.heldOut.words;
  assert.ok(trainWords + heldOutWords >= 1_000_000, `total ${trainWords + heldOutWords} words`);
  assert.ok(trainWords >= 1_000_000, `train ${trainWords} words`);
  assert.ok(
    heldOutWords >= 0.05 * (trainWords + heldOutWords),
    `held-out ${heldOutWords} of ${trainWords + heldOutWords} words`,
  );
});

test(
  'the split is by document: every document lies wholly on the side the FNV-1a rule gives it',
  { skip },
  async () => {
    const { collectDocuments, fnv1a32, isHeldOut } = await import('../../scripts/lm/corpus-text.mjs');
    // Reference values of 32-bit FNV-1a.
    assert.equal(fnv1a32(''), 0x811c9dc5);
    assert.equal(fnv1a32('a'), 0xe40c292c);
    assert.equal(fnv1a32('foobar'), 0xbf9cf968);
    const documents = collectDocuments();
    const ids = documents.map((doc) => doc.id);
    assert.equal(new Set(ids).size, ids.length, 'document ids are unique');
    assert.ok(ids.includes('wordnet:noun:09213565') && ids.includes('web:Genesis:1') && ids.includes('web:I Samuel:3'));
    // Six novels, 269 chapters; Emma's three volumes number 18 + 18 + 19 chapters, one sequence here.
    const austen = ids.filter((id) => id.startsWith('austen:'));
    assert.equal(austen.length, 269);
    assert.ok(ids.includes('austen:emma:55') && !ids.includes('austen:emma:56'));
    assert.ok(austen.some(isHeldOut), 'some Austen chapters are held out');
    // Rebuilding each side from the documents the rule assigns to it gives the files exactly, so no
    // document contributes to both sides and the order is the source order.
    const side = { train: [], heldOut: [] };
    const count = { train: { wordnet: 0, web: 0, austen: 0 }, heldOut: { wordnet: 0, web: 0, austen: 0 } };
    for (const doc of documents) {
      if (doc.lines.length === 0) continue;
      const part = isHeldOut(doc.id) ? 'heldOut' : 'train';
      side[part].push(...doc.lines);
      count[part][doc.source]++;
    }
    assert.ok(
      side.train.join('\n') + '\n' === runs[0].train.toString('utf8'),
      'train = the lines of the train documents',
    );
    assert.ok(
      side.heldOut.join('\n') + '\n' === runs[0].heldOut.toString('utf8'),
      'held-out = the lines of the held-out documents',
    );
    const summary = JSON.parse(runs[0].sources.toString('utf8'));
    for (const s of summary.sources) {
      assert.equal(s.train.documents, count.train[s.id]);
      assert.equal(s.heldOut.documents, count.heldOut[s.id]);
    }
  },
);

test('the held-out parts by source add up to held-out.raw.txt and match sources.json', { skip }, () => {
  const [run] = runs;
  assert.ok(Buffer.concat([run.wordnetBible, run.austen]).equals(run.heldOut), 'wordnet-bible + austen = held-out');
  const summary = JSON.parse(run.sources.toString('utf8'));
  const bySource = Object.fromEntries(summary.sources.map((s) => [s.id, s.heldOut]));
  for (const [file, keys] of [
    ['wordnetBible', ['wordnet', 'web']],
    ['austen', ['austen']],
  ]) {
    const list = lines(run[file].toString('utf8'));
    assert.equal(
      list.length,
      keys.map((key) => bySource[key].lines).reduce((a, b) => a + b),
      `${file} lines`,
    );
    assert.equal(
      words(list),
      keys.map((key) => bySource[key].words).reduce((a, b) => a + b),
      `${file} words`,
    );
  }
  // Austen's lines come last in both files: no italics underscores or footnote asterisks are left
  // (WordNet has underscores of its own: "by_mouth").
  const austenTrainLines = summary.sources.find((s) => s.id === 'austen').train.lines;
  const austenTrain = lines(run.train.toString('utf8')).slice(-austenTrainLines);
  for (const list of [austenTrain, lines(run.austen.toString('utf8'))]) {
    assert.deepEqual(
      list.filter((line) => /[_*]/.test(line)),
      [],
    );
  }
});

test('the Austen reader: chapters numbered through the book, front and end matter dropped, sentences', async () => {
  const { austenDocuments, bookSlug } = await import('../../scripts/lm/austen-text.mjs');
  const fixture = [
    'EMMA',
    '',
    'By Jane Austen',
    'VOLUME I',
    'CHAPTER I',
    '',
    'Emma Woodhouse, handsome, clever, and rich, had lived nearly twenty-one',
    'years in the world. Mr. Woodhouse was _very_ fond of her.',
    '',
    '"Poor Miss Taylor!--I wish she were here again.',
    'What a pity it is that Mr. Weston ever thought of her!" said Colonel F. Smith.',
    '',
    '                          * * * * *',
    '',
    '[At this point in the first and second editions, Volume 1 ends.]',
    'CHAPTER II',
    '"No. I will not."',
    'VOLUME II',
    'CHAPTER I',
    'It was No. 97, said Dr. Perry.',
    '',
    'FINIS',
    'A note by an editor.',
  ].map((line) => `Emma\t${line}`);
  fixture.push('Sense & Sensibility\tCHAPTER 1', 'Sense & Sensibility\tThe family of Dashwood.');
  assert.equal(bookSlug('Sense & Sensibility'), 'sense-and-sensibility');
  assert.deepEqual(austenDocuments(fixture.join('\n') + '\n'), [
    {
      source: 'austen',
      id: 'austen:emma:1',
      lines: [
        'Emma Woodhouse, handsome, clever, and rich, had lived nearly twenty-one years in the world.',
        'Mr. Woodhouse was very fond of her.',
        '"Poor Miss Taylor!',
        'I wish she were here again.',
        'What a pity it is that Mr. Weston ever thought of her!" said Colonel F. Smith.',
      ],
    },
    { source: 'austen', id: 'austen:emma:2', lines: ['"No.', 'I will not."'] },
    { source: 'austen', id: 'austen:emma:3', lines: ['It was No. 97, said Dr. Perry.'] },
    { source: 'austen', id: 'austen:sense-and-sensibility:1', lines: ['The family of Dashwood.'] },
  ]);
});

test('two runs give byte-identical files', { skip }, () => {
  for (const key of ['train', 'heldOut', 'sources', 'wordnetBible', 'austen']) {
    assert.ok(runs[0][key].equals(runs[1][key]), `${key} differs between runs`);
  }
});
