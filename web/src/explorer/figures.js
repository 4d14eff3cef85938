// Every figure of the explorer as a pure function of (the computed result, the previous trace, the state,
// and the slot it is drawn in — read for the theme's colours, never changed).
import { attentionHeatmap } from '../lessons/attention/attention-heatmap.js';
import { crossAttentionView } from '../lessons/lenses/cross-attention.js';
import { costPlot } from '../lessons/lenses/cost-plot.js';
import { costTable } from '../lessons/lenses/cost-table.js';
import { binaryPositions } from '../lessons/positions/binary-positions.js';
import { encodingCurves } from '../lessons/positions/encoding-curves.js';
import { headGrid } from '../lessons/attention/head-grid.js';
import { labEncoding } from '../lessons/positions/lab-encoding.js';
import { lineView } from '../lessons/attention/line-view.js';
import { lookupBars } from '../lessons/lenses/lookup-bars.js';
import { normBars } from '../lessons/positions/norm-bars.js';
import { pipeline } from '../lessons/inside-head/pipeline.js';
import { positionSimilarity } from '../lessons/positions/position-similarity.js';
import { positionalHeatmap } from '../lessons/positions/positional-heatmap.js';
import { projectionView } from '../lessons/lenses/projection-view.js';
import { repeatedWord } from '../lessons/positions/repeated-word.js';
import { rotationView } from '../lessons/positions/rotation-view.js';
import { scoreFunctionView } from '../lessons/lenses/score-function.js';
import { scoreTerms } from '../lessons/positions/score-terms.js';
import { shuffleCheck } from '../lessons/positions/shuffle-check.js';
import { simplexView } from '../lessons/lenses/simplex-view.js';
import { SCORE_RANGE } from '../lessons/lenses/simplex-data.js';
import { rotationPair } from './state.js';
import { mixView } from '../lessons/attention/mix-view.js';

/** The query the mix shows: the one hovered or pinned, else the third token (the default sentence's "bank"), clamped. */
function mixQuery(trace, query) {
  const last = trace.tokens.length - 1;
  return Math.max(0, Math.min(last, query ?? 2));
}

/** The theme's text colour where a canvas figure is drawn (resolved: a canvas cannot read light-dark()), and softer shades of it. */
function themeColors(slot) {
  const ink = getComputedStyle(slot).color;
  const faded = (alpha) => ink.replace(/^rgba?\(([^,]+),([^,]+),([^,)]+).*$/, `rgba($1,$2,$3,${alpha})`);
  return { ink, muted: faded(0.7), line: faded(0.15) };
}

export const FIGURES = {
  heads: ({ trace }, _, { head, colorMap }) => headGrid(trace, { head, colorMap }),
  attention: ({ trace }, previous, { head, colorMap, cellBudget }) => attentionHeatmap(trace, { head, previous, colorMap, cellBudget }),
  mix: ({ trace }, _, { head, lineQuery, focusQuery }, slot) => mixView(trace, { head, query: mixQuery(trace, focusQuery ?? lineQuery) }, themeColors(slot)),
  lines: ({ trace }, _, { lineHeads, lineQuery, lineThreshold }) => lineView(trace, {
    heads: lineHeads, query: lineQuery !== null && lineQuery < trace.tokens.length ? lineQuery : null, threshold: lineThreshold }),
  pipeline: ({ trace }, _, { head, step, colorMap }) => pipeline(trace, { head, step, colorMap }),
  projection: ({ projected }) => projectionView(projected),
  positional: ({ trace }) => positionalHeatmap(trace),
  labEncoding: ({ trace, lab }, _, { labBase }) => labEncoding(lab, { tokens: trace.tokens, base: labBase }),
  binaryPositions: ({ trace, lab }) => binaryPositions(lab, { tokens: trace.tokens }),
  encodingCurves: ({ lab }, _, { labFirstColumn, labBase }) => encodingCurves(lab, { firstColumn: labFirstColumn, base: labBase }),
  positionSimilarity: ({ trace, lab }, _, { labCosine }) => positionSimilarity(lab, { cosine: labCosine, tokens: trace.tokens }),
  rotation: ({ trace, lab }, _, state) => rotationView(lab, { ...rotationPair(state, trace.tokens.length), tokens: trace.tokens }),
  shuffle: ({ trace }, _, { head, colorMap }) => shuffleCheck(trace, { head, colorMap }),
  repeated: ({ trace }, _, { head }) => repeatedWord(trace, { head }),
  scoreTerms: ({ trace }, _, { head }) => scoreTerms(trace, { head }),
  norms: ({ trace }) => normBars(trace),
  scoreFunction: ({ scoreCosts }) => scoreFunctionView(scoreCosts),
  simplex: ({ simplex }) => simplexView(simplex, { range: SCORE_RANGE }),
  lookup: ({ lookup }) => (lookup.result ? lookupBars(lookup.result, lookup.options) : document.createElement('div')),
  cross: ({ cross }, _, { head, colorMap }) => crossAttentionView(cross, { head, colorMap }),
  costTable: ({ cost }) => costTable(cost.costs, cost.sizes),
  costPlot: ({ cost }) => costPlot(cost.costs, cost.sizes),
};

/** Figures that need more than the plain trace: their data is computed only while one of them is on screen. */
export const NEEDS_CHECKS = ['shuffle', 'repeated', 'scoreTerms', 'norms'];
export const NEEDS_LAB = ['labEncoding', 'binaryPositions', 'encodingCurves', 'positionSimilarity', 'rotation'];

/** Figures whose data is computed only while one of them is on screen: figure → the result's key. */
export const OWN_DATA = { scoreFunction: 'scoreCosts', simplex: 'simplex', lookup: 'lookup', cross: 'cross', costTable: 'cost', costPlot: 'cost' };

/** Figures drawn from their own data alone (no other state): redrawn only when that data is new. */
export const DATA_ONLY = ['scoreFunction', 'simplex', 'lookup', 'costTable', 'costPlot'];

/** Whether a result has the data figure `name` draws from. */
export function hasDataFor(result, name) {
  if (name in OWN_DATA) return result[OWN_DATA[name]] !== null;
  if (NEEDS_CHECKS.includes(name)) return result.trace.positionChecks !== null;
  if (NEEDS_LAB.includes(name)) return result.lab !== null;
  return true;
}
