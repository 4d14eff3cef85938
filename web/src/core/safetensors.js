// Reads the safetensors format (huggingface/safetensors, README "Format") in the browser and in Node,
// with the checks of the native reader (cpp/include/attn/train/safetensors.hpp documents the layout):
//   bytes [0, 8)        N, the header length (unsigned 64-bit, little-endian)
//   bytes [8, 8 + N)    UTF-8 JSON {"__metadata__": {str: str}, name: {dtype, shape, data_offsets}, …},
//                       possibly padded with trailing spaces
//   bytes [8 + N, end)  the data section: each tensor row-major, little-endian, at [begin, end) of it.
// The tensors' byte ranges must tile the data section exactly (no overlaps, gaps or trailing bytes).

/** The largest header read, in bytes: the reference implementation's limit (README "Benefits"). */
export const MAX_HEADER_BYTES = 100_000_000;

const ELEMENT_BYTES = { F32: 4, F16: 2, BF16: 2 };
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The IEEE 754 binary16 value with bits `h` (0 … 0xFFFF) as a number (exact; every half is a float):
 * 0x3C00 → 1, 0xC000 → −2, 0x0001 → 2⁻²⁴ (the smallest subnormal), 0x7BFF → 65504 (the largest),
 * 0x7C00 → Infinity, 0xFC00 → −Infinity, exponent 31 with a nonzero fraction → NaN.
 * @param {number} h
 * @returns {number}
 */
export function halfToFloat(h) {
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * fraction * 2 ** -24; // subnormal or ±0: fraction · 2⁻²⁴
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1024 + fraction) * 2 ** (exponent - 25); // (1 + fraction / 2¹⁰) · 2^(exponent − 15)
}

let halves = null; // every binary16 value as a float32, by its bits: decoding a file is then one lookup a value

/** halfToFloat of every bits pattern 0 … 0xFFFF, made once (65,536 values, ~1 ms). */
function halfTable() {
  if (!halves) halves = Float32Array.from({ length: 0x10000 }, (_, h) => halfToFloat(h));
  return halves;
}

/** The JSON type of a parsed value, in nlohmann-json's words (as the native reader's messages). */
function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

const isObject = (value) => jsonType(value) === 'object';
const isUnsigned = (value) => Number.isSafeInteger(value) && value >= 0;

/**
 * a − b in code point order, which is UTF-8 byte order (the native reader's order of names). UTF-16 code
 * units compare the same except surrogates (U+D800–DFFF, halves of code points above U+FFFF) against
 * U+E000–FFFF: moving the surrogates above those fixes it.
 */
