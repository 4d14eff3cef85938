// Writes the items of a cloze benchmark (Taylor 1953, "'Cloze procedure': a new tool for measuring
// readability"): one content word blanked out of a held-out line of the language-model corpus, which
// neither model trained on. build/train/attn_cloze (scripts/lm/cloze.cpp) scores the models on them.
//
//   node scripts/lm/cloze-items.mjs [corpus-dir] [out.tsv] [--lines file]
//   (defaults build/lm/corpus, build/lm/cloze.tsv; --lines: items from that file's lines instead of the held-out
//   text, by the same rule — the Harvard sentences of scripts/lm/harvard-text.mjs: build/lm/cloze-harvard.tsv)
//
// Writes <out.tsv> (a '#' comment line, then left<TAB>answer<TAB>right, one item a line) and a sibling .json
// (the rule and the counts). The rule (RULE below) is deterministic: no randomness, so the same corpus gives
// the same bytes.
//
// Content words: a word is one if WordNet 3.0 (Debian wordnet-base, /usr/share/wordnet) lists it as a noun,
// verb or adjective lemma, or it is an inflection of one by WordNet's morphy (wn morphy(7WN)): the
// exception lists {noun,verb,adj}.exc, then its detachment suffixes per part of speech (-s, -ses, -xes,
// -zes, -ches, -shes, -men, -ies for nouns; -s, -ies, -es, -ed, -ing for verbs; -er, -est for adjectives),
// the stripped form being kept if it is a lemma of that part of speech. Adverbs are not content words here
// (index.adv is not read), so -ly is not stripped.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { fnv1a32 } from './corpus-text.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WORDNET_DIR = '/usr/share/wordnet';
export const MIN_WORDS = 6;
export const MAX_WORDS = 30;
export const TOP_WORDS = 100;
export const MAX_ITEMS = 5000;
export const RULE =
  `a held-out line of ${MIN_WORDS}-${MAX_WORDS} whitespace-separated words gives at most one item; candidates are ` +
  `its words (not the first) matching /^[a-z]+$/ that are WordNet noun, verb or adjective lemmas or their ` +
  `inflections (exception lists, then morphy's suffix rules) and not among the ${TOP_WORDS} most frequent ` +
  `lowercased whitespace pieces of train.raw.txt; the candidate at FNV-1a 32 (UTF-8) of the line modulo the ` +
  `number of candidates is blanked; of those items ${MAX_ITEMS} evenly spaced through the file are kept ` +
  '(item ⌊k · n / max⌋ for k = 0 … max − 1), so every source of the held-out text (WordNet, the Bible, Austen) is in them';

// morphy's detachment rules (WordNet 3.0, morphy(7WN)): [suffix, ending] per part of speech.
export const DETACHMENTS = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
};

/** The one-word lemmas of a WordNet index file's text (its license lines start with spaces). */
export function parseIndex(text) {
  const lemmas = new Set();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    lemmas.add(line.slice(0, line.indexOf(' ')));
  }
  return lemmas;
}

/** A WordNet exception list's text as a Map from an inflected form to its base forms. */
export function parseExceptions(text) {
  const exceptions = new Map();
  for (const line of text.split('\n')) {
    const [form, ...bases] = line.trim().split(/\s+/);
    if (form && bases.length) exceptions.set(form, bases);
  }
  return exceptions;
}

/** WordNet's lemmas and exceptions per part of speech, read from dir. */
export function loadWordNet(dir = WORDNET_DIR) {
  const wordnet = {};
  for (const pos of ['noun', 'verb', 'adj']) {
    wordnet[pos] = {
      lemmas: parseIndex(fs.readFileSync(path.join(dir, `index.${pos}`), 'latin1')),
      exceptions: parseExceptions(fs.readFileSync(path.join(dir, `${pos}.exc`), 'latin1')),
    };
  }
  return wordnet;
}

