// The recipes of docs/embedding.md, read as the tests run them: a section's fenced code blocks, and the files
// it names (a line "`folder/file`:" then the file's block), so that what the docs show is what was tested.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** The text of the section of docs/embedding.md whose "## " heading starts with `title`. */
export function recipeSection(title, markdown = readFileSync('docs/embedding.md', 'utf8')) {
  const start = markdown.indexOf(`\n## ${title}`);
  assert.ok(start >= 0, `docs/embedding.md has a section "${title}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** A section's fenced blocks, language → text (the last block of each language). */
export function fencedBlocks(section) {
  return Object.fromEntries(
    [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, language, text]) => [language, text]),
  );
}

/** A section's fenced blocks of `language`, in order. */
export function blocksOf(section, language) {
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)]
    .filter(([, lang]) => lang === language)
    .map(([, , text]) => text);
}

/** The files a section names: path → the text of the block that follows "`path`:". */
export function namedFiles(section) {
  return Object.fromEntries(
    [...section.matchAll(/^`([\w./-]+)`:\n\n```\w*\n([\s\S]*?)```/gm)].map(([, path, text]) => [path, text]),
  );
}
