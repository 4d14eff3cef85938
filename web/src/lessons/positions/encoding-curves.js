// Selected columns of P as curves over position (d2l.ai's figure: d_model = 32, 60 positions,
// columns 6–9), each with its wavelength 2π·base^(2j/d_model).
import { format } from 'd3-format';
import { schemeTableau10 } from 'd3-scale-chromatic';
import { lineChart } from '../../views/line-chart.js';

const fmt = format('.4~g');
const COLUMNS_SHOWN = 4;

/**
 * @param {object} lab  core.positionalEncodingLab() result
 * @param {{ firstColumn: number, base: number }} options  columns firstColumn … firstColumn + 3
 * @returns {HTMLElement}
 */
export function encodingCurves(lab, { firstColumn, base }) {
  const [n, d] = lab.encoding.shape;
  const first = Math.max(0, Math.min(firstColumn, d - 1));
  const columns = Array.from({ length: Math.min(COLUMNS_SHOWN, d - first) }, (_, k) => first + k);
  const series = columns.map((c, k) => ({
    label: `column ${c}: ${c % 2 ? 'cos' : 'sin'}, wavelength 2π·${base}^(${c - (c % 2)}/${d}) = ${fmt(lab.wavelengths[c])}`,
    values: Array.from({ length: n }, (_, i) => lab.encoding.data[i * d + c]),
    color: schemeTableau10[k],
  }));
  return lineChart({
    name: 'encoding-curves',
    caption: `Columns ${columns[0]}–${columns.at(-1)} of P over ${n} positions: each pair of columns shares one frequency; later pairs turn more slowly.`,
    series,
    xTitle: 'position i',
    yTitle: 'P[i, column]',
    yDomain: [-1, 1],
  });
}
