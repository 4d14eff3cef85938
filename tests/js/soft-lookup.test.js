// core.softLookup through the public JS API, against float64 references written here, independently of
// the C++ code: character-bigram count vectors and their cosine, the mean word vector of core.embed()'s
// rows and its cosine, softmax of similarity / τ, and the mixture summed per distinct value.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import * as ref from './reference.js';

let core;
before(async () => {
  core = await createAttentionCore();
});

const near = ref.assertNear;
const KEYS = ['Luke', 'Puke', 'Leia', 'Han', 'John'];
const VALUES = ['Sprangers', 'Skywalker', 'Organa', 'Solo', 'Lennon'];

/** Bigram counts of "^" + trimmed lower-case text + "$" (the marks: control characters no test text holds). */
function bigrams(text) {
  const chars = ['\u0002', ...text.trim().toLowerCase(), '\u0003'];
  const counts = new Map();
  for (let i = 0; i + 1 < chars.length; i++)
    counts.set(chars[i] + chars[i + 1], (counts.get(chars[i] + chars[i + 1]) ?? 0) + 1);
  return counts;
}

function cosine(a, b) {
  let dot = 0,
    aa = 0,
    bb = 0;
  for (const [key, x] of a) {
    aa += x * x;
    dot += x * (b.get(key) ?? 0);
  }
  for (const y of b.values()) bb += y * y;
  return aa > 0 && bb > 0 ? dot / Math.sqrt(aa * bb) : 0;
}

function softmax(z) {
  const max = Math.max(...z);
  const e = z.map((x) => Math.exp(x - max));
  const sum = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / sum);
}

/** Mean of the rows of core.embed(text) (zeros when it has no tokens), in float64. */
// The mean all-but-the-top vector of the tokens of `text`, formed here in float64:
// x̃ = (x − μ) − Σ_k (u_k · (x − μ)) u_k, which is linear, so the mean of x̃ is that of the mean of x.
function meanVector(text) {
  const {
    data,
    shape: [n, d],
  } = core.embed(text);
  const { mean: mu, directions } = core.allButTheTop();
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) mean[c] += data[i * d + c] / n;
  if (n === 0) return mean;
  for (let c = 0; c < d; c++) mean[c] -= mu[c];
  for (let k = 0; k < directions.shape[0]; k++) {
    const u = directions.data.subarray(k * d, (k + 1) * d);
    let along = 0;
    for (let c = 0; c < d; c++) along += mean[c] * u[c];
    for (let c = 0; c < d; c++) mean[c] -= along * u[c];
  }
  return mean;
}

function vectorCosine(a, b) {
  let dot = 0,
    aa = 0,
    bb = 0;
  for (let c = 0; c < a.length; c++) {
    dot += a[c] * b[c];
    aa += a[c] * a[c];
    bb += b[c] * b[c];
  }
  return aa > 0 && bb > 0 ? dot / Math.sqrt(aa * bb) : 0;
}

describe('softLookup with letter bigrams', () => {
  test('hand-worked: luke·puke = 3/5, luk·luke = 3/√20', () => {
    const r = core.softLookup('luke', { keys: ['Puke'], values: ['Skywalker'] });
    near(r.similarities, [0.6], 1e-7, 'cos(luke, puke)');
    assert.deepEqual(r.sharedBigrams, [['uk', 'ke', 'e$']]);
    near(
      core.softLookup('Luk', { keys: ['Luke'], values: ['x'] }).similarities,
      [3 / Math.sqrt(20)],
      1e-7,
      'cos(luk, luke)',
    );
  });

  for (const [query, temperature] of [
    ['Luk', 1],
    ['Luk', 0.1],
    ['Skywalker', 0.3],
    ['han solo', 2],
    ['', 0.5],
  ]) {
    test(`"${query}", τ = ${temperature}: similarities, scores, weights and mixture match the float64 reference`, () => {
      const r = core.softLookup(query, { keys: KEYS, values: VALUES, temperature });
      const sims = KEYS.map((key) => cosine(bigrams(query), bigrams(key)));
      near(r.similarities, sims, 1e-6, 'similarities');
      near(
        r.scores,
        sims.map((s) => s / temperature),
        1e-5,
        'scores',
      );
      const weights = softmax(sims.map((s) => s / temperature));
      near(r.weights, weights, 1e-6, 'weights');
      assert.deepEqual(r.distinctValues, VALUES);
      near(r.mixture, weights, 1e-6, 'mixture');
      near(
        r.exact,
        KEYS.map((key) => (key.toLowerCase() === query.trim().toLowerCase() ? 1 : 0)),
        0,
        'exact',
      );
    });
  }

  test('τ → small: the weights become the Kronecker delta on the matching key; τ → large: uniform', () => {
    const cold = core.softLookup('  LUKE', { keys: KEYS, values: VALUES, temperature: 0.001 });
    near(cold.exact, [1, 0, 0, 0, 0], 0, 'exact');
    near(cold.weights, cold.exact, 1e-6, 'weights at τ = 0.001');
    near(cold.exactMixture, [1, 0, 0, 0, 0], 0, 'exact mixture');
    const hot = core.softLookup('Luke', { keys: KEYS, values: VALUES, temperature: 10000 });
    near(hot.weights, new Array(5).fill(0.2), 1e-4, 'weights at τ = 10⁴');
    // The weight on Luke falls as τ rises.
    const onLuke = [0.01, 0.1, 1, 10].map(
      (t) => core.softLookup('Luke', { keys: KEYS, values: VALUES, temperature: t }).weights[0],
    );
    for (let i = 1; i < onLuke.length; i++) assert.ok(onLuke[i] < onLuke[i - 1], `weight on Luke ${onLuke}`);
  });

  test('duplicated values are summed; the mixture sums to 1', () => {
    const keys = ['anna', 'hanna', 'anne', 'ann'];
    const values = ['A', 'B', 'A', ' B '];
    const r = core.softLookup('anna', { keys, values, temperature: 0.3 });
    assert.deepEqual(r.distinctValues, ['A', 'B']);
    assert.deepEqual(r.valueIndex, [0, 1, 0, 1]);
    near(r.mixture, [r.weights[0] + r.weights[2], r.weights[1] + r.weights[3]], 1e-7, 'mixture');
    near([r.mixture.reduce((s, x) => s + x, 0)], [1], 1e-6, 'Σ mixture');
  });

  test('every normalizer: the weights are core.normalize of the similarities at the same temperature', () => {
    for (const normalizer of ['softmax', 'sparsemax', 'entmax15', 'hardmax']) {
      const r = core.softLookup('Luk', { keys: KEYS, values: VALUES, temperature: 0.2, normalizer });
      const expected = core.normalize(
        { data: r.similarities, shape: [1, KEYS.length] },
        { method: normalizer, temperature: 0.2 },
      );
      near(r.weights, expected.data, 0, normalizer);
    }
    const sparse = core.softLookup('Luk', { keys: KEYS, values: VALUES, temperature: 0.2, normalizer: 'sparsemax' });
    assert.ok(sparse.weights.filter((w) => w === 0).length >= 3, `sparsemax weights ${sparse.weights}`);
  });
});

