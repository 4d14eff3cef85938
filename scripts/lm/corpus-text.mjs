// Builds the raw text of a small English training corpus for the language-model lab from Debian
// packages, and splits it by document into a training part and a held-out part.
//
//   node scripts/lm/corpus-text.mjs [out-dir]      (default build/lm/corpus, relative to the repo root)
//
// Writes <out-dir>/train.raw.txt, <out-dir>/held-out.raw.txt (UTF-8, one sentence, gloss or example
// a line, whitespace collapsed, no empty lines) and <out-dir>/sources.json (counts per source and
// split, the held-out rule). Each file lists WordNet, then the Bible, then Austen. The held-out text
// is also written in two parts, which add up to held-out.raw.txt, so that a model can be measured
// on each: <out-dir>/held-out.wordnet-bible.raw.txt (WordNet and the Bible: byte for byte the
// held-out text from before Austen was added, so earlier measurements stay comparable) and
// <out-dir>/held-out.austen.raw.txt (Austen's held-out chapters).
//
// Sources (all in Debian; their licences let an MIT package ship weights trained on them):
//   1. WordNet 3.0 (Debian wordnet-base): /usr/share/wordnet/data.{noun,verb,adj,adv}, Latin-1.
//      A document is one synset (id wordnet:<pos>:<offset>); its lines are the definition and each
//      quoted example, quotes removed. Attributions after an example ("- Henry Miller") are dropped.
//   2. World English Bible (Debian sword-text-web, read with mod2imp from libsword-utils). A document
//      is one chapter (id web:<book>:<chapter>, book as SWORD names it, e.g. "I Samuel"). Footnotes,
//      headings and speaker labels are removed, every other tag is dropped keeping its text, the
//      front matter (chapter 0, verse 0) is skipped, and a chapter's text is split into sentences.
//   3. Jane Austen's six novels (Debian r-cran-janeaustenr, read with Rscript from r-base-core;
//      austen-text.mjs). A document is one chapter (id austen:<book slug>:<n>, chapters numbered
//      through the book: Emma's volumes restart their numbering), split into sentences.
//
// Held-out rule: a document is held out iff FNV-1a 32-bit of the UTF-8 bytes of its id, modulo 16,
// is 0. Deterministic: the same packages give the same bytes on every run.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { austenDocuments, readAustenText } from './austen-text.mjs';
import { splitSentences, squash } from './sentences.mjs';

export { splitSentences };

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORDNET_DIR = '/usr/share/wordnet';
const WORDNET_POS = ['noun', 'verb', 'adj', 'adv'];
const WEB_MODULE = 'engWEB2015eb';

export const HELD_OUT_MODULUS = 16;
export const HELD_OUT_RULE =
  'a document is held out iff FNV-1a 32-bit (offset basis 2166136261, prime 16777619) of the UTF-8 bytes ' +
  `of its id, modulo ${HELD_OUT_MODULUS}, is 0; documents are WordNet synsets (wordnet:<pos>:<offset>) ` +
  'Bible chapters (web:<book>:<chapter>) and the chapters of the novels of Jane Austen ' +
  '(austen:<book>:<chapter>, chapters numbered 1, 2, … through each book)';

export const SOURCES = {
  wordnet: {
    name: 'WordNet 3.0 glosses and examples',
    package: 'wordnet-base',
    licence:
      'WordNet 3.0 licence (Princeton University): use, copy, modify and distribute for any purpose; keep the copyright notice',
  },
  web: {
    name: 'World English Bible (engWEB2015eb, with deuterocanon)',
    package: 'sword-text-web',
    licence: 'public domain ("World English Bible" is a trademark of eBible.org: changed text must not carry the name)',
  },
  austen: {
    name: "Jane Austen's six novels",
    package: 'r-cran-janeaustenr',
    licence: 'public domain (the novels, 1811–1817); the R package janeaustenr is MIT',
  },
};

// The held-out text in parts, by source (see the header); together they are held-out.raw.txt.
export const HELD_OUT_PARTS = {
  'held-out.wordnet-bible.raw.txt': ['wordnet', 'web'],
  'held-out.austen.raw.txt': ['austen'],
};

