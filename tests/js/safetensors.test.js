// readSafetensors (web/src/core/safetensors.js): files from a tiny writer below and from hand-written
// headers, the half → float conversion against hand-worked values and an independent bit-level decode,
// a file written by the C++ writer (the fuzz seed tests/fuzz/corpus/safetensors/valid.bin), and every
// refusal: its error class, the file name at the start of the message, and the problem.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  decodeTensor,
  halfToFloat,
  MAX_HEADER_BYTES,
  parseSafetensors,
  readSafetensors,
} from '../../web/src/core/safetensors.js';

const NAME = 'bad.safetensors';

/** The bytes of a file: 8-byte little-endian length of `header`, `header` (UTF-8), `data`. */
function fileOf(header, data = []) {
  const json = new TextEncoder().encode(header);
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

/** A file whose length field says `length` (a BigInt) whatever follows: `rest` spaces. */
function withLength(length, rest) {
  const out = new Uint8Array(8 + rest).fill(0x20);
  new DataView(out.buffer).setBigUint64(0, length, true);
  return out;
}

/**
 * A minimal writer: tensors [[name, { dtype, shape, data }]] laid out in order, F32 data as numbers,
 * F16 and BF16 data as raw 16-bit patterns; the header padded with spaces to a multiple of 8.
 */
function write(tensors, metadata) {
  const header = metadata ? { __metadata__: metadata } : {};
  const chunks = [];
  let offset = 0;
  for (const [name, { dtype, shape, data }] of tensors) {
    const bytes =
      dtype !== 'F32' ? new Uint8Array(new Uint16Array(data).buffer) : new Uint8Array(new Float32Array(data).buffer);
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] };
    chunks.push(bytes);
    offset += bytes.length;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (new TextEncoder().encode(json).length % 8)) % 8);
  const data = new Uint8Array(offset);
  chunks.reduce((at, c) => (data.set(c, at), at + c.length), 0);
  return fileOf(json, data);
}

const entry = (name, dtype, shape, offsets) =>
  `"${name}":{"dtype":${dtype},"shape":${shape},"data_offsets":${offsets}}`;
const one = (e) => `{${e}}`;
const zeros = (n) => new Uint8Array(n);

/** Asserts that reading `bytes` throws `Kind` whose message starts with the file name and contains `problem`. */
function refuses(bytes, Kind, problem) {
  assert.throws(
    () => readSafetensors(bytes, NAME),
    (error) => {
      assert.ok(error instanceof Kind, `expected a ${Kind.name}, got ${error}`);
      assert.ok(error.message.startsWith(`${NAME}: `), `"${error.message}" starts with the file name`);
      assert.ok(error.message.includes(problem), `"${error.message}" says "${problem}"`);
      return true;
    },
  );
}

/** binary16 bits → float by building the float32 bit pattern (independent of halfToFloat's arithmetic). */
function halfByBits(h) {
  const sign = (h & 0x8000) << 16;
  let exponent = (h >> 10) & 0x1f;
  let fraction = h & 0x3ff;
  let bits;
  if (exponent === 31) bits = sign | 0x7f800000 | (fraction << 13);
  else if (exponent !== 0) bits = sign | ((exponent + 112) << 23) | (fraction << 13);
  else if (fraction === 0) bits = sign;
  else {
    // subnormal: normalize, shifting the leading 1 into the implicit bit
    exponent = 113;
    while (!(fraction & 0x400)) {
      fraction <<= 1;
      exponent--;
    }
    bits = sign | (exponent << 23) | ((fraction & 0x3ff) << 13);
  }
  return new Float32Array(new Uint32Array([bits >>> 0]).buffer)[0];
}

