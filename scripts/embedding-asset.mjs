// The embedding asset's binary format (read by cpp/src/text/embeddings.cpp), written and cut down here.
//   header  "AEMB" | u32 version = 1 | u32 vocab_size | u32 dim | u32 words_bytes | u32 checksum
//   words   vocab_size UTF-8 words, each followed by '\n' (words_bytes bytes), zero-padded to 4 bytes
//   scales  f32[vocab_size]          row r is scales[r] * int8 row r
//   vectors i8[vocab_size * dim]     row-major, symmetric quantization: round(v / scale), scale = max|v| / 127
//   checksum = FNV-1a 32 of every byte after the header; all numbers little-endian.

const HEADER_BYTES = 24;
const VERSION = 1;

export function fnv1a32(bytes) {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * The asset's bytes.
 * @param {{ words: string[], dim: number, scales: Float32Array, vectors: Int8Array }} table  vectors: [words, dim]
 * @returns {Buffer}
 */
export function packAsset({ words, dim, scales, vectors }) {
  const wordBytes = Buffer.from(words.map((w) => `${w}\n`).join(''), 'utf8');
  const padded = Math.ceil(wordBytes.length / 4) * 4;
  const payload = Buffer.alloc(padded + 4 * words.length + dim * words.length);
  wordBytes.copy(payload, 0);
  Buffer.from(scales.buffer, scales.byteOffset, 4 * words.length).copy(payload, padded);
  Buffer.from(vectors.buffer, vectors.byteOffset, dim * words.length).copy(payload, padded + 4 * words.length);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write('AEMB', 0, 'ascii');
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(words.length, 8);
  header.writeUInt32LE(dim, 12);
  header.writeUInt32LE(wordBytes.length, 16);
  header.writeUInt32LE(fnv1a32(payload), 20);
  return Buffer.concat([header, payload]);
}

/**
 * The asset cut to its first `count` words (the most frequent: the asset is in frequency order).
 * @param {Uint8Array} bytes  an asset @param {number} count @returns {Buffer}
 */
export function firstWords(bytes, count) {
  return keptRows(bytes, (row) => row < count);
}

/**
 * The asset cut to the rows `keep` accepts, in their order (so still by frequency).
 * @param {Uint8Array} bytes  an asset
 * @param {(row: number, word: string) => boolean} keep  row: the word's row in `bytes`
 * @returns {Buffer} @throws {Error} when `bytes` is not an AEMB version 1 asset
 */
export function keptRows(bytes, keep) {
  const asset = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (asset.toString('ascii', 0, 4) !== 'AEMB' || asset.readUInt32LE(4) !== VERSION)
    throw new Error('not an AEMB version 1 asset');
  const [vocab, dim, wordsBytes] = [asset.readUInt32LE(8), asset.readUInt32LE(12), asset.readUInt32LE(16)];
  const allWords = asset
    .toString('utf8', HEADER_BYTES, HEADER_BYTES + wordsBytes)
    .split('\n')
    .slice(0, vocab);
  const rows = allWords.flatMap((word, row) => (keep(row, word) ? [row] : []));
  const scalesAt = HEADER_BYTES + Math.ceil(wordsBytes / 4) * 4;
  const vectorsAt = scalesAt + 4 * vocab;
  const scales = new Float32Array(rows.length),
    vectors = new Int8Array(dim * rows.length);
  rows.forEach((row, i) => {
    scales[i] = asset.readFloatLE(scalesAt + 4 * row);
    vectors.set(new Int8Array(asset.buffer, asset.byteOffset + vectorsAt + dim * row, dim), dim * i);
  });
  return packAsset({ words: rows.map((row) => allWords[row]), dim, scales, vectors });
}
