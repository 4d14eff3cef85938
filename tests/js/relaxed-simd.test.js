// The relaxed-SIMD build (attn_core.relaxed.wasm): the opcode renumbering its build needs with clang
// 14–15, its JS glue, and the layer tests run again on it under Node with relaxed SIMD switched on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renumberRelaxedSimd } from '../../scripts/renumber-relaxed-simd.mjs';

const FLAG = '--experimental-wasm-relaxed-simd';
// NODE_TEST_CONTEXT would make a child `node --test` report to this runner instead of printing TAP
const { NODE_TEST_CONTEXT: _, ...env } = process.env;
const node = (args) => spawnSync(process.execPath, args, { env, encoding: 'utf8' });

/** Node's arguments that switch relaxed SIMD on: none where it is on by default (Node ≥ 22), FLAG in Node 20. */
function relaxedArgs() {
  const probe = 'import { relaxedSimd } from "wasm-feature-detect"; process.exit(await relaxedSimd() ? 0 : 1);';
  for (const args of [[], [FLAG]]) {
    if (node([...args, '--input-type=module', '-e', probe]).status === 0) return args;
  }
  throw new Error(`this Node (${process.version}) runs no relaxed SIMD, even with ${FLAG}`);
}

const f32 = (...xs) => [...new Uint8Array(Float32Array.from(xs).buffer)];
const v128Const = (bytes) => [0xfd, 0x0c, ...bytes];
/**
 * A module exporting f() = lane 0 of madd(a, b, c) for a = [2, 3.5e-38-ish, 0, 0], b = 3, c = 1, using the
 * early opcode 0xfd 0xaf 0x01. Lane 1 of a holds the bytes 0xfd 0xaf 0x01 too: an immediate, not an opcode.
 */
function earlyMaddModule() {
  const a = [...f32(2), 0xfd, 0xaf, 0x01, 0x00, ...f32(0, 0)];
  const body = [
    0x00,
    ...v128Const(a),
    ...v128Const(f32(3, 3, 3, 3)),
    ...v128Const(f32(1, 1, 1, 1)),
    0xfd,
    0xaf,
    0x01,
    0xfd,
    0x1f,
    0x00,
    0x0b,
  ]; // madd (early), f32x4.extract_lane 0, end
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    0x01,
    0x05,
    0x01,
    0x60,
    0x00,
    0x01,
    0x7d, // type () → f32
    0x03,
    0x02,
    0x01,
    0x00, // one function of that type
    0x07,
    0x05,
    0x01,
    0x01,
    0x66,
    0x00,
    0x00, // exported as "f"
    0x0a,
    body.length + 2,
    0x01,
    body.length,
    ...body,
  ]);
}

const countEarly = (bytes) =>
  bytes.filter((b, i) => b === 0xfd && bytes[i + 1] === 0xaf && bytes[i + 2] === 0x01).length;

test('renumbering rewrites the early madd opcode, not the same bytes inside an immediate', () => {
  const bytes = earlyMaddModule();
  assert.equal(countEarly(bytes), 2, 'a byte search would find two');
  assert.equal(renumberRelaxedSimd(bytes), 1);
  assert.equal(countEarly(bytes), 1, 'the immediate is untouched');
  assert.deepEqual([...bytes.slice(-7, -4)], [0xfd, 0x85, 0x02]);
  // the renumbered module validates and computes relaxed_madd: a·b + c = 2·3 + 1 (not a + b·c = 5)
  const script = `const m = new WebAssembly.Module(Uint8Array.from(${JSON.stringify([...bytes])}));
    console.log(new WebAssembly.Instance(m).exports.f());`;
  const run = node([...relaxedArgs(), '-e', script]);
  assert.equal(run.stderr, '');
  assert.equal(run.stdout.trim(), '7');
});

test('renumbering refuses what it cannot read, rather than patching blindly', () => {
  assert.throws(() => renumberRelaxedSimd(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8])), /not a WebAssembly binary/);
  const unknown = earlyMaddModule();
  unknown[unknown.length - 4] = 0x06; // extract_lane's prefix → an opcode (try) this reader does not know
  assert.throws(() => renumberRelaxedSimd(unknown), /unknown opcode 0x6/);
  const short = earlyMaddModule();
  short[short.length - 1] = 0x01; // the final end → nop: the body's size ends it mid-block
  assert.throws(() => renumberRelaxedSimd(short), /misread|unexpected end/);
});

test('the relaxed build is loaded by the same JS glue: its attn_core.relaxed.mjs differs only in the .wasm name', () => {
  const glue = readFileSync('build/wasm/attn_core.mjs', 'utf8');
  const relaxed = readFileSync('build/wasm/attn_core.relaxed.mjs', 'utf8');
  assert.ok(relaxed.includes('attn_core.relaxed.wasm'));
  assert.equal(relaxed.replaceAll('attn_core.relaxed.wasm', 'attn_core.wasm'), glue);
  assert.equal(countEarly(readFileSync('build/wasm/attn_core.relaxed.wasm')), 0, 'no early opcode left');
});

test('the multiHeadLayer tests pass on the relaxed build (Node with relaxed SIMD switched on)', () => {
  const run = node([...relaxedArgs(), '--test', '--test-reporter=tap', 'tests/js/layer.test.js']);
  assert.equal(run.status, 0, run.stdout.slice(-3000) + run.stderr);
  assert.match(run.stdout, /# fail 0/);
  assert.match(run.stdout, /ok \d+ - runs the relaxed-SIMD build/);
});
