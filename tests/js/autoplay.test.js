// The element's `autoplay` rule (lessons/learn/autoplay.js): training starts the first time the Learn chapter is
// open and the element seen, pauses while it is out of sight, and goes on when seen again unless the learner paused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Autoplay } from '../../web/src/lessons/learn/autoplay.js';

const at = (now) => ({ autoplay: true, seen: true, open: true, running: false, ...now });

test('autoplay starts once the chapter is open and the element seen, not before', () => {
  const rule = new Autoplay();
  assert.equal(rule.decide(at({ seen: false })), null, 'below the fold');
  assert.equal(rule.decide(at({ open: false })), null, 'another chapter shown');
  assert.equal(rule.decide(at({})), 'run');
  assert.equal(rule.decide(at({ running: true })), null, 'already running');
});

test('out of sight it pauses; seen again it goes on; after the learner pauses it stays paused', () => {
  const rule = new Autoplay();
  assert.equal(rule.decide(at({})), 'run');
  assert.equal(rule.decide(at({ running: true, seen: false })), 'pause');
  assert.equal(rule.decide(at({ seen: false })), null);
  assert.equal(rule.decide(at({})), 'run', 'seen again');
  assert.equal(rule.decide(at({ running: true, seen: false })), 'pause');
  rule.stoppedByLearner(); // e.g. Reset while out of sight
  assert.equal(rule.decide(at({})), null, "the learner's choice holds");
  // A new model after autoplay started (another task) starts paused, as any new model does.
  assert.equal(rule.decide(at({})), null);
});

test('without the attribute nothing happens; setting it later starts training when seen', () => {
  const rule = new Autoplay();
  assert.equal(rule.decide(at({ autoplay: false })), null);
  assert.equal(
    rule.decide(at({ autoplay: false, running: true, seen: false })),
    null,
    'the learner trains in the background',
  );
  assert.equal(rule.decide(at({})), 'run', 'autoplay set later');
});
