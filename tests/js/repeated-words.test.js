// languageModel.repeatedWords(): the induction-head probe on the shipped models (head_statistics.hpp
// repeated_words_probe), through the package as a developer calls it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';

let core;
before(async () => {
  core = await createAttentionCore();
});

describe('languageModel: repeatedWords (the induction-head probe)', () => {
  test("every head's scores on repeated random words: in range, reproducible by seed, and what config.heads records", async () => {
    const gpt = await core.languageModel('causal');
    const limits = core.languageModelLimits;
    const { numLayers, numHeads } = gpt.config;
    const r = gpt.repeatedWords();
    assert.equal(r.repeat, limits.repeatedWords);
    assert.equal(r.sequences, limits.repeatedSequences);
    assert.equal(r.heads.length, numLayers * numHeads);
    r.heads.forEach((h, i) => {
      assert.deepEqual([h.layer, h.head], [Math.floor(i / numHeads), i % numHeads]);
      for (const key of ['previous', 'duplicate', 'induction'])
        assert.ok(h[key] >= 0 && h[key] <= 1, `${key} ${h[key]}`);
      // the default probe is the one config.heads' induction score was measured on (natively: to 1e-4)
      assert.ok(Math.abs(h.induction - gpt.config.heads[i].induction) < 1e-4, `head ${i}: ${h.induction}`);
    });
    // Random words are nearly unpredictable without copying: the first copy costs more than ln(1,000) nats a word
    assert.ok(r.firstHalfLoss > Math.log(1000), `first half ${r.firstHalfLoss}`);
    assert.ok(Number.isFinite(r.secondHalfLoss));
    // The example: the first sequence measured, R words of the output vocabulary twice, which the model reads as 2R
    // tokens, each its own word
    assert.equal(r.example.length, 2 * r.repeat);
    assert.deepEqual(r.example.slice(r.repeat), r.example.slice(0, r.repeat));
    const read = gpt.run(r.example.join(' '));
    assert.deepEqual(
      read.tokens.map((t) => t.text),
      r.example,
    );
    assert.deepEqual(gpt.repeatedWords({ seed: 0 }), r);
    const other = gpt.repeatedWords({ seed: 5, repeat: 20, sequences: 8 });
    assert.equal(other.repeat, 20);
    assert.equal(other.sequences, 8);
    assert.notDeepEqual(other.heads, r.heads);
    const bert = await core.languageModel('masked');
    const masked = bert.repeatedWords({ sequences: 4 });
    assert.equal(masked.firstHalfLoss, null);
    assert.equal(masked.secondHalfLoss, null);
    assert.equal(masked.heads.length, bert.config.numLayers * bert.config.numHeads);
  });

  test('bad options are refused with errors that name them', async () => {
    const gpt = await core.languageModel('causal');
    const limits = core.languageModelLimits;
    assert.throws(() => gpt.repeatedWords({ repeat: limits.minRepeatedWords - 1 }), /RangeError: .*repeat/);
    assert.throws(() => gpt.repeatedWords({ repeat: limits.maxRepeatedWords + 1 }), RangeError);
    assert.throws(() => gpt.repeatedWords({ sequences: 0 }), /sequences/);
    assert.throws(() => gpt.repeatedWords({ sequences: limits.maxRepeatedSequences + 1 }), RangeError);
    assert.throws(() => gpt.repeatedWords({ seed: -1 }), /seed/);
    assert.throws(() => gpt.repeatedWords({ repeats: 3 }), /repeats/);
  });
});
