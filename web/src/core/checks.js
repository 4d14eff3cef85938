// Cheap argument checks done in JavaScript before crossing into wasm. Type problems throw
// TypeError, values outside the allowed range throw RangeError; every message names the argument.

/** @param {string} where function name, @param {string} name argument name */
export function integerIn(value, where, name, min, max) {
  if (typeof value !== 'number') throw new TypeError(`${where}: ${name} must be a number, got ${typeof value}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${where}: ${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** A finite number > above (or ≥ min when given) and ≤ max. */
export function finiteIn(value, where, name, { above = -Infinity, min, max = Infinity } = {}) {
  if (typeof value !== 'number') throw new TypeError(`${where}: ${name} must be a number, got ${typeof value}`);
  const low = min === undefined ? value > above : value >= min;
  if (!Number.isFinite(value) || !low || value > max) {
    const lower = min === undefined ? `above ${above}` : `at least ${min}`;
    throw new RangeError(
      `${where}: ${name} must be a finite number ${lower}${max < Infinity ? ` and at most ${max}` : ''}, got ${value}`,
    );
  }
  return value;
}

export function boolean(value, where, name) {
  if (typeof value !== 'boolean') throw new TypeError(`${where}: ${name} must be true or false, got ${typeof value}`);
  return value;
}

export function oneOf(value, where, name, allowed) {
  if (!allowed.includes(value)) {
    throw new RangeError(
      `${where}: ${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${String(value)}`,
    );
  }
  return value;
}

/** A string naming one of a list the core holds (it checks the name and lists the allowed ones). */
export function name(value, where, what) {
  if (typeof value !== 'string') throw new TypeError(`${where}: ${what} must be a string, got ${typeof value}`);
  return value;
}

export function text(value, where) {
  if (typeof value !== 'string') throw new TypeError(`${where}: text must be a string, got ${typeof value}`);
  // Lone surrogates become U+FFFD (same UTF-16 length), so token spans still index the original.
  return value.toWellFormed ? value.toWellFormed() : value;
}

/** Rejects option names the function does not know (a typo would otherwise be silently ignored). */
export function knownOptions(options, where, allowed) {
  if (options === null || typeof options !== 'object') throw new TypeError(`${where}: options must be an object`);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key))
      throw new RangeError(`${where}: unknown option '${key}' (allowed: ${allowed.join(', ')})`);
  }
  return options;
}

/**
 * Checks a tensor { data: Float32Array, shape: [rows, cols] }: types, integer sizes, data length
 * equal to the product of the shape, and finite numbers (or −Infinity too, for masked scores, when
 * allowMasked is true; none of this when values is false, for callers whose core checks them).
 */
export function matrix(tensor, where, name, { allowMasked = false, values = true } = {}) {
  if (
    tensor === null ||
    typeof tensor !== 'object' ||
    !(tensor.data instanceof Float32Array) ||
    !Array.isArray(tensor.shape)
  ) {
    throw new TypeError(`${where}: ${name} must be { data: Float32Array, shape: [rows, cols] }`);
  }
  if (tensor.shape.length !== 2)
    throw new RangeError(`${where}: ${name}.shape must have 2 entries, got ${tensor.shape.length}`);
  const [rows, cols] = tensor.shape.map((n, i) => integerIn(n, where, `${name}.shape[${i}]`, 0, 2 ** 24));
  if (rows * cols !== tensor.data.length) {
    throw new RangeError(
      `${where}: ${name}.data has ${tensor.data.length} numbers but shape [${rows}, ${cols}] needs ${rows * cols}`,
    );
  }
  for (let i = 0; values && i < tensor.data.length; i++) {
    const x = tensor.data[i];
    if (!Number.isFinite(x) && !(allowMasked && x === -Infinity)) {
      throw new RangeError(
        `${where}: ${name}.data[${i}] is ${x}; numbers must be finite${allowMasked ? ' or -Infinity (masked)' : ''}`,
      );
    }
  }
  return tensor;
}

/** `args` after checking that its tensors `names` hold finite numbers (as matrix() does), naming the first that does not. */
export function finiteTensors(args, where, names) {
  for (const name of names) matrix(args[name], where, name);
  return args;
}

/** A token sequence (array of integers or Int32Array) as an Int32Array; types checked here, values by the core. */
export function tokenArray(tokens, where, name) {
  if (tokens instanceof Int32Array) return tokens;
  if (!Array.isArray(tokens)) throw new TypeError(`${where}: ${name} must be an array of token ids or an Int32Array`);
  tokens.forEach((t, i) => {
    if (!Number.isInteger(t)) throw new TypeError(`${where}: ${name}[${i}] must be an integer token id, got ${t}`);
  });
  return Int32Array.from(tokens);
}

/**
 * A training batch as the trainers' sample() returns it, checked: { tokens, targets: Int32Array (or arrays of
 * integers), scored: Uint8Array (or an array of booleans), shape: [rows, cols] }, every array rows · cols long
 * (element [b, t] at index b · cols + t), 1 ≤ rows ≤ maxRows, 1 ≤ cols ≤ maxCols. Token values are the core's to check.
 * @returns {{ tokens: Int32Array, targets: Int32Array, scored: Uint8Array, shape: [number, number] }}
 * @throws TypeError for another structure or element type, RangeError for sizes out of range or lengths that differ
 */
export function batch(value, where, maxRows, maxCols) {
  if (value === null || typeof value !== 'object' || !Array.isArray(value.shape) || value.shape.length !== 2) {
    throw new TypeError(
      `${where}: batch must be { tokens, targets, scored, shape: [batchSize, T] } as sample() returns`,
    );
  }
  const [rows, cols] = value.shape.map((n, i) => integerIn(n, where, `shape[${i}]`, 1, i ? maxCols : maxRows));
  const tokens = tokenArray(value.tokens, where, 'tokens');
  const targets = tokenArray(value.targets, where, 'targets');
  const scored =
    value.scored instanceof Uint8Array ? value.scored : Uint8Array.from(value.scored ?? [], (s) => (s ? 1 : 0));
  for (const [name, array] of [
    ['tokens', tokens],
    ['targets', targets],
    ['scored', scored],
  ]) {
    if (array.length !== rows * cols)
      throw new RangeError(
        `${where}: ${name} has ${array.length} entries, shape [${rows}, ${cols}] needs ${rows * cols}`,
      );
  }
  return { tokens, targets, scored, shape: [rows, cols] };
}
