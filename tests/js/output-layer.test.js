// The trained models' output layer through the JS API: run()'s logits equal x_L U + b recomputed here from
// parameters() (and the frozen GloVe rows of a tied U), softmax of them equals run()'s probabilities, <unk> is never a
// ranked word (its probability is run().unk), and sample() draws from the sampling distribution (output temperature,
// top-k: cpp/include/attn/train/sampling.hpp) — its empirical frequencies over 20,000 seeds pass a chi-square test
// that the wrong distributions fail.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';

let core, causal, masked;
before(async () => {
  core = await createAttentionCore();
  [causal, masked] = await Promise.all([core.languageModel('causal'), core.languageModel('masked')]);
});

const SENTENCE = 'The river bank was muddy after the';
const DRAWS = 20000;

/** softmax(z / T) over all entries, in double, the largest subtracted first. */
function softmax(z, T = 1) {
  const max = Math.max(...z);
  const e = Array.from(z, (v) => Math.exp((v - max) / T));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / total);
}

/**
 * The sampling distribution recomputed independently: softmax(z / T) over the words (<unk>, the last id, left out),
 * kept to the topK largest logits (0: all), renormalised. Returns [{ id, q }] most likely first.
 */
function samplingReference(z, T, topK) {
  const ids = Array.from({ length: z.length - 1 }, (_, i) => i).sort((a, b) => z[b] - z[a] || a - b);
  const kept = topK === 0 ? ids : ids.slice(0, topK);
  const q = softmax(
    kept.map((i) => z[i]),
    T,
  );
  return kept.map((id, i) => ({ id, q: q[i] }));
}

/**
 * Pearson's chi-square of counts against probabilities q over the first `bins` words, the rest pooled in one bin.
 * @returns {{ chi2: number, df: number }}
 */
function chiSquare(counts, q, n, bins) {
  let chi2 = 0,
    restExpected = 0,
    restSeen = 0;
  q.forEach(({ id, q: p }, i) => {
    const seen = counts.get(id) ?? 0;
    if (i < bins) chi2 += (seen - n * p) ** 2 / (n * p);
    else ((restExpected += n * p), (restSeen += seen));
  });
  for (const [id, seen] of counts) if (!q.some((w) => w.id === id)) restSeen += seen; // drawn but not in q: counts against it
  if (restExpected > 0) chi2 += (restSeen - restExpected) ** 2 / restExpected;
  else chi2 += restSeen > 0 ? Infinity : 0;
  return { chi2, df: Math.min(bins, q.length) - (restExpected > 0 ? 0 : 1) };
}

/**
 * A bound the statistic of the right distribution exceeds with probability < 10⁻⁶: the chi-square quantile by the
 * Wilson–Hilferty approximation, z = 4.75 (one-sided 10⁻⁶).
 */
function chiSquareBound(df) {
  const z = 4.75;
  return df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
}

