// The texts a reader of the single file meets before typing anything: the page's own sentences
// (web/src/settings/sentences.js), the sentences the guided tour's steps set, and the sentences in the
// code of the documentation (README.md and docs/*.md). The single-file build keeps every word of them in
// its cut-down vocabulary (build-web.mjs), and tests/e2e/single-file.test.js checks that none is out of
// vocabulary there.
import { readdirSync, readFileSync } from 'node:fs';
import * as sentences from '../web/src/settings/sentences.js';
import { tour as attentionTour } from '../web/src/lessons/attention/tour.js';
import { tour as insideHeadTour } from '../web/src/lessons/inside-head/tour.js';
import { tour as learnTour } from '../web/src/lessons/learn/tour.js';
import { tour as lensesTour } from '../web/src/lessons/lenses/tour.js';
import { tour as positionsTour } from '../web/src/lessons/positions/tour.js';

const TOURS = [attentionTour, insideHeadTour, learnTour, lensesTour, positionsTour];

/** The state fields of a tour step that hold text the explorer tokenizes. */
const TEXT_FIELDS = ['sentence', 'compareSentence', 'crossTarget'];

/**
 * A string literal ('…' or "…") of two words or more made of letters, apostrophes (in "…" only), spaces,
 * [MASK] and sentence punctuation: a sentence, not a path, a URL, a list of option names or two quoted names.
 */
const SENTENCE_LITERAL =
  /'([A-Za-z][A-Za-z ’[\].,?!-]* [A-Za-z ’[\].,?!-]*)'|"([A-Za-z][A-Za-z '’[\].,?!-]* [A-Za-z '’[\].,?!-]*)"/g;

/** The documentation read for examples (paths from the repository root): README.md, then docs/*.md in name order. */
export function documentation() {
  return [
    'README.md',
    ...readdirSync('docs')
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** A Markdown document's code: its fenced blocks and its `inline code`. */
function markdownCode(markdown) {
  const blocks = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return [...blocks, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1])];
}

/**
 * @param {string[]} [documents]  the Markdown files' paths
 * @returns {string[]} the texts, each once, in the order found: sentences.js's strings, the tour's, the documents'
 *   (a [MASK] in them removed)
 */
export function exampleTexts(documents = documentation()) {
  const own = Object.values(sentences).flatMap((value) =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value : [],
  );
  const tour = TOURS.flat().flatMap((step) =>
    TEXT_FIELDS.map((field) => step.state?.[field]).filter((text) => typeof text === 'string'),
  );
  const code = documents
    .flatMap((path) => markdownCode(readFileSync(path, 'utf8')))
    .flatMap((text) => [...text.matchAll(SENTENCE_LITERAL)].map((m) => m[1] ?? m[2]));
  // [MASK] is the masked model's blank (the core's token for a hidden word), not a word of the vocabulary.
  return [...new Set([...own, ...tour, ...code].map((text) => text.replaceAll('[MASK]', ' ').trim()))];
}