describe('halfToFloat', () => {
  test('hand-worked values', () => {
    assert.equal(halfToFloat(0x3c00), 1);
    assert.equal(halfToFloat(0xc000), -2);
    assert.equal(halfToFloat(0x0001), 2 ** -24); // the smallest subnormal
    assert.equal(halfToFloat(0x03ff), 1023 * 2 ** -24); // the largest subnormal
    assert.equal(halfToFloat(0x0400), 2 ** -14); // the smallest normal
    assert.equal(halfToFloat(0x7bff), 65504); // (2 − 2⁻¹⁰) · 2¹⁵
    assert.equal(halfToFloat(0x2e66), 0.0999755859375); // 0.1 rounded: (1 + 614/1024) · 2⁻⁴
    assert.equal(halfToFloat(0x7c00), Infinity);
    assert.equal(halfToFloat(0xfc00), -Infinity);
    assert.ok(Object.is(halfToFloat(0x8000), -0));
    assert.ok(Number.isNaN(halfToFloat(0x7e00)));
    assert.ok(Number.isNaN(halfToFloat(0xfc01)));
  });
  test('all 65,536 patterns equal a bit-level decode', () => {
    let mismatches = 0;
    for (let h = 0; h <= 0xffff; h++) {
      const a = halfToFloat(h),
        b = halfByBits(h);
      if (!(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)))) mismatches++;
    }
    assert.equal(mismatches, 0);
  });
});

describe('readSafetensors: files that are read', () => {
  test('F32 exactly, F16 decoded, metadata, in the order of the data', () => {
    const f32 = [0.5, -1.25, -0, 1e-40, Infinity, NaN];
    const bytes = write(
      [
        ['z.weight', { dtype: 'F32', shape: [2, 3], data: f32 }],
        ['a.half', { dtype: 'F16', shape: [4], data: [0x3c00, 0x0001, 0x7bff, 0xfc00] }],
        ['empty', { dtype: 'F32', shape: [0, 5], data: [] }],
        ['scalar', { dtype: 'F16', shape: [], data: [0xc000] }],
        ['10', { dtype: 'F32', shape: [1], data: [7] }], // an integer-like name: JSON.parse lists it first
      ],
      JSON.parse('{"task": "induction", "__proto__": "x", "ünï": "ταυ \\"quoted\\"\\n"}'),
    ); // an own "__proto__" key
    const { tensors, metadata } = readSafetensors(bytes, 'good.safetensors');
    assert.deepEqual([...tensors.keys()], ['z.weight', 'a.half', 'empty', 'scalar', '10']);
    const z = tensors.get('z.weight');
    assert.deepEqual(z.shape, [2, 3]);
    assert.equal(z.dtype, 'F32');
    assert.ok(z.data instanceof Float32Array);
    assert.deepEqual(new Uint32Array(z.data.buffer), new Uint32Array(new Float32Array(f32).buffer)); // bit for bit
    assert.deepEqual([...tensors.get('a.half').data], [1, 2 ** -24, 65504, -Infinity]);
    assert.equal(tensors.get('a.half').dtype, 'F16');
    assert.deepEqual(tensors.get('empty'), { shape: [0, 5], data: new Float32Array(0), dtype: 'F32' });
    assert.deepEqual(tensors.get('scalar'), { shape: [], data: new Float32Array([-2]), dtype: 'F16' });
    assert.deepEqual([...tensors.get('10').data], [7]);
    assert.deepEqual(Object.keys(metadata).sort(), ['__proto__', 'task', 'ünï']);
    assert.equal(metadata.task, 'induction');
    assert.equal(Object.getOwnPropertyDescriptor(metadata, '__proto__').value, 'x');
    assert.equal(metadata['ünï'], 'ταυ "quoted"\n');
  });
  test('BF16 decoded as the upper half of a float32, whole and a block of elements at a time', () => {
    // 0x3F80 = 1, 0xC000 = −2, 0x3F81 = 1 + 2⁻⁷, 0x7F80 = Infinity, 0x0001 = 2⁻¹³³ (subnormal), 0xFFC0 = NaN
    const bits = [0x3f80, 0xc000, 0x3f81, 0x7f80, 0x0001, 0xffc0];
    const bytes = write([
      ['pad', { dtype: 'F16', shape: [1], data: [0] }], // an odd offset of 2 bytes: no aligned view possible
      ['w', { dtype: 'BF16', shape: [2, 3], data: bits }],
    ]);
    const w = readSafetensors(bytes, 'bf16.safetensors').tensors.get('w');
    assert.equal(w.dtype, 'BF16');
    assert.deepEqual([...w.data], [1, -2, 1 + 2 ** -7, Infinity, 2 ** -133, NaN]);
    const { entries, data } = parseSafetensors(bytes, 'bf16.safetensors');
    const out = new Float32Array(2);
    decodeTensor(entries[1], data, out, 2, 2);
    assert.deepEqual([...out], [1 + 2 ** -7, Infinity]);
  });
  test('ArrayBuffer, Buffer, and a Uint8Array at an odd offset of a larger buffer', () => {
    const bytes = write([
      ['w', { dtype: 'F32', shape: [2], data: [1.5, -3] }],
      ['h', { dtype: 'F16', shape: [1], data: [0x3800] }],
    ]);
    const expect = (file) => {
      assert.deepEqual([...file.tensors.get('w').data], [1.5, -3]);
      assert.deepEqual([...file.tensors.get('h').data], [0.5]);
    };
    expect(readSafetensors(bytes.buffer, 'w.safetensors'));
    expect(readSafetensors(Buffer.from(bytes), 'w.safetensors'));
    const big = new Uint8Array(bytes.length + 8);
    big.set(bytes, 3);
    expect(readSafetensors(big.subarray(3, 3 + bytes.length), 'w.safetensors'));
  });
  test('hand-written headers: padding, extra keys, reverse order, no tensors', () => {
    const header = `{${entry('b', '"F16"', '[2]', '[4,8]')},${entry('a', '"F16"', '[2]', '[0,4]')},"__metadata__":{"format":"pt"}}      \n `;
    const file = readSafetensors(fileOf(header, [0x00, 0x3c, 0x01, 0x00, 0xff, 0x7b, 0x00, 0xfc]), 'hand.safetensors');
    assert.deepEqual([...file.tensors.keys()], ['a', 'b']);
    assert.deepEqual([...file.tensors.get('b').data], [65504, -Infinity]);
    assert.deepEqual(file.metadata, { format: 'pt' });
    const extra = readSafetensors(
      fileOf('{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"note":[1,2]}}', [0, 0, 0x80, 0x3f]),
      'x',
    );
    assert.deepEqual([...extra.tensors.get('x').data], [1]);
    const none = readSafetensors(fileOf('{}'), 'none');
    assert.equal(none.tensors.size, 0);
    assert.deepEqual(none.metadata, {});
  });
  test('a file written by the C++ writer (the fuzz seed valid.bin, after its mode byte)', () => {
    const seed = readFileSync(new URL('../fuzz/corpus/safetensors/valid.bin', import.meta.url));
    const { tensors, metadata } = readSafetensors(seed.subarray(1), 'valid.bin');
    assert.deepEqual(metadata, { steps: '700', task: 'induction' });
    assert.deepEqual([...tensors.keys()], ['embed.weight', 'head.0.q', 'scale', 'empty']);
    assert.deepEqual([...tensors.get('embed.weight').data], [...new Float32Array([0.5, -1.25, 3, 0.1, -0, 1e-30])]);
    assert.deepEqual([...tensors.get('head.0.q').data], [1, 65504, 2 ** -24]); // 6e-8 rounded to the smallest subnormal
    assert.equal(tensors.get('head.0.q').dtype, 'F16');
    assert.deepEqual(tensors.get('scale'), { shape: [], data: new Float32Array([0.125]), dtype: 'F32' });
    assert.deepEqual(tensors.get('empty').shape, [0, 4]);
  });
});

