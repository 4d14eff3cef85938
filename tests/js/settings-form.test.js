// The explorer's settings form as the state schema describes it (each setting's `control`: settings/schema.js
// Control): the controls, their order and places, complete descriptions, and the `controls` attribute's fields.
// tests/e2e/page.test.js checks the page's form against the same list.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createAttentionCore } from 'attention-explorer/core';
import { formSettings } from '../../web/src/explorer/settings-form.js';
import { CONTROL_FIELDS } from '../../web/src/explorer/show-chosen.js';
import { STATE_SCHEMA } from '../../web/src/lessons/chapters.js';
import { setCoreLimits } from '../../web/src/settings/limits.js';

const D_MODEL = 100;

before(async () => {
  const core = await createAttentionCore();
  setCoreLimits(core.limits, core.trainerLimits, core.languageModelLimits);
});

test('the form: six controls in view, eight under "More settings", in the order the page has always shown', () => {
  const placed = (place) =>
    formSettings()
      .filter(({ setting }) => setting.control.place === place)
      .map(({ name }) => name);
  assert.deepEqual(placed('view'), [
    'numHeads',
    'headKind',
    'mask',
    'validLength',
    'temperature',
    'positionalEncoding',
  ]);
  assert.deepEqual(placed('more'), [
    'head',
    'offset',
    'projection',
    'seed',
    'scoreFunction',
    'additiveHidden',
    'normalizer',
    'colorMap',
  ]);
  // Every setting of the schema with a control is in the form, and nothing else is.
  assert.deepEqual(
    formSettings().map(({ setting }) => setting.name),
    formSettings(STATE_SCHEMA).map(({ setting }) => setting.name),
  );
});

test('each control is described completely: label, widget, place, its own position, choices that all have a label', () => {
  const seen = new Set();
  for (const { name, setting } of formSettings()) {
    const { control } = setting;
    assert.ok(typeof control.label === 'string' && control.label.length > 0, `${name}: a label`);
    assert.ok(['select', 'range', 'number'].includes(control.widget), `${name}: widget ${control.widget}`);
    assert.ok(['view', 'more'].includes(control.place), `${name}: place ${control.place}`);
    assert.ok(Number.isInteger(control.order) && control.order >= 1, `${name}: order ${control.order}`);
    assert.ok(!seen.has(`${control.place} ${control.order}`), `${name}: its position is its own`);
    seen.add(`${control.place} ${control.order}`);
    if (control.widget === 'select') {
      // The designed heads' select lists them as the state's head count says; the others list the setting's choices.
      const values =
        setting.type === 'head' ? [0, 1, 2, 3] : (setting.names?.() ?? control.values({ dModel: D_MODEL }));
      assert.ok(values.length > 0, `${name}: choices`);
      for (const value of values) {
        const text = control.optionLabel?.(value, { dModel: D_MODEL }) ?? String(value);
        assert.ok(typeof text === 'string' && text.length > 0 && text !== 'undefined', `${name} ${value}: a label`);
      }
    } else {
      const [min, max] = setting.range();
      assert.ok(min < max, `${name}: a range from the core's limits`);
      if (control.widget === 'number')
        assert.equal(setting.type, 'integer', `${name}: a number field holds an integer`);
      if (control.widget === 'range') assert.ok(control.step > 0, `${name}: a slider's step`);
    }
  }
});

test("the `controls` attribute's fields are the form's controls, each once", () => {
  const fields = Object.values(CONTROL_FIELDS).flat();
  assert.deepEqual(
    [...fields].sort(),
    formSettings()
      .map(({ name }) => name)
      .sort(),
  );
  assert.equal(new Set(fields).size, fields.length);
});
