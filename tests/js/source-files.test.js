// A file past 400 lines holds two concepts: every source file of ours stays within that, split by concept
// (never by squeezing lines: Prettier at print width 120 formats the JS, so lines cannot be stacked).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const FOLDERS = ['web/src', 'scripts', 'tests', 'cpp'];
const SOURCE = /\.(js|mjs|cjs|ts|css|html|cpp|hpp|h|sh)$/;
const MAX_LINES = 400;

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** @returns {[string, number][]} the files of `files` ([path, text]) over MAX_LINES lines, with their line counts */
export function overLong(files) {
  return files
    .map(([path, text]) => [path, text.split('\n').length - (text.endsWith('\n') ? 1 : 0)])
    .filter(([, lines]) => lines > MAX_LINES);
}

test(`no source file in ${FOLDERS.join(', ')} is over ${MAX_LINES} lines`, () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
  assert.ok(files.length > 200, `read ${files.length} files`);
  const long = overLong(files.map((path) => [relative(ROOT, path), readFileSync(path, 'utf8')]));
  assert.deepEqual(long, [], 'files over the limit: split each by concept');
});

test('the check counts lines, with or without a last newline', () => {
  const lines = (n) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');
  assert.deepEqual(
    overLong([
      ['a.js', `${lines(400)}\n`],
      ['b.js', lines(400)],
      ['c.js', `${lines(401)}\n`],
    ]),
    [['c.js', 401]],
  );
});