function compareCodePoints(a, b) {
  const rank = (u) => (u < 0xd800 ? u : u < 0xe000 ? u + 0x2000 : u - 0x800);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a.charCodeAt(i),
      y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** The [key, value] pairs of a parsed JSON object, by key in code point order (the native reader's std::map order). */
const sortedEntries = (object) => Object.entries(object).sort(([a], [b]) => compareCodePoints(a, b));

/**
 * Parses a safetensors file's header and checks it against the data, decoding nothing.
 *
 * @param {ArrayBuffer | Uint8Array} bytes the whole file (a Node Buffer is a Uint8Array)
 * @param {string} fileName names the file in error messages only
 * @returns {{ entries: { name: string, dtype: 'F32' | 'F16' | 'BF16', shape: number[], begin: number, end: number }[],
 *   data: Uint8Array, metadata: Record<string, string> }} the tensors in the order of their data (by data_offsets;
 *   zero-size tensors at one offset by name), each with its byte range [begin, end) in `data`, the data section;
 *   `metadata` is the header's "__metadata__" ({} when absent).
 * @throws {TypeError} if `bytes` is not an ArrayBuffer or Uint8Array, `fileName` not a string, or a header
 *   value has the wrong JSON type: the header not an object, "__metadata__" not an object or a value of it
 *   not a string, a tensor entry not an object or missing "dtype", "shape" or "data_offsets", dtype not a
 *   string, shape not an array (or holding a non-number), data_offsets not an array of two numbers.
 * @throws {RangeError} for everything else: shorter than 8 bytes; truncated (`${fileName}: truncated:
 *   header says N bytes, file has M after the 8-byte length`); a header above MAX_HEADER_BYTES; a header
 *   not valid UTF-8 JSON (or holding a NUL byte); a shape entry or offset that is not an unsigned integer;
 *   a dtype other than F32, F16 and BF16 (named); a shape whose element or byte count passes 2⁵³ − 1 or differs
 *   from end − begin; data_offsets reversed or past the data section; tensors that overlap, leave gaps or
 *   do not cover the data section up to its end.
 * Every message starts with `${fileName}: `. Differences from the native reader, due to JSON.parse: numbers
 * are doubles, so integers written 1.0 or 1e2 pass as integers (the native reader wants digits), sizes
 * above 2⁵³ − 1 are refused, and 1e999 elsewhere in the header is not an error; a repeated key counts
 * once, the last, in both (the other entry's bytes are then refused as a gap).
 */
export function parseSafetensors(bytes, fileName) {
  if (typeof fileName !== 'string')
    throw new TypeError(`readSafetensors: fileName must be a string, got ${typeof fileName}`);
  let u8;
  if (bytes instanceof ArrayBuffer) u8 = new Uint8Array(bytes);
  else if (bytes instanceof Uint8Array) u8 = bytes;
  else {
    const got = bytes === null ? 'null' : (/** @type {any} */ (bytes)?.constructor?.name ?? typeof bytes);
    throw new TypeError(`${fileName}: bytes must be an ArrayBuffer or a Uint8Array, got ${got}`);
  }
  const fail = (problem) => new RangeError(`${fileName}: ${problem}`);
  const wrongType = (problem) => new TypeError(`${fileName}: ${problem}`);

  if (u8.length < 8) {
    throw fail(
      `shorter than 8 bytes (${u8.length}): not a safetensors file, which starts with an 8-byte header length`,
    );
  }
  const headerLength = new DataView(u8.buffer, u8.byteOffset, 8).getBigUint64(0, true);
  const afterLength = u8.length - 8;
  if (headerLength > BigInt(afterLength)) {
    throw fail(`truncated: header says ${headerLength} bytes, file has ${afterLength} after the 8-byte length`);
  }
  const headerSize = Number(headerLength);
  if (headerSize > MAX_HEADER_BYTES)
    throw fail(`header of ${headerSize} bytes is above the limit of ${MAX_HEADER_BYTES}`);
  const headerBytes = u8.subarray(8, 8 + headerSize);
  const data = u8.subarray(8 + headerSize);
  const dataSize = data.length;

  const nul = headerBytes.indexOf(0);
  if (nul >= 0) throw fail(`header is not valid JSON: a NUL byte at header offset ${nul}`);
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes));
  } catch (error) {
    throw fail(`header is not valid JSON: ${error instanceof SyntaxError ? error.message : 'not valid UTF-8'}`);
  }
  if (!isObject(header)) throw wrongType(`header must be a JSON object, got ${jsonType(header)}`);

  /** @type {Record<string, string>} */
  const metadata = {};
  const entries = [];
  for (const [name, value] of sortedEntries(header)) {
    // checked in the native reader's order: the same first error
    if (name === '__metadata__') {
      if (!isObject(value)) throw wrongType(`__metadata__ must be an object of strings, got ${jsonType(value)}`);
      for (const [key, text] of sortedEntries(value)) {
        if (typeof text !== 'string')
          throw wrongType(`__metadata__ value of '${key}' must be a string, got ${jsonType(text)}`);
        Object.defineProperty(metadata, key, { value: text, enumerable: true, writable: true, configurable: true }); // "__proto__" too
      }
    } else {
      entries.push(parseEntry(name, value, dataSize, fail, wrongType));
    }
  }

  // The ranges must tile [0, dataSize): in order of begin, each starts where the previous ended.
  entries.sort((a, b) => a.begin - b.begin || a.end - b.end || compareCodePoints(a.name, b.name));
  let covered = 0;
  entries.forEach((e, i) => {
    if (e.begin < covered) {
      throw fail(
        `tensor '${e.name}': data_offsets [${e.begin}, ${e.end}] overlap tensor '${entries[i - 1].name}' (which ends at ${covered})`,
      );
    }
    if (e.begin > covered) {
      throw fail(
        `gap in the data section: bytes [${covered}, ${e.begin}) belong to no tensor (before tensor '${e.name}')`,
      );
    }
    covered = e.end;
  });
  if (covered !== dataSize) {
    throw fail(
      `the tensors do not cover the data section: they end at byte ${covered} of ${dataSize} (trailing bytes)`,
    );
  }

  return { entries, data, metadata };
}

/**
 * Parses a safetensors file.
 *
 * @param {ArrayBuffer | Uint8Array} bytes the whole file (a Node Buffer is a Uint8Array)
 * @param {string} fileName names the file in error messages only
 * @returns {{ tensors: Map<string, { shape: number[], data: Float32Array, dtype: 'F32' | 'F16' | 'BF16' }>,
 *   metadata: Record<string, string> }} the tensors in the order of their data (by data_offsets; zero-size
 *   tensors at one offset by name), each `data` of length shape[0] · … · shape[r − 1] (1 for shape [],
 *   a scalar), row-major: data[i * shape[1] + j] for rank 2; F16 and BF16 values widened exactly (NaN, ±Infinity
 *   kept). `metadata` is the header's "__metadata__" ({} when absent).
 * @throws as parseSafetensors
 */