/** FNV-1a 32-bit of the UTF-8 bytes of a string, as an unsigned integer. */
export function fnv1a32(text) {
  let h = 2166136261;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function isHeldOut(id) {
  return fnv1a32(id) % HELD_OUT_MODULUS === 0;
}

// ---------------------------------------------------------------------------------------------
// WordNet

/** The lines of one gloss: the definition, then every quoted example without its quotes. */
export function glossLines(gloss) {
  // `"I"m siding against …"`: a straight quote typed for an apostrophe.
  gloss = gloss.replace(/(\p{L})"(m|s|t|re|ve|ll|d)\b/gu, "$1'$2");
  if ((gloss.match(/"/g) ?? []).length % 2 === 1) return unbalancedGlossLines(gloss);
  const lines = [];
  // The definition runs up to the first `; "` (or to a leading quote); quotes inside it
  // (`as in the phrase "make strides"`) are part of the prose and stay.
  let definition = gloss;
  let examples = '';
  const cut = gloss.search(/;\s*"/);
  if (/^\s*"/.test(gloss)) {
    definition = '';
    examples = gloss;
  } else if (cut >= 0) {
    definition = gloss.slice(0, cut);
    examples = gloss.slice(cut + 1);
  }
  definition = squash(definition).replace(/[\s;:,]+$/, '');
  // A few definitions run into an example without the "; " (`roll around, "pigs were wallowing in
  // the mud"`, `to compose or represent:"This wall …"`, `reach a goal, e.g., "make the first
  // team"`); a quote that closes the definition after , : ) or e.g. is an example. Quotes after
  // "as in" or "the phrase" stay: they are part of the definition.
  const tail = /^(.*?(?:[:,)]|\be\.g\.,?))\s*"([^"]*)"$/.exec(definition);
  if (tail) {
    definition = tail[1].replace(/(?:[\s;:,]|\be\.g\.|\bas in\b)+$/, '');
    examples = `"${tail[2]}"; ${examples}`;
  }
  if (definition) lines.push(definition);
  // Each example is a pair of quotes; text outside them (attributions such as `- Henry Miller`,
  // separators) is dropped.
  for (const m of examples.matchAll(/"([^"]*)"/g)) {
    const example = squash(m[1]).replace(/[\s;]+$/, '');
    if (example) lines.push(example);
  }
  return lines;
}

/**
 * The lines of one of the few glosses with an odd number of quotes (a quote missing somewhere):
 * the gloss is cut at every "; ", the pieces up to the first one holding a quote are the
 * definition, and every later piece is an example (a quote inside a piece separates two examples).
 */
function unbalancedGlossLines(gloss) {
  const pieces = gloss
    .split(/;\s+/)
    .map(squash)
    .filter((piece) => piece !== '');
  const strip = (text) => text.replace(/^["'\s]+|["'\s;:,]+$/g, '');
  let first = pieces.findIndex((piece) => piece.includes('"'));
  if (first < 0) first = pieces.length;
  if (first === 0) first = /^\s*"/.test(gloss) ? 0 : 1; // a quote only at the end of the definition
  const lines = [];
  const definition = strip(pieces.slice(0, first).join('; '));
  if (definition) lines.push(definition);
  for (const piece of pieces.slice(first)) {
    for (const part of piece.split('"')) {
      const example = strip(squash(part));
      if (example) lines.push(example);
    }
  }
  return lines;
}

function wordnetDocuments() {
  const documents = [];
  for (const pos of WORDNET_POS) {
    const file = path.join(WORDNET_DIR, `data.${pos}`);
    if (!fs.existsSync(file)) {
      throw new Error(
        `corpus-text: ${file} is missing; install the Debian package wordnet-base (apt-get install -y wordnet-base)`,
      );
    }
    const text = fs.readFileSync(file, 'latin1');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('  ')) continue; // licence header
      const bar = line.indexOf(' | ');
      if (bar < 0) throw new Error(`corpus-text: WordNet line without a gloss in data.${pos}: ${line.slice(0, 80)}`);
      const offset = line.slice(0, line.indexOf(' '));
      documents.push({ source: 'wordnet', id: `wordnet:${pos}:${offset}`, lines: glossLines(line.slice(bar + 3)) });
    }
  }
  return documents;
}

// ---------------------------------------------------------------------------------------------
// World English Bible

function runMod2imp() {
  try {
    return execFileSync('mod2imp', [WEB_MODULE], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    if (error.code === 'ENOENT') {
      throw new Error(
        'corpus-text: mod2imp not found; install the Debian package libsword-utils (apt-get install -y libsword-utils sword-text-web)',
        { cause: error },
      );
    }
    const detail = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n')[0];
    throw new Error(
      `corpus-text: mod2imp ${WEB_MODULE} failed (${detail}); install the Debian package sword-text-web (apt-get install -y sword-text-web)`,
      { cause: error },
    );
  }
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text) {
  return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|([a-zA-Z]+));/g, (whole, dec, hex, name) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ENTITIES[name] ?? whole;
  });
}

