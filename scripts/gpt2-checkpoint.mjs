#!/usr/bin/env node
// Writes GPT-2 checkpoints with random weights in Hugging Face's `gpt2` safetensors layout (the tensor names and the
// Conv1D shapes of transformers' GPT2Model: wte [V, d], wpe [n_positions, d], h.{l}.attn.c_attn.weight [d, 3d], …),
// for the tests and the bench: nothing downloads a model to check the core's GPT-2. Weights are drawn from a seeded
// generator (Mulberry32), uniform with standard deviation σ = `scale` (GPT-2's initializer draws N(0, 0.02²)); biases
// with σ / 2; LayerNorm's γ around 1.
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

/**
 * Uniform draws in [−1, 1) from Mulberry32 (a 32-bit generator in Math.imul arithmetic: a GPT-2 small's 124 M values
 * in about a second).
 */
function uniforms(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = Math.imul(state ^ (state >>> 15), state | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 31 - 1;
  };
}

/** float32 bits → bfloat16 bits, to nearest, ties to even (NaN is never drawn). */
function bfloat16(bits) {
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

/** float32 bits → IEEE 754 binary16 bits, to nearest, ties to even (subnormals too; past 65504's range, ±Infinity). */
function half(bits) {
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  let mantissa = bits & 0x7fffff;
  let shift = 13;
  if (exponent >= 31) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    mantissa |= 0x800000; // the implicit 1, shifted into a subnormal
    shift = 14 - exponent;
  }
  let out = (exponent > 0 ? exponent << 10 : 0) | (mantissa >>> shift);
  const rest = mantissa & ((1 << shift) - 1);
  const halfway = 1 << (shift - 1);
  if (rest > halfway || (rest === halfway && out & 1)) out += 1; // a carry into the exponent is the right rounding
  return sign | out;
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
  const data = 8 + headerBytes.length;
  const draw = uniforms(seed);
  for (const [name, shape, kind, type] of tensors) {
    const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
    if (kind === 'mask') {
      const n = sizes.nPositions;
      for (let i = 0; i < values.length; i++) values[i] = i % n <= Math.floor(i / n) % n ? 1 : 0; // lower triangle
    } else {
      const spread = Math.sqrt(3) * (kind === 'weight' ? scale : scale / 2); // uniform on [−√3σ, √3σ): deviation σ
      for (let i = 0; i < values.length; i++) values[i] = (kind === 'gamma' ? 1 : 0) + spread * draw();
    }
    let stored = values;
    if (type !== 'F32') {
      const bits = new Uint32Array(values.buffer);
      stored = new Uint16Array(values.length);
      for (let i = 0; i < bits.length; i++) stored[i] = type === 'F16' ? half(bits[i]) : bfloat16(bits[i]);
    }
    out.set(new Uint8Array(stored.buffer), data + header[name].data_offsets[0]); // little-endian hosts
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
