// The weights' colour maps: d3's own interpolators, one cached scale per name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interpolateCividis, interpolateViridis } from 'd3-scale-chromatic';
import { WEIGHT_COLOR_MAPS, weightColor, weightColorMap } from '../../web/src/views/colors.js';

test("each map is d3's interpolator over [0, 1]", () => {
  const reference = { viridis: interpolateViridis, cividis: interpolateCividis };
  assert.deepEqual(WEIGHT_COLOR_MAPS, ['viridis', 'cividis']);
  for (const name of WEIGHT_COLOR_MAPS) {
    for (const t of [0, 0.25, 0.5, 1]) assert.equal(weightColorMap(name)(t), reference[name](t), `${name}(${t})`);
    assert.deepEqual(weightColorMap(name).domain(), [0, 1]);
  }
  assert.notEqual(weightColorMap('cividis')(0), weightColorMap('viridis')(0));
});

test('the same scale object on every call (heatmap.js caches its colour table per object)', () => {
  assert.equal(weightColorMap('viridis'), weightColorMap('viridis'));
  assert.equal(weightColorMap('cividis'), weightColorMap('cividis'));
  assert.equal(weightColorMap(), weightColor, 'viridis is the default and the old weightColor');
});

test('an unknown name is a RangeError naming the allowed ones', () => {
  assert.throws(() => weightColorMap('jet'), { name: 'RangeError', message: /viridis, cividis/ });
  assert.throws(() => weightColorMap('constructor'), RangeError);
});