const BREAK = '\u0001';

/** Plain text of one verse's OSIS markup. */
export function verseText(osis) {
  let s = osis
    // The end of a book, and the glossary appended to the last verse of Revelation, end the text.
    .replace(/<div\b(?=[^>]*\beID=)(?=[^>]*\btype="book")[^>]*>[\s\S]*$/, '')
    .replace(/<div\b[^>]*\btype="glossary"[^>]*>[\s\S]*$/, '')
    // A footnote sits where a space would be (`God</w><note>…</note><w>created</w>`), and so
    // does the end of a quotation (`righteousness.”</q><w>Then</w>`): both become a soft break.
    .replace(/<note\b[^>]*\/>/g, '')
    .replace(/<note\b[^>]*>[\s\S]*?<\/note>/g, BREAK)
    .replace(/<\/q>/g, BREAK)
    // Headings (section titles, psalm superscriptions) and speaker labels are not running text.
    .replace(/<title\b[^>]*\/>/g, '')
    .replace(/<title\b[^>]*>[\s\S]*?<\/title>/g, ' ')
    .replace(/<speaker\b[^>]*>[\s\S]*?<\/speaker>/g, ' ')
    // Every other tag goes, its text stays; a tag cut off at the end of a verse goes too.
    .replace(/<[^>]*>/g, '')
    .replace(/<[^>]*$/, '');
  // A soft break is a space between two pieces of text, nothing before punctuation or a space.
  // eslint-disable-next-line no-control-regex -- U+0001 is the soft-break marker written above
  s = s.replace(/\u0001+/g, (run, at, all) => {
    const before = all[at - 1];
    const after = all[at + run.length];
    if (before === undefined || after === undefined) return '';
    if (/\s/.test(before) || /[\s,.;:?!’”)\]…]/.test(after)) return '';
    return ' ';
  });
  return decodeEntities(s);
}