export function readSafetensors(bytes, fileName) {
  const { entries, data, metadata } = parseSafetensors(bytes, fileName);
  const tensors = new Map();
  for (const e of entries) {
    const values = new Float32Array((e.end - e.begin) / ELEMENT_BYTES[e.dtype]);
    decodeTensor(e, data, values, 0, values.length);
    tensors.set(e.name, { shape: e.shape, data: values, dtype: e.dtype });
  }
  return { tensors, metadata };
}

/**
 * Elements [first, first + count) of the tensor `entry` (one of parseSafetensors' entries), widened exactly to float32
 * into out[0 … count): F32 copied bit for bit, F16 (IEEE 754 binary16) through a table of every half value, BF16
 * (bfloat16: a float32's upper 16 bits) shifted into place. A file too large to decode whole (a GPT-2 checkpoint) is
 * decoded a block of rows at a time.
 * @param {{ dtype: string, begin: number }} entry
 * @param {Uint8Array} data the data section
 * @param {Float32Array} out at least count elements
 * @param {number} first
 * @param {number} count
 */
export function decodeTensor(entry, data, out, first, count) {
  const size = ELEMENT_BYTES[entry.dtype];
  const at = entry.begin + first * size;
  if (entry.dtype === 'F32' && LITTLE_ENDIAN) {
    new Uint8Array(out.buffer, out.byteOffset, 4 * count).set(data.subarray(at, at + 4 * count)); // any alignment
  } else if (entry.dtype === 'F32') {
    const view = new DataView(data.buffer, data.byteOffset + at, 4 * count);
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i, true);
  } else if (entry.dtype === 'F16') {
    const table = halfTable();
    for (let i = 0, b = at; i < count; i++, b += 2) out[i] = table[data[b] | (data[b + 1] << 8)];
  } else {
    const bits = new Uint32Array(out.buffer, out.byteOffset, count); // BF16: the float32's high half, low half 0
    for (let i = 0, b = at; i < count; i++, b += 2) bits[i] = ((data[b] | (data[b + 1] << 8)) << 16) >>> 0;
  }
}

/** One header entry "name": {dtype, shape, data_offsets}, checked; its byte range inside the data section. */
function parseEntry(name, value, dataSize, fail, wrongType) {
  const where = `tensor '${name}': `;
  if (!isObject(value))
    throw wrongType(`${where}entry must be an object {dtype, shape, data_offsets}, got ${jsonType(value)}`);
  for (const key of ['dtype', 'shape', 'data_offsets']) {
    if (!Object.hasOwn(value, key)) throw wrongType(`${where}missing "${key}"`);
  }
  const { dtype, shape, data_offsets: offsets } = value;
  if (typeof dtype !== 'string') throw wrongType(`${where}dtype must be a string, got ${jsonType(dtype)}`);
  if (!Object.hasOwn(ELEMENT_BYTES, dtype))
    throw fail(`${where}unsupported dtype '${dtype}' (only F32, F16 and BF16 are read)`);
  if (!Array.isArray(shape))
    throw wrongType(`${where}shape must be an array of unsigned integers, got ${jsonType(shape)}`);
  shape.forEach((d, i) => {
    if (typeof d !== 'number') throw wrongType(`${where}shape[${i}] must be an unsigned integer, got ${jsonType(d)}`);
    if (!isUnsigned(d)) throw fail(`${where}shape[${i}] must be an unsigned integer, got ${d}`);
  });
  const offsetsProblem = `${where}data_offsets must be an array of two unsigned integers [begin, end]`;
  if (!Array.isArray(offsets) || offsets.length !== 2 || offsets.some((o) => typeof o !== 'number'))
    throw wrongType(offsetsProblem);
  if (!offsets.every(isUnsigned)) throw fail(offsetsProblem);
  const [begin, end] = offsets;
  if (begin > end) throw fail(`${where}data_offsets [${begin}, ${end}] are reversed (begin after end)`);
  if (end > dataSize)
    throw fail(`${where}data_offsets [${begin}, ${end}] are out of range: the data section has ${dataSize} bytes`);
  let bytes = ELEMENT_BYTES[dtype];
  for (const d of shape) {
    bytes *= d;
    if (bytes > Number.MAX_SAFE_INTEGER) throw fail(`${where}shape [${shape.join(', ')}] overflows: too many elements`);
  }
  if (bytes !== end - begin) {
    throw fail(
      `${where}shape [${shape.join(', ')}] of ${dtype} needs ${bytes} bytes, data_offsets [${begin}, ${end}] hold ${end - begin}`,
    );
  }
  return { name, dtype, shape: [...shape], begin, end };
}