/** How often each output id is drawn over seeds 0 … n − 1. */
function drawCounts(model, text, options, n = DRAWS) {
  const counts = new Map();
  for (let seed = 0; seed < n; seed++) {
    const { id } = model.sample(text, { ...options, seed });
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** The model's own U column o (tied: the output word's input row; untied: the unembedding's column) and bias. */
function outputWeights(model) {
  const p = model.parameters();
  const { dModel: d, tiedOutput, outputSize: V } = model.config;
  const bias = p.output_bias?.data ?? new Float32Array(V);
  if (!tiedOutput) return { column: (o) => Array.from({ length: d }, (_, j) => p.unembedding.data[j * V + o]), bias };
  // Tied: U's column o is the input row of output word o, as run() reads it (its `embeddings`); <unk>'s is the learned row.
  const rows = new Map();
  return {
    bias,
    column: (o) => {
      if (!rows.has(o)) {
        const word = o === V - 1 ? 'zzqxv' : model.vocabulary[o];
        rows.set(o, Array.from(model.run(word, { k: 1, positions: [] }).embeddings.data.subarray(0, d)));
      }
      return rows.get(o);
    },
  };
}

describe('output layer: run() logits, probabilities and <unk>', () => {
  for (const [kind, text, position] of [
    ['causal', SENTENCE, 6],
    ['masked', 'The river [MASK] was muddy', 2],
  ]) {
    test(`${kind}: logits = x_L U + b from parameters(), softmax of them = run().top's p, <unk> apart`, () => {
      const model = kind === 'causal' ? causal : masked;
      const { dModel: d, numLayers, outputSize: V } = model.config;
      const r = model.run(text, { k: 20, positions: [position] });
      const z = r.logits[position];
      assert.equal(z.length, V);
      const x = r.hidden[numLayers - 1].data.subarray(position * d, (position + 1) * d);
      const { column, bias } = outputWeights(model);
      // Every listed word, <unk>, and every 97th output: the product recomputed in double.
      const checked = [...new Set([...r.top[position].map((w) => model.vocabulary.indexOf(w.word)), V - 1])];
      for (let o = 0; o < V; o += 97) checked.push(o);
      let worst = 0;
      for (const o of checked) {
        const u = column(o);
        let expected = bias[o];
        for (let j = 0; j < d; j++) expected += x[j] * u[j];
        worst = Math.max(worst, Math.abs(expected - z[o]));
      }
      console.log(
        `${kind} (${model.config.tiedOutput ? 'tied' : 'untied'} U): ${checked.length} logits, max |z − x_L U − b| ${worst.toExponential(1)}`,
      );
      assert.ok(worst < 1e-4, `max difference ${worst}`);
      const p = softmax(z);
      for (const w of r.top[position]) {
        assert.notEqual(w.word, '<unk>', '<unk> is never ranked');
        assert.ok(
          Math.abs(w.p - p[model.vocabulary.indexOf(w.word)]) < 1e-6,
          `${w.word}: ${w.p} vs ${p[model.vocabulary.indexOf(w.word)]}`,
        );
      }
      assert.ok(Math.abs(r.unk[position] - p[V - 1]) < 1e-6, `unk ${r.unk[position]} vs ${p[V - 1]}`);
      // The ranked words are the largest among the words: <unk>'s logit may be above them, no other's is.
      const words = samplingReference(z, 1, 20).map(({ id }) => model.vocabulary[id]);
      assert.deepEqual(
        r.top[position].map((w) => w.word),
        words,
      );
    });
  }

  test('<unk> is never rank 1 even where it is the most likely output, and its mass is reported', () => {
    // Rare words after which the model expects another rare one: <unk>'s logit is the largest here.
    const r = causal.run('zzqxv qqzxw', { k: 5, positions: 'all' });
    const p = r.logits.map((z) => softmax(z).at(-1));
    r.top.forEach((top, t) => {
      assert.ok(top.every((w) => w.word !== '<unk>'));
      assert.ok(Math.abs(r.unk[t] - p[t]) < 1e-6);
    });
    const some = causal.run(SENTENCE, { k: 1, positions: 'all' });
    assert.ok(
      some.unk.some((u, t) => u > some.top[t][0].p),
      `somewhere <unk> outweighs the first word (max unk ${Math.max(...some.unk)}): before, it would have been rank 1`,
    );
  });

  test('run({ sampling }) gives the sampling distribution: softmax(z / T) over the words, top-k, renormalised', () => {
    for (const [temperature, topK] of [
      [1, 0],
      [0.5, 5],
      [2, 40],
      [0.05, 0],
    ]) {
      const r = causal.run(SENTENCE, { k: 10, positions: [-1], sampling: { temperature, topK } });
      const expected = samplingReference(r.logits.at(-1), temperature, topK).slice(0, 10);
      assert.equal(r.sampling.at(-1).length, Math.min(10, expected.length));
      r.sampling.at(-1).forEach((w, i) => {
        assert.equal(w.word, causal.vocabulary[expected[i].id]);
        assert.ok(Math.abs(w.p - expected[i].q) < 1e-6, `T ${temperature} k ${topK} #${i}: ${w.p} vs ${expected[i].q}`);
      });
    }
  });
});

describe('sample(): one word from the sampling distribution, reproducible by its seed', () => {
  const z = () => causal.run(SENTENCE, { k: 1, positions: [-1] }).logits.at(-1);

  for (const [temperature, topK, bins] of [
    [1, 0, 15],
    [0.7, 5, 5],
    [1.5, 30, 12],
  ]) {
    test(`T = ${temperature}, top-k = ${topK || 'all'}: frequencies over ${DRAWS} seeds pass chi-square; wrong distributions fail it`, () => {
      const logits = z();
      const q = samplingReference(logits, temperature, topK);
      const counts = drawCounts(causal, SENTENCE, { temperature, topK });
      const { chi2, df } = chiSquare(counts, q, DRAWS, bins);
      const bound = chiSquareBound(df);
      // The same counts against distributions a wrong implementation would draw from: another temperature, no top-k
      // or half the k (10 for every word), or <unk> left in the softmax.
      const wrong = {
        'T × 1.3': samplingReference(logits, temperature * 1.3, topK),
        'another k': samplingReference(logits, temperature, topK ? Math.max(1, Math.floor(topK / 2)) : 10),
        'with <unk>': (() => {
          const withUnk = softmax(logits, temperature).map((p, id) => ({ id, q: p }));
          withUnk.sort((a, b) => b.q - a.q);
          const kept = topK ? withUnk.slice(0, topK) : withUnk;
          const total = kept.reduce((a, w) => a + w.q, 0);
          return kept.map((w) => ({ id: w.id, q: w.q / total }));
        })(),
      };
      const against = Object.fromEntries(
        Object.entries(wrong).map(([name, w]) => [name, chiSquare(counts, w, DRAWS, bins).chi2]),
      );
      console.log(
        `T ${temperature} top-k ${topK}: chi2 ${chi2.toFixed(1)} (df ${df}, bound ${bound.toFixed(1)}); wrong: ` +
          Object.entries(against)
            .map(([name, c]) => `${name} ${c.toFixed(0)}`)
            .join(', '),
      );
      assert.ok(chi2 < bound, `chi-square ${chi2} ≥ ${bound} (df ${df})`);
      // ('with <unk>' fails too wherever <unk> is likely enough to move the frequencies: printed above.)
      assert.ok(against['T × 1.3'] > bound, `T × 1.3: ${against['T × 1.3']} should fail ${bound}`);
      assert.ok(against['another k'] > bound, `another k: ${against['another k']} should fail ${bound}`);
      // Every draw is a kept word, never <unk>.
      for (const id of counts.keys())
        assert.ok(
          q.some((w) => w.id === id),
          `drawn id ${id} is not kept`,
        );
      assert.ok(!counts.has(causal.config.outputSize - 1));
    });
  }

  test('top-k = 1 is the argmax; a small temperature approaches it', () => {
    const logits = z();
    const argmax = samplingReference(logits, 1, 0)[0].id;
    for (let seed = 0; seed < 200; seed++) assert.equal(causal.sample(SENTENCE, { topK: 1, seed }).id, argmax);
    assert.equal(causal.sample(SENTENCE, { topK: 1 }).p, 1);
    const first = [1, 0.5, 0.2, 0.1, 0.05].map((T) => samplingReference(logits, T, 0)[0].q);
    first.forEach((q, i) => i && assert.ok(q > first[i - 1], `the first word's q grows as T falls: ${first}`));
    const counts = drawCounts(causal, SENTENCE, { temperature: 0.05 }, 2000);
    const share = (counts.get(argmax) ?? 0) / 2000;
    console.log(
      `first word's q at T = 1 … 0.05: ${first.map((q) => q.toFixed(3)).join(', ')}; drawn at T = 0.05: ${share}`,
    );
    // Drawn as often as q says (2,000 draws: a standard deviation of at most 0.011), and at T = 0.05 mostly the argmax.
    assert.ok(first.at(-1) > 0.5 && Math.abs(share - first.at(-1)) < 0.035, `share ${share} vs q ${first.at(-1)}`);
  });

  test('the same text, options and seed give the same word; the masked model samples at its first blank', () => {
    const a = causal.sample(SENTENCE, { temperature: 1.2, topK: 50, seed: 123456 });
    assert.deepEqual(causal.sample(SENTENCE, { temperature: 1.2, topK: 50, seed: 123456 }), a);
    assert.equal(a.position, 6);
    assert.equal(a.word, causal.vocabulary[a.id]);
    const words = new Set(Array.from({ length: 50 }, (_, seed) => causal.sample(SENTENCE, { seed }).word));
    assert.ok(words.size > 3, `seeds give different words: ${[...words]}`);
    const m = masked.sample('The river [MASK] was muddy', { seed: 7 });
    assert.equal(m.position, 2);
    assert.throws(() => masked.sample('The river bank was muddy'), { name: 'RangeError', message: /has none/ });
  });

  test('bad options: RangeError naming the option and its range, TypeError for a non-number', () => {
    const limits = core.languageModelLimits;
    assert.equal(limits.minOutputTemperature, 0.05);
    assert.equal(limits.maxOutputTemperature, 5);
    assert.equal(limits.maxSampleTopK, 100);
    assert.equal(limits.maxSampleSeed, 2 ** 32 - 1);
    for (const [options, message] of [
      [{ temperature: 0 }, /temperature must be a finite number at least 0.05 and at most 5, got 0/],
      [{ temperature: 6 }, /temperature .* got 6/],
      [{ temperature: NaN }, /temperature .* got NaN/],
      [{ topK: -1 }, /topK must be an integer from 0 to 100, got -1/],
      [{ topK: 101 }, /topK .* got 101/],
      [{ topK: 1.5 }, /topK .* got 1.5/],
      [{ seed: -1 }, /seed must be an integer from 0 to 4294967295, got -1/],
      [{ seed: 2 ** 32 }, /seed .* got 4294967296/],
      [{ temp: 1 }, /unknown option 'temp'/],
    ]) {
      assert.throws(() => causal.sample(SENTENCE, options), { name: 'RangeError', message });
    }
    assert.throws(() => causal.sample(SENTENCE, { temperature: '1' }), { name: 'TypeError' });
    assert.throws(() => causal.sample(''), { name: 'RangeError' });
    assert.throws(() => causal.run(SENTENCE, { sampling: { temperature: 9 } }), { name: 'RangeError' });
    assert.throws(() => causal.run(SENTENCE, { sampling: { seed: 1 } }), {
      name: 'RangeError',
      message: /unknown option 'seed'/,
    });
  });
});
