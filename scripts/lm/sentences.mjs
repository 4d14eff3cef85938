// Sentence splitting shared by the corpus sources (corpus-text.mjs: the Bible; austen-text.mjs: the
// novels). Kept in its own file so that both readers use one splitter and neither imports the other.

/** Collapses every run of whitespace to one space and trims. */
export function squash(text) {
  return text.replace(/\s+/g, ' ').trim();
}

// A sentence ends at . ? or ! (then any closing quotes or brackets) followed by whitespace and an
// uppercase letter or an opening quote or bracket.
// (The source sometimes spaces nested closing quotes: `walk.’ ” Then`.)
// It knows no abbreviations: the Bible has none that matter, and a source that has them (Austen's
// "Mr." and "Mrs.") protects them itself, so that the Bible's lines stay as they were.
const SENTENCE_END = /([.?!](?:[’”"')\]]| ”)*)\s+(?=[\p{Lu}“‘"(])/gu;

/** Splits running text into sentences, keeping each sentence's final punctuation. */
export function splitSentences(text) {
  return text
    .replace(SENTENCE_END, '$1\n')
    .split('\n')
    .map(squash)
    .filter((line) => line !== '');
}