/** Whether word is a noun, verb or adjective of wordnet ({pos: {lemmas, exceptions}}), morphy-like. */
export function isContentWord(word, wordnet) {
  for (const { lemmas, exceptions } of Object.values(wordnet)) {
    if (lemmas.has(word)) return true;
    if ((exceptions.get(word) ?? []).some((base) => lemmas.has(base))) return true;
  }
  for (const [pos, rules] of Object.entries(DETACHMENTS)) {
    const { lemmas } = wordnet[pos];
    for (const [suffix, ending] of rules) {
      if (word.length > suffix.length && word.endsWith(suffix) && lemmas.has(word.slice(0, -suffix.length) + ending)) {
        return true;
      }
    }
  }
  return false;
}

/** The n most frequent lowercased whitespace pieces of text (ties in code-unit order), as a Set. */
export function mostFrequentWords(text, n = TOP_WORDS) {
  const counts = new Map();
  for (const piece of text.toLowerCase().split(/\s+/)) {
    if (piece) counts.set(piece, (counts.get(piece) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Set(sorted.slice(0, n).map(([word]) => word));
}

/** The indices of a line's candidate words (words: its whitespace pieces), by the rule. */
export function candidates(words, wordnet, frequent) {
  const found = [];
  if (words.length < MIN_WORDS || words.length > MAX_WORDS) return found;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (/^[a-z]+$/.test(w) && !frequent.has(w) && isContentWord(w, wordnet)) found.push(i);
  }
  return found;
}

/** The item of one line ({left, answer, right}), or null when it has no candidate. */
export function itemOf(line, wordnet, frequent) {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const found = candidates(words, wordnet, frequent);
  if (!found.length) return null;
  const i = found[fnv1a32(line) % found.length];
  return { left: words.slice(0, i).join(' '), answer: words[i], right: words.slice(i + 1).join(' ') };
}

/**
 * The items of the held-out lines — max of them evenly spaced through the file when there are more (the
 * file holds its sources one after another) — and how many lines had one.
 */
export function clozeItems(lines, wordnet, frequent, max = MAX_ITEMS) {
  const all = lines.map((line) => itemOf(line, wordnet, frequent)).filter(Boolean);
  const n = all.length;
  const items = n <= max ? all : Array.from({ length: max }, (_, k) => all[Math.floor((k * n) / max)]);
  return { items, eligible: n };
}

/** The TSV text of items, after one comment line. */
export function toTsv(items, comment) {
  const rows = items.map(({ left, answer, right }) => `${left}\t${answer}\t${right}`);
  return `# ${comment}\n${rows.join('\n')}\n`;
}

/** The minimum number of items from the held-out text, and from a --lines file (the 720 Harvard sentences give ~700). */
const MIN_HELD_OUT_ITEMS = 2000;
const MIN_LINES_ITEMS = 100;

function main() {
  const started = performance.now();
  const { values, positionals } = parseArgs({ options: { lines: { type: 'string' } }, allowPositionals: true });
  const corpusDir = path.resolve(REPO, positionals[0] ?? 'build/lm/corpus');
  const out = path.resolve(REPO, positionals[1] ?? 'build/lm/cloze.tsv');
  const source = values.lines ? path.resolve(REPO, values.lines) : path.join(corpusDir, 'held-out.raw.txt');
  const heldOut = fs.readFileSync(source, 'utf8').split('\n').filter(Boolean);
  const frequent = mostFrequentWords(fs.readFileSync(path.join(corpusDir, 'train.raw.txt'), 'utf8'));
  const { items, eligible } = clozeItems(heldOut, loadWordNet(), frequent);
  const minimum = values.lines ? MIN_LINES_ITEMS : MIN_HELD_OUT_ITEMS;
  if (items.length < minimum) throw new Error(`only ${items.length} cloze items (at least ${minimum} are needed)`);
  const summary = {
    rule: RULE,
    lines: path.relative(REPO, source),
    heldOutLines: heldOut.length,
    linesWithACandidate: eligible,
    items: items.length,
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, toTsv(items, `cloze items (left, answer, right): ${items.length} of ${eligible}; ${RULE}`));
  fs.writeFileSync(out.replace(/\.tsv$/, '') + '.items.json', `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `${heldOut.length} lines of ${path.relative(REPO, source)}, ${eligible} with a candidate; wrote ${items.length} items to ` +
      `${path.relative(REPO, out)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
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