function webDocuments() {
  const imp = runMod2imp();
  if (!/^\$\$\$Genesis 1:1$/m.test(imp)) {
    throw new Error(
      `corpus-text: mod2imp ${WEB_MODULE} printed no Genesis 1:1; install the Debian package sword-text-web (apt-get install -y sword-text-web)`,
    );
  }
  const documents = [];
  const byId = new Map();
  const parts = imp.split(/^\$\$\$(.*)$/m); // [before, key, body, key, body, …]
  for (let i = 1; i < parts.length; i += 2) {
    const m = /^(.+) (\d+):(\d+)$/.exec(parts[i].trim());
    if (!m) continue; // [ Module Heading ], [ Testament n Heading ]
    const [, book, chapter, verse] = m;
    if (chapter === '0' || verse === '0') continue; // front matter, book and chapter introductions
    const id = `web:${book}:${Number(chapter)}`;
    let doc = byId.get(id);
    if (!doc) {
      doc = { source: 'web', id, verses: [] };
      byId.set(id, doc);
      documents.push(doc);
    }
    // Footnotes between spaces leave a space before punctuation (`coins</q> <note>…</note> <q>?`).
    const text = squash(verseText(parts[i + 1] ?? '')).replace(/(\S) +(?=[,.;:?!](?:[\s’”"')\]]|$))/g, '$1');
    if (text) doc.verses.push(text);
  }
  return documents.map(({ source, id, verses }) => ({ source, id, lines: splitSentences(verses.join(' ')) }));
}

// ---------------------------------------------------------------------------------------------

/** Every document of every source, in source order: WordNet noun, verb, adj, adv, the Bible, Austen. */
export function collectDocuments() {
  return [...wordnetDocuments(), ...webDocuments(), ...austenDocuments(readAustenText())];
}

function countWords(line) {
  return line.split(' ').length;
}

export function buildCorpus(outDir) {
  const documents = collectDocuments();
  const split = { train: [], heldOut: [] };
  const heldOutBySource = Object.fromEntries(Object.keys(SOURCES).map((key) => [key, []]));
  const stats = {};
  for (const key of Object.keys(SOURCES)) {
    stats[key] = { train: { documents: 0, lines: 0, words: 0 }, heldOut: { documents: 0, lines: 0, words: 0 } };
  }
  const seen = new Set();
  for (const doc of documents) {
    if (seen.has(doc.id)) throw new Error(`corpus-text: document id ${doc.id} occurs twice`);
    seen.add(doc.id);
    if (doc.lines.length === 0) continue; // nothing left after cleaning
    const part = isHeldOut(doc.id) ? 'heldOut' : 'train';
    const s = stats[doc.source][part];
    s.documents++;
    for (const line of doc.lines) {
      if (line === '' || /\s{2}|^\s|\s$|\n/.test(line))
        throw new Error(`corpus-text: bad line in ${doc.id}: ${JSON.stringify(line)}`);
      split[part].push(line);
      if (part === 'heldOut') heldOutBySource[doc.source].push(line);
      s.lines++;
      s.words += countWords(line);
    }
  }

  const total = (part) => Object.values(stats).reduce((sum, s) => sum + s[part].words, 0);
  const trainWords = total('train');
  const heldOutWords = total('heldOut');
  for (const [key, s] of Object.entries(stats)) {
    for (const part of ['train', 'heldOut']) {
      if (s[part].lines === 0) throw new Error(`corpus-text: source ${key} has no ${part} lines`);
    }
  }
  if (split.train.length === 0 || split.heldOut.length === 0) throw new Error('corpus-text: an output split is empty');
  if (trainWords < 1_000_000) throw new Error(`corpus-text: train has ${trainWords} words, fewer than 1,000,000`);
  if (heldOutWords < 0.05 * (trainWords + heldOutWords)) {
    throw new Error(`corpus-text: held-out has ${heldOutWords} of ${trainWords + heldOutWords} words, under 5 %`);
  }

  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'train.raw.txt'), split.train.join('\n') + '\n');
  fs.writeFileSync(path.join(outDir, 'held-out.raw.txt'), split.heldOut.join('\n') + '\n');
  for (const [file, keys] of Object.entries(HELD_OUT_PARTS)) {
    fs.writeFileSync(path.join(outDir, file), keys.flatMap((key) => heldOutBySource[key]).join('\n') + '\n');
  }
  const summary = {
    heldOutRule: HELD_OUT_RULE,
    files: { train: 'train.raw.txt', heldOut: 'held-out.raw.txt', heldOutParts: HELD_OUT_PARTS },
    sources: Object.entries(SOURCES).map(([key, info]) => ({
      id: key,
      ...info,
      train: stats[key].train,
      heldOut: stats[key].heldOut,
    })),
    total: {
      train: sumStats(Object.values(stats).map((s) => s.train)),
      heldOut: sumStats(Object.values(stats).map((s) => s.heldOut)),
    },
  };
  fs.writeFileSync(path.join(outDir, 'sources.json'), JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

function sumStats(list) {
  return list.reduce(
    (a, s) => ({ documents: a.documents + s.documents, lines: a.lines + s.lines, words: a.words + s.words }),
    { documents: 0, lines: 0, words: 0 },
  );
}

function main() {
  const started = performance.now();
  const outDir = path.resolve(REPO, process.argv[2] ?? path.join('build', 'lm', 'corpus'));
  const summary = buildCorpus(outDir);
  for (const s of summary.sources) {
    const all = s.train.words + s.heldOut.words;
    console.log(
      `${s.id}: ${s.name} [${s.package}]: train ${s.train.documents} documents, ${s.train.lines} lines, ` +
        `${s.train.words} words; held-out ${s.heldOut.documents} documents, ${s.heldOut.lines} lines, ${s.heldOut.words} words ` +
        `(${((100 * s.heldOut.words) / all).toFixed(2)} %)`,
    );
  }
  console.log(
    `wrote ${path.relative(REPO, outDir) || '.'}/{train.raw.txt,held-out.raw.txt,${Object.keys(HELD_OUT_PARTS).join(',')},sources.json} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    main();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
