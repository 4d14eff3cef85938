// The models the page can show, one registry (web/src/models/registry.js): each model's id, label, objective, first
// head and what it can do, from the core's name lists; and the chapters ask it (or a Run's `can`), never a model's id.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { modelEntry, modelIdThat, modelRegistry, modelThat } from '../../web/src/models/registry.js';
import { firstHead } from '../../web/src/settings/head.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';

let core;
before(async () => {
  core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
});

test("one entry per model: the designed heads, then the core's trained models, each with what it can do", () => {
  const entries = modelRegistry();
  assert.deepEqual(
    entries.map((m) => m.id),
    ['designed', ...core.languageModelLimits.objectives, ...core.languageModelLimits.architectures],
  );
  const can = Object.fromEntries(entries.map((m) => [m.id, { ...m.can }]));
  assert.deepEqual(can, {
    designed: {
      generate: false,
      fillBlanks: false,
      outputLayer: false,
      designedControls: true,
      ourModel: false,
      checkpoint: false,
    },
    causal: {
      generate: true,
      fillBlanks: false,
      outputLayer: true,
      designedControls: false,
      ourModel: true,
      checkpoint: false,
    },
    masked: {
      generate: false,
      fillBlanks: true,
      outputLayer: true,
      designedControls: false,
      ourModel: true,
      checkpoint: false,
    },
    gpt2: {
      generate: true,
      fillBlanks: false,
      outputLayer: true,
      designedControls: false,
      ourModel: false,
      checkpoint: true,
    },
  });
  const objectives = { designed: null, causal: 'causal', masked: 'masked', gpt2: 'causal' };
  for (const m of entries) {
    assert.deepEqual(m.firstHead, firstHead(m.id), `${m.id}: its first head`);
    assert.equal(typeof m.label, 'string');
    assert.equal(m.objective, objectives[m.id]);
    assert.ok(Object.isFrozen(m) && Object.isFrozen(m.can));
  }
  assert.equal(modelRegistry(), entries, 'computed once for the same core');
});

test('asking: by id (an unknown one is a RangeError naming the ids), or the first model that can do something', () => {
  assert.equal(modelEntry('masked').label, 'trained encoder');
  assert.throws(() => modelEntry('llama'), {
    name: 'RangeError',
    message: /No model 'llama': the models are 'designed', 'causal', 'masked', 'gpt2'/,
  });
  assert.equal(modelIdThat('generate'), 'causal');
  assert.equal(modelThat('fillBlanks').id, 'masked');
  assert.equal(modelThat('designedControls').id, 'designed');
  assert.throws(() => modelThat('fly'), { name: 'RangeError', message: /No ability 'fly'/ });
});

test('a trained objective the page knows nothing of is an error, not a guess', () => {
  try {
    setCoreLimits(core.limits, core.trainerLimits, { ...core.languageModelLimits, objectives: ['causal', 'seq2seq'] });
    assert.throws(() => modelRegistry(), /seq2seq/);
  } finally {
    setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
  }
  assert.equal(modelRegistry().length, 4);
});

/** Every .js file under `dir`. */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.js') ? [path] : [];
  });
}

test("no chapter branches on a model's id: lessons/ asks the registry or the Run what a model can do", () => {
  const ids = ['designed', 'causal', 'masked', 'gpt2'].join('|');
  const branching = [
    new RegExp(`\\b(model|kind|objective|id)\\s*[!=]==?\\s*'(${ids})'`), // state.model === 'causal'
    new RegExp(`'(${ids})'\\s*[!=]==?\\s*\\w`), // 'causal' === kind
    new RegExp(`\\b(get|preload|load|languageModel|modelEntry)\\(\\s*'(${ids})'`), // models.get('causal')
    new RegExp(`\\bmodel:\\s*'(${ids})'`), // a tour step's state: { model: 'causal' }
    /[!=]==?\s*DESIGNED\b/, // state.model === DESIGNED
  ];
  const found = [];
  for (const file of sources('web/src/lessons')) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim().startsWith('//') && branching.some((pattern) => pattern.test(line)))
          found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});
