// The guided tour's steps as data: every step's state is a valid state the core computes, every view
// exists, ids are unique and usable in links; and the `tour` attribute's parsing.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { VIEWS, embedCode, readAttributes } from '../../web/src/explorer/attributes.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';
import { FIGURES } from '../../web/src/explorer/figures.js';
import { defaultState, withChange } from '../../web/src/lessons/chapters.js';
import { traceOptions } from '../../web/src/settings/trace.js';
import { exampleOffer, stepState } from '../../web/src/explorer/tour.js';
import { TOUR_STEPS, stepText, tourStepId } from '../../web/src/explorer/tour-steps.js';
import { stateFromHash, stateToHash } from '../../web/src/explorer/url-state.js';
import { trainerOptions } from '../../web/src/lessons/learn/learn-lesson.js';
import { modelEntry, modelRegistry } from '../../web/src/models/registry.js';

const D_MODEL = 100;
const reader = (attributes) => (name) => attributes[name] ?? null;
const defaults = defaultState();
let core;
before(async () => {
  core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits); // the attribute parsers' names and ranges
});

/** The attributes of a tag, unescaped (the way a browser parses them). */
const MODULE = 'https://example.org/element/attention-explorer.js';

function parseTag(tag) {
  const attributes = {};
  for (const [, name, value] of tag.matchAll(/ ([a-z-]+)="([^"]*)"/g)) {
    attributes[name] = value
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
  }
  return attributes;
}

test('steps: 10–24, unique link-safe ids, a title, two or three sentences, a known view and figure', () => {
  assert.ok(TOUR_STEPS.length >= 10 && TOUR_STEPS.length <= 24, `${TOUR_STEPS.length} steps`);
  const ids = TOUR_STEPS.map((step) => step.id);
  assert.equal(new Set(ids).size, ids.length, 'unique ids');
  for (const step of TOUR_STEPS) {
    assert.deepEqual(
      Object.keys(step).filter(
        (key) => !['id', 'title', 'text', 'state', 'view', 'figure', 'control', 'ownSentence'].includes(key),
      ),
      [],
      step.id,
    );
    if ('control' in step) assert.ok(step.control in defaults, `${step.id}: control ${step.control} is a setting`);
    assert.match(step.id, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'lowercase-with-dashes (no escaping in a URL)');
    assert.ok(step.title.trim().length > 0 && step.title.length <= 60, `${step.id}: title`);
    const text = stepText(step, { core, state: stepState(step, defaults, defaults) });
    const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z“"])/).length;
    assert.ok(sentences >= 2 && sentences <= 4, `${step.id}: ${sentences} sentences`);
    assert.ok(VIEWS.includes(step.view), `${step.id}: view ${step.view} is one of ${VIEWS.join(', ')}`);
    if ('figure' in step) assert.ok(step.figure in FIGURES, `${step.id}: figure ${step.figure}`);
  }
});

test("the phase-change step quotes the task's numbers: the untrained loss and ln V, computed by the core, and the markers' thresholds", () => {
  const step = TOUR_STEPS.find((s) => s.id === 'learn-phase-change');
  const state = stepState(step, defaults, defaults);
  const text = stepText(step, { core, state });
  // Independently: the seed's untrained model on the held-out sequences, and a uniform guess over V tokens.
  const trainer = core.createTrainer({ task: state.trainTask, seed: state.trainSeed });
  const { vocabSize } = trainer.options;
  const initial = trainer.evaluate().loss;
  console.log(
    `# ${state.trainTask}, seed ${state.trainSeed}: initial loss ${initial}, ln ${vocabSize} = ${Math.log(vocabSize)}`,
  );
  assert.ok(text.includes(`starts at ${initial.toFixed(2)}`), text);
  assert.ok(text.includes(`ln ${vocabSize} ≈ ${Math.log(vocabSize).toFixed(2)}`), text);
  assert.match(text, /previous-token score ≥ 0\.4/);
  assert.match(text, /prefix-matching score ≥ 0\.4 with a previous-token head in a layer below/);
});

