// Controls of the simplex figure: its three scores (also draggable on the figure, score-drag.js), its
// temperature, and whose objective's level sets are drawn.
import { field, input, select } from '../../views/form-controls.js';
import { labelled } from '../../settings/limits.js';
import { SCORE_RANGE } from './simplex-data.js';

/**
 * @returns {{ form: HTMLFormElement, read: () => object, sync: (state: object) => void }}
 */
export function buildSimplexControls() {
  const form = document.createElement('form');
  form.className = 'controls simplex-controls';
  form.setAttribute('aria-label', 'Simplex figure settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  const withOutput = (control) =>
    Object.assign(control.parentElement.appendChild(document.createElement('output')), { className: 'hint' });
  const [min, max] = SCORE_RANGE;
  const scores = [0, 1, 2].map((k) =>
    field(form, `Score of key ${k + 1}`, input(`simplexScore${k}`, { type: 'range', min, max, step: 0.05 })),
  );
  const scoreOuts = scores.map(withOutput);
  const temperature = field(
    form,
    'Temperature τ',
    input('simplexTemperature', { type: 'range', min: 0.05, max: 5, step: 0.05 }),
  );
  const temperatureOut = withOutput(temperature);
  const levels = field(form, 'Level sets of', select('simplexLevelSets', labelled('normalizers')));
  return {
    form,
    read: () => ({
      simplexScores: scores.map((s) => Number(s.value)),
      simplexTemperature: Number(temperature.value),
      simplexLevelSets: levels.value,
    }),
    sync({ scores: values, temperature: t, levelSets }) {
      values.forEach((v, k) => {
        scores[k].value = String(v);
        scoreOuts[k].value = v.toFixed(2);
      });
      temperature.value = String(t);
      temperatureOut.value = t.toFixed(2);
      levels.value = levelSets;
    },
  };
}
