#!/usr/bin/env node
// Writes GPT-2 checkpoints with random weights in Hugging Face's `gpt2` safetensors layout (the tensor names and the
// Conv1D shapes of transformers' GPT2Model: wte [V, d], wpe [n_positions, d], h.{l}.attn.c_attn.weight [d, 3d], …),
// for the tests and the bench: nothing downloads a model to check the core's GPT-2. Weights are drawn from a seeded
// generator, N(0, σ²) by Box–Muller, σ = `scale` (GPT-2's initializer uses 0.02); LayerNorm's γ around 1.
//
//   node scripts/gpt2-checkpoint.mjs out.safetensors [--size small|tiny] [--dtype F32|F16|BF16] [--seed n]
//
// As a module: gpt2Checkpoint(options) returns the file's bytes.

/** GPT-2 small's sizes (Radford et al. 2019, Table 2's smallest model; 124 M parameters), and a tiny one for tests. */
export const GPT2_SIZES = {
  small: { vocabSize: 50257, nPositions: 1024, dModel: 768, numLayers: 12, dFF: 3072 },
  tiny: { vocabSize: 50257, nPositions: 64, dModel: 64, numLayers: 2, dFF: 256 },
};

/** The tensors of the layout, in Hugging Face's order: [name, shape, kind] (kind: 'weight', 'gamma' or 'bias'). */
export function gpt2Tensors({ vocabSize, nPositions, dModel: d, numLayers, dFF }) {
  const tensors = [
    ['wte.weight', [vocabSize, d], 'weight'],
    ['wpe.weight', [nPositions, d], 'weight'],
  ];
  for (let l = 0; l < numLayers; l++) {
    const h = `h.${l}.`;
    tensors.push(
      [`${h}ln_1.weight`, [d], 'gamma'],
      [`${h}ln_1.bias`, [d], 'bias'],
      [`${h}attn.c_attn.weight`, [d, 3 * d], 'weight'],
      [`${h}attn.c_attn.bias`, [3 * d], 'bias'],
      [`${h}attn.c_proj.weight`, [d, d], 'weight'],
      [`${h}attn.c_proj.bias`, [d], 'bias'],
      [`${h}ln_2.weight`, [d], 'gamma'],
      [`${h}ln_2.bias`, [d], 'bias'],
      [`${h}mlp.c_fc.weight`, [d, dFF], 'weight'],
      [`${h}mlp.c_fc.bias`, [dFF], 'bias'],
      [`${h}mlp.c_proj.weight`, [dFF, d], 'weight'],
      [`${h}mlp.c_proj.bias`, [d], 'bias'],
    );
  }
  tensors.push(['ln_f.weight', [d], 'gamma'], ['ln_f.bias', [d], 'bias']);
  return tensors;
}

/** SplitMix64's 53-bit uniforms in (0, 1) (the core's random.hpp generator, in BigInt), as normals by Box–Muller. */
function normals(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  const uniform = () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    z ^= z >> 31n;
    return (Number(z >> 11n) + 0.5) * 2 ** -53;
  };
  let spare = null;
  return () => {
    if (spare !== null) {
      const x = spare;
      spare = null;
      return x;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const angle = 2 * Math.PI * uniform();
    spare = r * Math.sin(angle);
    return r * Math.cos(angle);
  };
}

/** float32 → bfloat16 bits, to nearest, ties to even (NaN is never drawn). */
function bfloat16(bits32) {
  return ((bits32 + 0x7fff + ((bits32 >>> 16) & 1)) >>> 16) & 0xffff;
}

/** v rounded to the nearest integer, ties to even. */
function roundEven(v) {
  const f = Math.floor(v);
  const diff = v - f;
  return diff > 0.5 || (diff === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/** A finite number → IEEE 754 binary16 bits, to nearest, ties to even (±Infinity past 65504's rounding range). */
function half(x) {
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundEven(a * 2 ** 24); // subnormals, steps of 2⁻²⁴ (0x400 is the smallest normal)
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1; // log2 may round across a power of two
  if (2 ** (e + 1) <= a) e += 1;
  const fraction = roundEven((a / 2 ** e - 1) * 1024);
  return sign | (((e + 15) << 10) + fraction); // a fraction rounded up to 1024 carries into the exponent
}

/**
 * The bytes of a GPT-2 safetensors file with random weights.
 * @param {{ size?: 'small' | 'tiny', sizes?: object, dtype?: 'F32' | 'F16' | 'BF16', seed?: number, scale?: number,
 *   prefix?: string, buffers?: boolean, metadata?: object }} [options] sizes: explicit { vocabSize, nPositions,
 *   dModel, numLayers, dFF } (else `size`'s, default tiny); scale: σ of the weights (default 0.02, GPT-2's); prefix:
 *   before every name ('transformer.' as GPT2LMHeadModel saves it; default none, as GPT2Model); buffers: also the
 *   causal-mask buffers h.{l}.attn.bias [1, 1, n_positions, n_positions] (F32, as older exports carry them)
 * @returns {Uint8Array}
 */
export function gpt2Checkpoint(options = {}) {
  const { size = 'tiny', dtype = 'F32', seed = 1, scale = 0.02, prefix = '', buffers = false, metadata } = options;
  const sizes = options.sizes ?? GPT2_SIZES[size];
  const draw = normals(seed);
  const tensors = gpt2Tensors(sizes).map(([name, shape, kind]) => [prefix + name, shape, kind, dtype]);
  if (buffers) {
    for (let l = 0; l < sizes.numLayers; l++)
      tensors.push([`${prefix}h.${l}.attn.bias`, [1, 1, sizes.nPositions, sizes.nPositions], 'mask', 'F32']);
  }
  const width = { F32: 4, F16: 2, BF16: 2 };
  const header = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const [name, shape, , type] of tensors) {
    const bytes = shape.reduce((a, b) => a * b, 1) * width[type];
    header[name] = { dtype: type, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  const view = new DataView(out.buffer, 8 + headerBytes.length);
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (const [name, shape, kind, type] of tensors) {
    const [begin] = header[name].data_offsets;
    const count = shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < count; i++) {
      let x;
      if (kind === 'mask') {
        const n = sizes.nPositions;
        x = i % n <= Math.floor(i / n) % n ? 1 : 0; // lower triangle
      } else x = (kind === 'gamma' ? 1 : 0) + (kind === 'weight' ? scale : scale / 2) * draw();
      if (type === 'F32') view.setFloat32(begin + 4 * i, x, true);
      else {
        f32[0] = x;
        view.setUint16(begin + 2 * i, type === 'F16' ? half(f32[0]) : bfloat16(u32[0]), true);
      }
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { writeFileSync } = await import('node:fs');
  const { parseArgs } = await import('node:util');
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      size: { type: 'string', default: 'small' },
      dtype: { type: 'string', default: 'F32' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (positionals.length !== 1 || !GPT2_SIZES[values.size]) {
    console.error(
      'usage: node scripts/gpt2-checkpoint.mjs out.safetensors [--size small|tiny] [--dtype F32|F16|BF16] [--seed n]',
    );
    process.exit(2);
  }
  const bytes = gpt2Checkpoint({ size: values.size, dtype: values.dtype, seed: Number(values.seed) });
  writeFileSync(positionals[0], bytes);
  console.log(
    `wrote ${positionals[0]}: GPT-2 ${values.size} with random weights, ${values.dtype}, ${(bytes.length / 1e6).toFixed(1)} MB`,
  );
}
