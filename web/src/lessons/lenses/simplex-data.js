// What the simplex figure draws, computed by the core: each normalizer's weights for three scores,
// the regularized objective over a raster of the triangle (for its level sets), and the two-token
// curves. Three small core calls per change of the figure's own inputs, none per keystroke.
import { simplexRaster } from './simplex-geometry.js';
import { names } from '../../settings/limits.js';

const RASTER = simplexRaster(96, 84);
export const SCORE_RANGE = [-4, 4];
export const DELTA_RANGE = [-6, 6];
const CURVE_SAMPLES = 121;

/** The figure's scores, temperature and level-set method from the state; bad values (hand-edited links) fall back to defaults. */
export function simplexInputs({ simplexScores: s, simplexTemperature: t, simplexLevelSets: method }) {
  const [lo, hi] = SCORE_RANGE;
  const scores =
    Array.isArray(s) && s.length === 3 && s.every(Number.isFinite)
      ? s.map((v) => Math.min(hi, Math.max(lo, v)))
      : [1, 0.5, -0.5];
  const temperature = Number.isFinite(t) && t >= 0.05 && t <= 5 ? t : 1;
  return { scores, temperature, levelSets: names('normalizers').includes(method) ? method : 'softmax' };
}

/**
 * @param {object} core  createAttentionCore()'s core
 * @param {{ scores: number[], temperature: number, levelSets: string }} inputs  from simplexInputs
 * @returns {object} { scores, temperature, levelSets, points: { method: [p1, p2, p3] },
 *   raster: { columns, rows, values: Float32Array (objective; outside the triangle its minimum) },
 *   curves: { deltas: number[], weights: { method: number[] } } (p1 of scores [Δ, 0]) }
 */
export function simplexData(core, { scores, temperature, levelSets }) {
  const row = { data: Float32Array.from(scores), shape: [1, 3] };
  const points = Object.fromEntries(
    names('normalizers').map((method) => [method, Array.from(core.normalize(row, { method, temperature }).data)]),
  );
  const inside = core.simplexObjective({ data: RASTER.points, shape: [RASTER.points.length / 3, 3] }, scores, {
    method: levelSets,
    temperature,
  }).data;
  const min = inside.reduce((a, b) => Math.min(a, b), Infinity);
  const values = new Float32Array(RASTER.columns * RASTER.rows).fill(min);
  let k = 0;
  RASTER.inside.forEach((flag, i) => {
    if (flag) values[i] = inside[k++];
  });
  const [d0, d1] = DELTA_RANGE;
  const deltas = Array.from({ length: CURVE_SAMPLES }, (_, i) => d0 + ((d1 - d0) * i) / (CURVE_SAMPLES - 1));
  const pairs = { data: Float32Array.from(deltas.flatMap((d) => [d, 0])), shape: [CURVE_SAMPLES, 2] };
  const curves = Object.fromEntries(
    names('normalizers').map((method) => [
      method,
      Array.from(core.normalize(pairs, { method, temperature }).data.filter((_, i) => i % 2 === 0)),
    ]),
  );
  return {
    scores,
    temperature,
    levelSets,
    points,
    raster: { columns: RASTER.columns, rows: RASTER.rows, values },
    curves: { deltas, weights: curves },
  };
}