describe('readSafetensors: refusals name the file and the problem', () => {
  const four = [0, 0, 0x80, 0x3f];
  const eight = zeros(8);
  const twelve = zeros(12);

  test('wrong arguments', () => {
    assert.throws(
      () => readSafetensors(new Uint8Array(8), 42),
      /readSafetensors: fileName must be a string, got number/,
    );
    refuses([1, 2, 3, 4, 5, 6, 7, 8], TypeError, 'bytes must be an ArrayBuffer or a Uint8Array, got Array');
    refuses(new Float32Array(4), TypeError, 'got Float32Array');
    refuses(undefined, TypeError, 'got undefined');
    refuses(null, TypeError, 'got null');
  });
  test('too short or truncated', () => {
    refuses(zeros(0), RangeError, 'shorter than 8 bytes');
    refuses(zeros(7), RangeError, 'shorter than 8 bytes (7)');
    refuses(withLength(100n, 10), RangeError, 'truncated: header says 100 bytes, file has 10 after the 8-byte length');
    refuses(withLength(2n ** 64n - 1n, 10), RangeError, 'truncated: header says 18446744073709551615 bytes');
    refuses(withLength(2n ** 63n, 0), RangeError, 'truncated: header says 9223372036854775808 bytes, file has 0');
    const whole = write([['w', { dtype: 'F32', shape: [2], data: [1, 2] }]]);
    refuses(
      whole.subarray(0, whole.length - 1),
      RangeError,
      'data_offsets [0, 8] are out of range: the data section has 7 bytes',
    );
    refuses(whole.subarray(0, 20), RangeError, 'truncated: header says');
  });
  test('a header above the 100 MB limit', () => {
    refuses(
      withLength(BigInt(MAX_HEADER_BYTES + 1), MAX_HEADER_BYTES + 1),
      RangeError,
      'header of 100000001 bytes is above the limit',
    );
  });
  test('not JSON, or not an object', () => {
    refuses(fileOf(''), RangeError, 'header is not valid JSON');
    refuses(fileOf('{"w":'), RangeError, 'header is not valid JSON');
    const notUtf8 = fileOf('{"w?":{}}');
    notUtf8[8 + 3] = 0xff;
    refuses(notUtf8, RangeError, 'header is not valid JSON: not valid UTF-8');
    refuses(fileOf('{}\0\0', eight), RangeError, 'header is not valid JSON: a NUL byte at header offset 2');
    refuses(fileOf('[1,2]'), TypeError, 'header must be a JSON object, got array');
    refuses(fileOf('"F32"'), TypeError, 'header must be a JSON object, got string');
    refuses(fileOf('null'), TypeError, 'header must be a JSON object, got null');
  });
  test('tensor entries of the wrong shape or type', () => {
    refuses(fileOf('{"w":3}'), TypeError, "tensor 'w': entry must be an object");
    refuses(fileOf('{"w":{"shape":[1],"data_offsets":[0,4]}}', four), TypeError, `tensor 'w': missing "dtype"`);
    refuses(fileOf('{"w":{"dtype":"F32","data_offsets":[0,4]}}', four), TypeError, `tensor 'w': missing "shape"`);
    refuses(fileOf('{"w":{"dtype":"F32","shape":[1]}}', four), TypeError, `tensor 'w': missing "data_offsets"`);
    refuses(
      fileOf(one(entry('w', '32', '[1]', '[0,4]')), four),
      TypeError,
      "tensor 'w': dtype must be a string, got number",
    );
    refuses(fileOf(one(entry('w', '"F32"', '{}', '[0,4]')), four), TypeError, "tensor 'w': shape must be an array");
    refuses(
      fileOf(one(entry('w', '"F32"', '[-1]', '[0,4]')), four),
      RangeError,
      "tensor 'w': shape[0] must be an unsigned integer, got -1",
    );
    refuses(
      fileOf(one(entry('w', '"F32"', '[1.5]', '[0,4]')), four),
      RangeError,
      'shape[0] must be an unsigned integer, got 1.5',
    );
    refuses(
      fileOf(one(entry('w', '"F32"', '[1,"2"]', '[0,4]')), four),
      TypeError,
      'shape[1] must be an unsigned integer, got string',
    );
    refuses(
      fileOf(one(entry('w', '"F32"', '[9007199254740993]', '[0,4]')), four),
      RangeError,
      'shape[0] must be an unsigned integer',
    );
    for (const offsets of ['[0]', '[0,4,8]', '"0,4"', '{"begin":0}', '[0,null]']) {
      refuses(
        fileOf(one(entry('w', '"F32"', '[1]', offsets)), four),
        TypeError,
        "tensor 'w': data_offsets must be an array of two unsigned integers",
      );
    }
    for (const offsets of ['[0,-4]', '[0,4.5]']) {
      refuses(
        fileOf(one(entry('w', '"F32"', '[1]', offsets)), four),
        RangeError,
        "tensor 'w': data_offsets must be an array of two unsigned integers",
      );
    }
  });
  test('unsupported dtypes', () => {
    refuses(
      fileOf(one(entry('w', '"I16"', '[2]', '[0,4]')), four),
      RangeError,
      "tensor 'w': unsupported dtype 'I16' (only F32, F16 and BF16 are read)",
    );
    refuses(fileOf(one(entry('w', '"F64"', '[1]', '[0,8]')), eight), RangeError, "unsupported dtype 'F64'");
    refuses(fileOf(one(entry('w', '"f32"', '[1]', '[0,4]')), four), RangeError, "unsupported dtype 'f32'");
    refuses(fileOf(one(entry('w', '"toString"', '[1]', '[0,4]')), four), RangeError, "unsupported dtype 'toString'");
  });
  test('shapes that overflow or do not match the byte count', () => {
    refuses(
      fileOf(one(entry('w', '"F32"', '[4294967296,4294967296]', '[0,4]')), four),
      RangeError,
      "tensor 'w': shape [4294967296, 4294967296] overflows",
    );
    refuses(fileOf(one(entry('w', '"F16"', '[4503599627370496]', '[0,4]')), four), RangeError, 'overflows');
    refuses(
      fileOf(one(entry('w', '"F32"', '[3]', '[0,8]')), eight),
      RangeError,
      "tensor 'w': shape [3] of F32 needs 12 bytes, data_offsets [0, 8] hold 8",
    );
    refuses(fileOf(one(entry('w', '"F16"', '[2]', '[0,8]')), eight), RangeError, 'shape [2] of F16 needs 4 bytes');
    refuses(fileOf(one(entry('w', '"F32"', '[]', '[0,8]')), eight), RangeError, 'shape [] of F32 needs 4 bytes');
  });
  test('offsets out of range, overlapping, with gaps, or not covering the data', () => {
    refuses(
      fileOf(one(entry('w', '"F32"', '[1]', '[8,4]')), eight),
      RangeError,
      "tensor 'w': data_offsets [8, 4] are reversed",
    );
    refuses(
      fileOf(one(entry('w', '"F32"', '[2]', '[4,12]')), eight),
      RangeError,
      "tensor 'w': data_offsets [4, 12] are out of range: the data section has 8 bytes",
    );
    refuses(
      fileOf(`{${entry('a', '"F32"', '[2]', '[0,8]')},${entry('b', '"F32"', '[2]', '[4,12]')}}`, twelve),
      RangeError,
      "tensor 'b': data_offsets [4, 12] overlap tensor 'a'",
    );
    refuses(
      fileOf(`{${entry('a', '"F32"', '[1]', '[0,4]')},${entry('b', '"F32"', '[1]', '[0,4]')}}`, four),
      RangeError,
      'overlap',
    );
    refuses(
      fileOf(`{${entry('a', '"F32"', '[1]', '[0,4]')},${entry('b', '"F32"', '[1]', '[8,12]')}}`, twelve),
      RangeError,
      "gap in the data section: bytes [4, 8) belong to no tensor (before tensor 'b')",
    );
    refuses(
      fileOf(one(entry('b', '"F32"', '[1]', '[4,8]')), eight),
      RangeError,
      'gap in the data section: bytes [0, 4)',
    );
    refuses(
      fileOf(one(entry('w', '"F32"', '[1]', '[0,4]')), eight),
      RangeError,
      'the tensors do not cover the data section: they end at byte 4 of 8',
    );
    refuses(fileOf('{}', four), RangeError, 'do not cover the data section');
    // A repeated name: the last entry counts, so the first one's bytes are uncovered.
    refuses(
      fileOf(`{${entry('w', '"F32"', '[1]', '[0,4]')},${entry('w', '"F32"', '[1]', '[4,8]')}}`, eight),
      RangeError,
      'gap',
    );
  });
  test('metadata that is not an object of strings', () => {
    refuses(fileOf('{"__metadata__":["a"]}'), TypeError, '__metadata__ must be an object of strings, got array');
    refuses(
      fileOf('{"__metadata__":{"a":"b","steps":1000}}'),
      TypeError,
      "__metadata__ value of 'steps' must be a string, got number",
    );
    refuses(fileOf('{"__metadata__":{"a":null}}'), TypeError, "__metadata__ value of 'a' must be a string, got null");
  });
});
