#!/usr/bin/env node
// Renumbers f32x4.relaxed_madd from the relaxed-SIMD proposal's early opcode to the standard one, in
// place, in a linked .wasm: node scripts/renumber-relaxed-simd.mjs FILE.wasm
//
// Why: clang 14 and 15 (Emscripten before ~3.1.25, e.g. Debian's 3.1.6) emit relaxed multiply-add as
// 0xfd 0xaf 0x01, its number before the proposal was finalized; engines accept only the standard
// 0xfd 0x85 0x02 (relaxed_madd, a·b + c). Both are two bytes, so no size changes. A byte search could
// hit the same bytes inside an immediate (a v128.const, an offset), so this walks every instruction of
// every function body and renumbers only opcodes; a body that does not end exactly where its size says
// means an instruction was misread, and is an error. Newer clang emits the standard opcode already and
// the build skips this step (CMakeLists.txt).
//
// Source: WebAssembly binary format (core spec §5), SIMD opcodes (core spec 2.0 §5.4.8), relaxed SIMD
// proposal (Overview.md, binary format).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const EARLY_MADD = 0xaf;
const STANDARD_MADD = [0x85, 0x02]; // 0x105 as unsigned LEB128

// SIMD opcodes left unassigned by the final SIMD spec (early proposals' numbers); EARLY_MADD is handled
const SIMD_HOLES = new Set([
  0x9a, 0xa2, 0xa5, 0xa6, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee,
]);
const VALUE_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]); // i32 i64 f32 f64 v128 funcref externref

class Reader {
  constructor(bytes, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Error('unexpected end of the module');
    return this.bytes[this.at++];
  }

  /** An unsigned or signed LEB128 number; only unsigned values (≤ 2^32) are returned exactly. */
  leb() {
    let value = 0,
      scale = 1,
      b;
    do {
      b = this.byte();
      value += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80);
    return value;
  }

  skip(n) {
    this.at += n;
  }

  memarg() {
    this.leb(); // alignment
    this.leb(); // offset
  }
}

/** Reads one SIMD instruction's opcode and immediates; returns 1 if it renumbered it. */
function simdInstruction(r) {
  const start = r.at;
  const op = r.leb();
  if (op === EARLY_MADD) {
    if (r.at - start !== 2)
      throw new Error(`relaxed madd at byte ${start} has a ${r.at - start}-byte opcode, expected 2`);
    r.bytes.set(STANDARD_MADD, start);
    return 1;
  }
  if (SIMD_HOLES.has(op) || op > 0x113) throw new Error(`unknown SIMD opcode 0x${op.toString(16)} at byte ${start}`);
  if (op <= 0x0b || op === 0x5c || op === 0x5d)
    r.memarg(); // loads and stores
  else if (op === 0x0c || op === 0x0d)
    r.skip(16); // v128.const, i8x16.shuffle
  else if (op >= 0x15 && op <= 0x22)
    r.skip(1); // extract_lane, replace_lane
  else if (op >= 0x54 && op <= 0x5b) {
    // load_lane, store_lane
    r.memarg();
    r.skip(1);
  }
  return 0;
}

/** Reads a 0xfc-prefixed instruction (saturating truncation, bulk memory, tables). */
function miscInstruction(r) {
  const op = r.leb();
  if (op <= 7) return; // trunc_sat
  if (op === 8) {
    r.leb();
    r.skip(1);
  } // memory.init
  else if (op === 9 || op === 13 || (op >= 15 && op <= 17))
    r.leb(); // data.drop, elem.drop, table.grow/size/fill
  else if (op === 10)
    r.skip(2); // memory.copy
  else if (op === 11)
    r.skip(1); // memory.fill
  else if (op === 12 || op === 14) {
    r.leb();
    r.leb();
  } // table.init, table.copy
  else throw new Error(`unknown 0xfc opcode ${op} at byte ${r.at}`);
}

