// A trained head's label text (web/src/models/trained.js): the number agrees with the label at the digits shown,
// and every name it shows comes with a one-line definition.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEASURES, measuredJob, scoreText } from '../../web/src/models/trained.js';

const head = (label, scores) => ({ label, previous: 0, next: 0, self: 0, first: 0, sameWord: 0, prefix: 0, ...scores });

test('scoreText: 2 decimals, more only where 2 would round a score below the threshold up to it', () => {
  assert.equal(scoreText(0.452, 0.4), '0.45');
  assert.equal(scoreText(0.4, 0.4), '0.40');
  assert.equal(scoreText(0.15, 0.4), '0.15');
  assert.equal(scoreText(0.3969, 0.4), '0.397');
  assert.equal(scoreText(0.39996, 0.4), '0.39996');
  assert.equal(scoreText(0.394, 0.4), '0.39');
  for (let s = 0.39; s < 0.4; s += 0.00007) assert.ok(Number(scoreText(s, 0.4)) < 0.4, `${s} reads below 0.4`);
});

test('measuredJob: a mixed head names its best score below the threshold, with definitions of both names', () => {
  const job = measuredJob(head('mixed', { previous: 0.3969, self: 0.3533 }), 0.4);
  assert.equal(job.text, 'mixed (best: previous word 0.397)');
  assert.equal(job.score, 0.3969);
  assert.deepEqual(
    job.definitions.map((d) => d.split(': ')[0]),
    ['mixed', 'previous word'],
  );
  assert.match(job.definitions[0], /no score reaches 0\.4/);
  const labelled = measuredJob(head('prefix', { prefix: 0.52 }), 0.4);
  assert.equal(labelled.text, 'prefix matching 0.52');
  assert.match(labelled.definitions[0], /^prefix matching: .*earlier copy/);
  for (const [, name, meaning] of Object.values(MEASURES)) assert.ok(name && meaning.length > 20, name);
});

test('measuredJob: an induction head (measured on repeated random words) is named so, and a mixed head can be best at it', () => {
  const induction = measuredJob(head('induction', { induction: 0.48, first: 0.3 }), 0.4);
  assert.equal(induction.text, 'induction 0.48');
  assert.match(induction.definitions[0], /^induction: on 12 random words said twice/);
  const mixed = measuredJob(head('mixed', { induction: 0.38, previous: 0.2 }), 0.4);
  assert.equal(mixed.text, 'mixed (best: induction 0.38)');
  // A file measured before the score existed has none: the best of the others is named
  assert.equal(measuredJob(head('mixed', { previous: 0.2 }), 0.4).text, 'mixed (best: previous word 0.20)');
});
