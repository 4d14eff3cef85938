// The Jane Austen source of the language-model corpus (corpus-text.mjs): the six novels of the R
// package janeaustenr (Debian r-cran-janeaustenr, read with Rscript from r-base-core).
//
// The package holds each book as printed lines: wrapped at ~70 characters, a blank line between
// paragraphs, chapter headings ("CHAPTER 1", "Chapter 1", "CHAPTER I") and, in Emma, "VOLUME I"
// headings after which the chapter numbers start again. A document is one chapter, numbered
// 1, 2, 3, … through the whole book whatever its printed number (id austen:<book slug>:<n>, e.g.
// austen:emma:19 for Volume II, Chapter I), so that Emma's repeated numbers give distinct ids.
//
// What is dropped: everything before a book's first chapter (title, author, date, Northanger
// Abbey's "Advertisement"), the chapter and volume headings, everything from "THE END" / "FINIS" /
// "A NOTE ON THE TEXT" on (an editor's note follows Northanger Abbey), the editors' bracketed notes
// on where a volume ended in some edition, lines of asterisks (section breaks) and the one
// footnote with its marker. Austen's _italics_ lose their underscores. A paragraph's lines are
// joined and split into sentences, one a line; "Mr.", "Mrs.", initials and the like do not end one.

import { execFileSync } from 'node:child_process';
import { splitSentences, squash } from './sentences.mjs';

// Prints "<book title>\t<line>" for every line: writeLines adds no quoting or escapes, and the
// books hold no tabs. useBytes and a UTF-8 locale keep "£" as UTF-8 whatever the caller's locale.
const R_PROGRAM =
  'suppressMessages(library(janeaustenr)); b <- austen_books(); ' +
  'writeLines(paste(as.character(b$book), b$text, sep = "\\t"), useBytes = TRUE)';

const CHAPTER = /^\s*chapter\s+(?:\d+|[ivxlc]+)\.?\s*$/i;
const VOLUME = /^\s*volume\s+(?:\d+|[ivxlc]+)\.?\s*$/i;
const END = /^\s*(?:the end|finis|a note on the text)\s*$/i;

// Abbreviations whose full stop does not end a sentence: titles, and single capital initials
// ("Colonel F.", "Mr. E."), except "I", which ends many sentences. "No." is an abbreviation only
// before a number ("No. 97"); elsewhere it is the answer "No.".
const ABBREVIATION = /\b(Mr|Mrs|Messrs|Dr|St|Hon|Rev|Esq|Wm|Col|Capt|[A-HJ-Z])\.(?=\s)|\b(No)\.(?=\s+(?:\d|--))/g;
const KEPT_DOT = '\u0002'; // stands for a protected full stop while the text is split

/** "Sense & Sensibility" → "sense-and-sensibility". */
export function bookSlug(title) {
  return title
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The sentences of one paragraph (its printed lines joined), one a line; [] for a dropped one. */
export function paragraphSentences(paragraph) {
  let text = squash(paragraph.replace(/_/g, ''));
  if (text === '' || /^[*\s]+$/.test(text)) return []; // section break
  if (/^\[.*\]$/.test(text) && /\bedition/i.test(text)) return []; // an editor's note
  if (text.startsWith('*')) return []; // the footnote itself
  text = text.replace(/(\S)\*/g, '$1'); // its marker ("declared,*")
  // Austen often runs sentences together with a dash ("no more!--And you"): a dash after a
  // sentence's final punctuation, before a capital, is a sentence break.
  text = text.replace(/([.?!]["']?)--(?=["']?\p{Lu})/gu, '$1 ');
  const protectedText = text.replace(ABBREVIATION, (m, title, no) => `${title ?? no}${KEPT_DOT}`);
  return splitSentences(protectedText).map((line) => line.replaceAll(KEPT_DOT, '.'));
}

/**
 * The chapters of the books in "<book title>\t<line>" lines, in book order, as corpus documents
 * { source: 'austen', id, lines }.
 */
export function austenDocuments(tsv) {
  const documents = [];
  const chapters = new Map(); // book title → { ended, count, current }
  for (const row of tsv.split('\n')) {
    if (row === '') continue;
    const tab = row.indexOf('\t');
    if (tab < 0) throw new Error(`austen-text: a line without a book title: ${row.slice(0, 80)}`);
    const title = row.slice(0, tab);
    const line = row.slice(tab + 1);
    let book = chapters.get(title);
    if (!book) {
      book = { ended: false, count: 0, current: null };
      chapters.set(title, book);
    }
    if (book.ended) continue;
    if (END.test(line)) {
      book.ended = true;
    } else if (CHAPTER.test(line)) {
      book.count++;
      book.current = { id: `austen:${bookSlug(title)}:${book.count}`, text: [] };
      documents.push(book.current);
    } else if (VOLUME.test(line)) {
      // A volume heading only separates chapters.
    } else if (book.current) {
      book.current.text.push(line);
    } // else: front matter before the first chapter
  }
  return documents.map(({ id, text }) => ({
    source: 'austen',
    id,
    lines: text
      .join('\n')
      .split(/\n\s*\n/)
      .flatMap(paragraphSentences),
  }));
}

/** The novels' text from R, as "<book title>\t<line>" lines. */
export function readAustenText() {
  const hint =
    'install the Debian packages r-base-core and r-cran-janeaustenr (apt-get install -y r-base-core r-cran-janeaustenr)';
  try {
    return execFileSync('Rscript', ['--vanilla', '-e', R_PROGRAM], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error(`corpus-text: Rscript not found; ${hint}`, { cause: error });
    const detail = `${error.stderr ?? ''}`.trim().split('\n')[0];
    throw new Error(`corpus-text: Rscript could not read janeaustenr (${detail}); ${hint}`, { cause: error });
  }
}