/** Reads one instruction; returns how many opcodes it renumbered (0 or 1). */
function instruction(r) {
  const at = r.at;
  const op = r.byte();
  if (op === 0xfd) return simdInstruction(r);
  if (op === 0xfc) miscInstruction(r);
  else if (op === 0x02 || op === 0x03 || op === 0x04) {
    // block, loop, if: empty, a value type, or a type index
    const next = r.bytes[r.at];
    if (next === 0x40 || VALUE_TYPES.has(next)) r.skip(1);
    else r.leb();
  } else if (op === 0x0e) {
    // br_table: labels, then the default
    for (let n = r.leb(); n > 0; --n) r.leb();
    r.leb();
  } else if (op === 0x11) {
    r.leb();
    r.leb();
  } // call_indirect: type, table
  else if (op === 0x1c)
    r.skip(r.leb()); // select with value types
  else if (
    op === 0x0c ||
    op === 0x0d ||
    op === 0x10 ||
    (op >= 0x20 && op <= 0x26) ||
    op === 0x41 ||
    op === 0x42 ||
    op === 0xd2
  ) {
    r.leb(); // br, br_if, call, local/global/table get/set/tee, i32/i64.const, ref.func
  } else if (op >= 0x28 && op <= 0x3e)
    r.memarg(); // loads and stores
  else if (op === 0x3f || op === 0x40 || op === 0xd0)
    r.skip(1); // memory.size/grow, ref.null
  else if (op === 0x43)
    r.skip(4); // f32.const
  else if (op === 0x44)
    r.skip(8); // f64.const
  else if (!(
    op <= 0x01 ||
    op === 0x05 ||
    op === 0x0b ||
    op === 0x0f ||
    op === 0x1a ||
    op === 0x1b ||
    (op >= 0x45 && op <= 0xc4) ||
    op === 0xd1
  )) {
    throw new Error(`unknown opcode 0x${op.toString(16)} at byte ${at}`);
  }
  return 0;
}

/** Renumbers the function bodies of the code section that starts at r.at. */
function codeSection(r) {
  let renumbered = 0;
  for (let bodies = r.leb(); bodies > 0; --bodies) {
    const size = r.leb();
    const end = r.at + size;
    for (let groups = r.leb(); groups > 0; --groups) {
      r.leb(); // how many locals
      if (!VALUE_TYPES.has(r.byte())) throw new Error(`unknown local type at byte ${r.at - 1}`);
    }
    while (r.at < end) renumbered += instruction(r);
    if (r.at !== end || r.bytes[end - 1] !== 0x0b) throw new Error(`a function body ending at byte ${end} was misread`);
  }
  return renumbered;
}

/**
 * Renumbers, in place, every early-numbered relaxed madd in a WebAssembly binary.
 * @param {Uint8Array} bytes a linked .wasm (version 1)
 * @returns {number} how many instructions were renumbered
 * @throws {Error} not a .wasm, or an instruction this reader does not know; the bytes may then be
 *   partly rewritten: discard them (the command line writes the file only on success)
 */
export function renumberRelaxedSimd(bytes) {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]; // "\0asm", version 1
  if (!header.every((b, i) => bytes[i] === b)) throw new Error('not a WebAssembly binary (version 1)');
  const r = new Reader(bytes, header.length);
  let renumbered = 0;
  while (r.at < bytes.length) {
    const id = r.byte();
    const size = r.leb();
    const end = r.at + size;
    if (id === 10) {
      renumbered += codeSection(r);
      if (r.at !== end) throw new Error('the code section was misread');
    }
    r.at = end;
  }
  return renumbered;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file] = process.argv.slice(2);
  const bytes = new Uint8Array(readFileSync(file));
  const renumbered = renumberRelaxedSimd(bytes);
  if (renumbered === 0) throw new Error(`${file}: no early relaxed madd found (was it compiled with -mrelaxed-simd?)`);
  writeFileSync(file, bytes);
  console.log(`${file}: ${renumbered} relaxed madd renumbered to the standard opcode`);
}
