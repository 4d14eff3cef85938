// Offset as a rotation (Vaswani et al. 2017 §3.5): for every frequency ω_j the 2×2 rotation R(δω_j)
// turns (p_i[2j], p_i[2j+1]) into (p_{i+δ}[2j], p_{i+δ}[2j+1]). The core applies it in float32 and
// reports the largest error, and the error at every position when the angles are formed in float32.
import { format } from 'd3-format';
import { scrollRegion } from '../../views/layout.js';
import { lineChart } from '../../views/line-chart.js';

const fmt = format('.4f');
const sci = format('.2e');
const ROWS_SHOWN = 6; // the first frequencies, then the last one
const TOLERANCE = 1e-5;

function cellRow(values, header = false) {
  const tr = document.createElement('tr');
  for (const v of values) tr.appendChild(document.createElement(header ? 'th' : 'td')).textContent = v;
  return tr;
}

/** The frequencies shown in the table: the first few and the slowest. */
function shownPairs(pairs) {
  const shown = Array.from({ length: Math.min(ROWS_SHOWN, pairs) }, (_, j) => j);
  if (pairs > ROWS_SHOWN) shown.push(pairs - 1);
  return shown;
}

function rotationTable(check, { from, to, wavelengths }) {
  const table = document.createElement('table');
  table.className = 'rotation-table';
  table.createCaption().textContent = `R(δω_j) applied to p_${from}, compared with p_${to} (δ = ${to - from})`;
  table.appendChild(
    cellRow(
      [
        'j',
        'wavelength',
        'angle δω_j (rad)',
        'R(δω_j) = [cos sin; −sin cos]',
        `p_${from} (sin, cos)`,
        'R(δω_j) · p_i',
        `p_${to} (sin, cos)`,
        '|error|',
      ],
      true,
    ),
  );
  const pair = (t, j) => `(${fmt(t.data[2 * j])}, ${fmt(t.data[2 * j + 1])})`;
  for (const j of shownPairs(check.angles.shape[0])) {
    const error = Math.max(
      Math.abs(check.rotated.data[2 * j] - check.target.data[2 * j]),
      Math.abs(check.rotated.data[2 * j + 1] - check.target.data[2 * j + 1]),
    );
    const [c, s] = [check.cosines.data[j], check.sines.data[j]];
    table.appendChild(
      cellRow([
        String(j),
        format('.4~g')(wavelengths[2 * j]),
        fmt(check.angles.data[j]),
        `[${fmt(c)} ${fmt(s)}; ${fmt(-s)} ${fmt(c)}]`,
        pair(check.from, j),
        pair(check.rotated, j),
        pair(check.target, j),
        sci(error),
      ]),
    );
  }
  return table;
}

/** First position whose error reaches TOLERANCE, or −1. */
function firstAbove(errors) {
  return errors.findIndex((e) => e >= TOLERANCE);
}

/**
 * @param {object} lab  core.positionalEncodingLab() result
 * @param {{ from: number, to: number, tokens: object[] }} options  the token pair (positions)
 * @returns {HTMLElement}
 */
export function rotationView(lab, { from, to, tokens }) {
  const { float64Angles, float32Angles } = lab.rotation;
  const wrapper = document.createElement('figure');
  wrapper.className = 'rotation-view';
  wrapper.dataset.figure = 'rotation';
  wrapper.dataset.maxError = String(float64Angles.maxError);
  const d = lab.encoding.shape[1];
  const name = (i) => (i < tokens.length ? `“${tokens[i].text}” (position ${i})` : `position ${i}`);
  wrapper.appendChild(document.createElement('figcaption')).textContent =
    `Moving from ${name(from)} to ${name(to)} is the same rotation for any starting position: d_model = ${d}, all ${d / 2} frequencies.`;
  wrapper.append(
    scrollRegion(
      'table-scroll',
      'Rotation of each frequency pair, scrollable',
      rotationTable(float64Angles, { from, to, wavelengths: lab.wavelengths }),
    ),
  );
  const verdict = wrapper.appendChild(document.createElement('p'));
  verdict.className = 'verdict';
  verdict.textContent =
    `max |R(δ)·p_${from} − p_${to}| over all ${d} dimensions, in float32: ${sci(float64Angles.maxError)} ` +
    `(${float64Angles.maxError < TOLERANCE ? 'below' : 'above'} 1e-5). With the angles i·ω formed in float32, as a float32 framework ` +
    `computes position · div_term: ${sci(float32Angles.maxError)}.`;

  const errors = lab.rotationErrorByPosition;
  const crossing = firstAbove(errors.float32Angles.data);
  const core = Math.max(...errors.float64Angles.data);
  wrapper.append(
    lineChart({
      name: 'rotation-error',
      caption:
        `Where float32 runs out (δ = ${to - from}): the core's encoding keeps the identity below ${sci(Math.max(core, 1e-9))} ` +
        `up to position ${errors.float64Angles.shape[0] - 1}; with float32 angles the error ` +
        (crossing < 0 ? 'stays below 1e-5 here.' : `reaches 1e-5 at position ${crossing}.`),
      series: [
        {
          label: 'angles in double, P stored in float32 (this core)',
          values: errors.float64Angles.data,
          color: '#4e79a7',
        },
        { label: 'angles i·ω formed in float32', values: errors.float32Angles.data, color: '#e15759' },
      ],
      xTitle: 'position i',
      yTitle: 'max |R(δ)p_i − p_{i+δ}|',
      log: true,
      yDomain: [1e-9, 1e-3],
      thresholds: [{ value: TOLERANCE, label: '1e-5' }],
    }),
  );
  return wrapper;
}