describe('softLookup with word vectors', () => {
  test('similarities are the cosines of mean post-processed word vectors; words without a vector are flagged', () => {
    const keys = ['dog', 'car', 'red car', 'xqzzyv', 'Luke'];
    const values = ['animal', 'vehicle', 'vehicle', 'nonsense', 'Sprangers'];
    for (const query of ['cat', 'blue truck', '']) {
      const r = core.softLookup(query, { keys, values, similarity: 'wordVectors', temperature: 0.1 });
      near(
        r.similarities,
        keys.map((key) => vectorCosine(meanVector(query), meanVector(key))),
        1e-6,
        `similarities for "${query}"`,
      );
      near(r.weights, softmax(Array.from(r.similarities, (s) => s / 0.1)), 1e-6, 'weights');
      assert.deepEqual(
        r.keyOov,
        keys.map((key) => core.tokenize(key).some((t) => t.oov)),
      );
      assert.equal(
        r.queryOov,
        core.tokenize(query).some((t) => t.oov),
      );
      assert.deepEqual(
        r.sharedBigrams,
        keys.map(() => []),
      );
    }
    const cat = core.softLookup('cat', { keys, values, similarity: 'wordVectors' });
    assert.ok(cat.similarities[0] > cat.similarities[1], 'cat is nearer dog than car');
  });
});

describe('softLookup errors', () => {
  const table = { keys: ['a', 'b'], values: ['x', 'y'] };
  const cases = [
    [{ keys: [], values: [] }, RangeError, /softLookup: the table is empty/],
    [{ keys: ['a', 'b'], values: ['x'] }, RangeError, /same length, got 2 keys and 1 values/],
    [{ keys: new Array(33).fill('k'), values: new Array(33).fill('v') }, RangeError, /33 rows; at most 32/],
    [{ keys: ['a', ''], values: ['x', 'y'] }, RangeError, /keys\[1\] is empty/],
    [{ keys: ['a', 'b'], values: ['x', '  '] }, RangeError, /values\[1\] is empty/],
    [{ keys: ['a', 'x'.repeat(65)], values: ['x', 'y'] }, RangeError, /keys\[1\] has 65 characters; at most 64/],
    [
      { ...table, temperature: 0 },
      RangeError,
      /temperature must be a finite number at least 0.0001 and at most 10000, got 0/,
    ],
    [{ ...table, temperature: NaN }, RangeError, /temperature/],
    [{ ...table, temperature: 1e5 }, RangeError, /temperature/],
    [{ ...table, similarity: 'glove' }, RangeError, /similarity must be one of 'letters', 'wordVectors'/],
    [{ ...table, normalizer: 'max' }, RangeError, /normalizer must be one of/],
    [{ ...table, tau: 1 }, RangeError, /unknown option 'tau'/],
    [{ keys: 'a,b', values: ['x', 'y'] }, TypeError, /keys must be an array of strings/],
    [{ keys: ['a', 2], values: ['x', 'y'] }, TypeError, /keys must be an array of strings/],
  ];
  for (const [args, ErrorClass, message] of cases) {
    test(`${ErrorClass.name} ${message}`, () => {
      assert.throws(
        () => core.softLookup('a', args),
        (error) => error instanceof ErrorClass && message.test(error.message),
      );
    });
  }
  test('a query over 64 characters and a non-string query', () => {
    assert.throws(() => core.softLookup('q'.repeat(65), table), {
      name: 'RangeError',
      message: /query has 65 characters/,
    });
    assert.throws(() => core.softLookup(42, table), TypeError);
  });

  test('the wasm heap does not grow over 1,000 calls, failed ones included', () => {
    const args = { keys: KEYS, values: VALUES, similarity: 'wordVectors' };
    core.softLookup('Luke', args);
    core.softLookup('Luke', { keys: KEYS, values: VALUES });
    const before = core.heapInUse();
    for (let i = 0; i < 1000; i++) {
      core.softLookup(`Lu${i}`, i % 2 ? args : { keys: KEYS, values: VALUES, temperature: 0.1 });
      assert.throws(() => core.softLookup('a', { keys: ['a', ' '], values: ['x', 'y'] }));
    }
    assert.equal(core.heapInUse() - before, 0, 'bytes still allocated after 1,000 calls');
  });
});