test("every step's state names only state fields, with values of the defaults' types", () => {
  for (const step of TOUR_STEPS) {
    for (const [key, value] of Object.entries(step.state)) {
      assert.ok(key in defaults && key !== 'tour', `${step.id}: ${key} is a state field`);
      const type = (v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
      assert.ok(
        type(value) === type(defaults[key]) || defaults[key] === null,
        `${step.id}: ${key} is a ${type(defaults[key])}`,
      );
    }
    const state = withChange(defaults, step.state);
    assert.deepEqual(withChange(state, {}), state, `${step.id}: consistent (heads exist)`);
  }
});

test("every step's state passes the attribute parsers (through its embed code) and survives a link", () => {
  for (const step of TOUR_STEPS) {
    const state = stepState(step, defaults, defaults);
    assert.equal(state.tour, step.id);
    const { change, errors } = readAttributes(
      reader(parseTag(embedCode(state, D_MODEL, MODULE).split('\n')[1])),
      D_MODEL,
    );
    assert.deepEqual(errors, [], step.id);
    const kinds = (s) => Array.from({ length: s.numHeads }, (_, h) => s.headKinds[h] ?? 'projected');
    const reproduced = withChange(defaults, change);
    assert.deepEqual({ ...reproduced, headKinds: kinds(reproduced) }, { ...state, headKinds: kinds(state) }, step.id);
    const linked = withChange(defaults, stateFromHash(`#${stateToHash(state, defaults)}`, defaults));
    assert.deepEqual(linked, state, `${step.id}: through the URL hash`);
    assert.match(stateToHash(state, defaults), new RegExp(`(^|&)tour=${step.id}($|&)`));
  }
});

test("the core computes every step's state", () => {
  for (const step of TOUR_STEPS) {
    const state = stepState(step, defaults, defaults);
    const options = { ...traceOptions(state), positionChecks: true };
    const trace = state.compare
      ? core.compareContexts(state.sentence, state.compareSentence, options).first
      : core.explain(state.sentence, options);
    assert.ok(trace.tokens.length > 1, step.id);
    assert.ok(trace.weights.data.every(Number.isFinite), `${step.id}: finite weights`);
  }
});

test("a step keeps the learner's colour map and sentence and replaces everything else by the defaults plus the step", () => {
  const current = withChange(defaults, {
    colorMap: 'cividis',
    temperature: 0.2,
    numHeads: 5,
    sentence: 'something else',
  });
  const step = TOUR_STEPS.find((s) => s.id === 'heads');
  const state = stepState(step, defaults, current);
  assert.equal(state.colorMap, 'cividis');
  assert.equal(state.temperature, defaults.temperature);
  assert.equal(state.numHeads, 4);
  assert.equal(state.sentence, 'something else', "the learner's sentence stays");
  assert.deepEqual(exampleOffer(step, state), {
    text: `This step keeps your sentence; its text speaks of “${defaults.sentence}”.`,
    sentence: defaults.sentence,
  });
  // A step that needs its own sentence applies it and says why; an empty sentence takes the example.
  const own = TOUR_STEPS.find((s) => s.id === 'padding-and-mask-token');
  assert.equal(stepState(own, defaults, current).sentence, own.state.sentence);
  assert.match(exampleOffer(own, stepState(own, defaults, current)).text, /uses its own example/);
  assert.equal(stepState(step, defaults, { ...current, sentence: ' ' }).sentence, step.state.sentence);
  // A step that shows a trained model does not carry it into the next steps, which start from the learner's state.
  const trained = TOUR_STEPS.find((s) => s.id === 'trained-model');
  assert.equal(stepState(trained, defaults, current).model, 'causal');
  assert.equal(stepState(step, defaults, current).model, defaults.model);
});

test('the tour attribute: empty is the first step, a number counts from 1, or a step id', () => {
  const parse = (text) => readAttributes(reader({ tour: text }), D_MODEL);
  assert.deepEqual(parse('').change, { tour: TOUR_STEPS[0].id });
  assert.deepEqual(parse('3').change, { tour: TOUR_STEPS[2].id });
  assert.deepEqual(parse(` ${TOUR_STEPS.length} `).change, { tour: TOUR_STEPS.at(-1).id });
  assert.deepEqual(parse('causal-mask').change, { tour: 'causal-mask' });
  assert.equal(tourStepId('pipeline'), 'pipeline');
  for (const bad of ['0', String(TOUR_STEPS.length + 1), 'bogus', '2.5', '-1']) {
    const { change, errors } = parse(bad);
    assert.deepEqual(change, {}, `tour="${bad}" sets nothing`);
    assert.equal(errors.length, 1);
    assert.match(
      errors[0],
      new RegExp(
        `^tour="${bad.replace('.', '\\.')}": must be empty, a step number from 1 to ${TOUR_STEPS.length}, or a step id: attention-weights, `,
      ),
    );
  }
});

test('the embed code of a view inside the tour names the step', () => {
  const state = stepState(TOUR_STEPS[5], defaults, defaults);
  const tag = embedCode(state, D_MODEL, MODULE).split('\n')[1];
  assert.match(tag, new RegExp(` tour="${TOUR_STEPS[5].id}"`));
  assert.ok(!tag.includes('state="tour'), 'a named attribute, not in the state attribute');
  assert.equal(
    embedCode(defaults, D_MODEL, MODULE).split('\n')[1],
    '<attention-explorer></attention-explorer>',
    'no tour: no attribute',
  );
});

test('a step that quotes the untrained loss starts from an untrained model: its own trainer, or Reset first', () => {
  let before = null;
  for (const step of TOUR_STEPS) {
    const state = stepState(step, defaults, defaults);
    const options = step.view === 'learn' ? JSON.stringify(trainerOptions(state)) : null;
    const text = stepText(step, { core, state });
    // The Learn chapter keeps its model while the trainer's options stay (learn-lesson.js): the previous step's training
    // is still there, the button reads "Continue", and "Press Train: the loss starts at …" would be false.
    if (/loss starts at/.test(text) && options === before)
      assert.match(text, /Press Reset, then Train/, `${step.id}: same model as the step before`);
    before = options;
  }
});

test("with the trained decoder chosen, every step's text is true of the model it shows, or the step switches and says so", () => {
  // What only the designed heads do: identity projections peak on the diagonal, random W_Q, W_K, W_V, a √d_k switched off.
  const designedOnly = /peaks on the diagonal|random here|switched off|identity projections/;
  for (const learner of modelRegistry()) {
    const from = { ...defaults, model: learner.id, head: learner.firstHead };
    for (const step of TOUR_STEPS) {
      const state = stepState(step, defaults, from);
      const text = stepText(step, { core, state, from: learner.id });
      if (!modelEntry(state.model).can.designedControls)
        assert.doesNotMatch(text, designedOnly, `${learner.id}, ${step.id}: shows ${state.model}`);
      if (state.model !== learner.id) {
        const note = `The tour shows the ${modelEntry(state.model).label} for this step; closing it gives your ${learner.label} back.`;
        assert.ok(text.includes(note), `${learner.id}, ${step.id}: says it switched (${text})`);
      }
    }
  }
});
