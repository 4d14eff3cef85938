// The weights' colour maps: d3's own interpolators, one cached scale per name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interpolateCividis, interpolateViridis } from 'd3-scale-chromatic';
import {
  WEIGHT_COLOR_MAPS,
  divergingColor,
  lightInkOn,
  weightColor,
  weightColorMap,
} from '../../web/src/views/colors.js';

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

test('lightInkOn picks the ink of the larger WCAG contrast, and on the diverging scale it reaches 4.5:1 everywhere', () => {
  // Contrast computed here from the WCAG 2.1 definitions, apart from colors.js
  const channel = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = (css) => {
    const [r, g, b] = css.match(/\d+/g).map((v) => channel(Number(v) / 255));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  assert.equal(lightInkOn('rgb(255, 255, 255)'), false);
  assert.equal(lightInkOn('rgb(0, 0, 0)'), true);
  // The chip the accessibility audit caught: white on this blue is 3.5:1, black 6.0:1
  assert.equal(lightInkOn('rgb(70, 144, 194)'), false);
  const color = divergingColor(1);
  let worst = Infinity;
  for (let v = -1; v <= 1.0001; v += 0.01) {
    const background = color(v);
    const ink = lightInkOn(background) ? luminance('rgb(255, 255, 255)') : luminance('rgb(0, 0, 0)');
    worst = Math.min(worst, contrast(luminance(background), ink));
  }
  assert.ok(worst >= 4.5, `lowest contrast on the diverging scale ${worst.toFixed(2)}:1`);
});
