// GPT-2's learned position embeddings beside the sinusoids: a checkpoint's wpe (n_positions × d_model, one learned
// row per position: Radford et al. 2018 §3.1 and 2019 §2.3 learned them where Vaswani et al. 2017 §3.5 added P) on its
// first three principal components (PCA in the core), each drawn over position. In GPT-2 small they come out as
// smooth waves of growing frequency, much like P's columns: training found something close to the sinusoids.
import { schemeTableau10 } from 'd3-scale-chromatic';
import { lineChart } from '../../views/line-chart.js';

/**
 * @param {{ pca: { variance: { data: Float32Array }, coordinates: { data: Float32Array, shape: [number, number] } },
 *   nPositions: number, dModel: number, total: number }} learned  the checkpoint's wpe on its principal axes
 *   (models.js learnedPositions): coordinates [nPositions, k], each component's variance and the total variance (÷ rows)
 * @returns {HTMLElement} <figure data-figure="learned-positions">
 */
export function learnedPositions({ pca, nPositions, dModel, total }) {
  const k = pca.coordinates.shape[1];
  const share = (c) => `${((100 * pca.variance.data[c]) / total).toFixed(0)} %`;
  const series = Array.from({ length: k }, (_, c) => ({
    label: `component ${c + 1}: ${share(c)} of the variance`,
    values: Array.from({ length: nPositions }, (_, i) => pca.coordinates.data[i * k + c]),
    color: schemeTableau10[c],
  }));
  return lineChart({
    name: 'learned-positions',
    caption:
      `This checkpoint learned its positions: wpe holds one learned row of ${dModel} numbers for each of its ` +
      `${nPositions.toLocaleString('en-US')} positions, added to the token's row as P is added above. Here are the ` +
      'rows on their first principal components, over position: in GPT-2 small they are smooth waves of rising ' +
      'frequency, close to the sinusoids: learned, not designed.',
    series,
    xTitle: 'position i',
    yTitle: 'wpe[i] on the component',
  });
}

/** What the figure says while the model shown has no learned positions to draw. */
export const LEARNED_POSITIONS_NOTE =
  'GPT-2 learned its positions instead of adding sinusoids: with a GPT-2 checkpoint chosen above (its checkpoint ' +
  'attribute), this figure draws its learned position embeddings on their principal components.';
