// The options of core.explain(), compareContexts() and explainCross() (index.d.ts ExplainOptions): checked against the
// core's limits and name lists, with the defaults filled in, as the core reads them.
import { ATTENTION_OPTIONS, attentionOptions } from './attention-options.js';
import * as check from './checks.js';
import { headKindNames } from './limits.js';

const EXPLAIN_OPTIONS = [
  'normalizer',
  'scoreFunction',
  'additiveHidden',
  'numHeads',
  'projection',
  'seed',
  'heads',
  'positionalEncoding',
  'base',
  'alibiSlopes',
  'maskedPositions',
  'maxTokens',
  'encoderBlock',
  'project2d',
  'embeddingScale',
  'positionalScale',
  'positionChecks',
  'shuffleSeed',
  ...ATTENTION_OPTIONS,
];
/**
 * scoreFunction (a name of limits.scoreFunctions, or undefined) and additiveHidden (1 … limits.maxAdditiveHidden,
 * default 16), checked. What the score function decides (the scaling; whether additiveHidden applies) the core
 * decides and reports back (withScoring).
 */
function scoreOptions(options, where, limits) {
  const { scoreFunction, additiveHidden = 16 } = options;
  if (scoreFunction !== undefined) check.oneOf(scoreFunction, where, 'scoreFunction', limits.scoreFunctions);
  return {
    scoreFunction,
    additiveHidden: check.integerIn(additiveHidden, where, 'additiveHidden', 1, limits.maxAdditiveHidden),
  };
}

/** The options a result was computed with: the checked ones, and the core's { scoreFunction, scale, additiveHidden } in effect. */
export function withScoring(normalized, scoring) {
  return { ...normalized, ...scoring };
}

/** true / false stand for 'sinusoidal' / 'none'. */
export function positionalKind(value, where, limits) {
  if (typeof value === 'boolean') return value ? 'sinusoidal' : 'none';
  return check.oneOf(value, where, 'positionalEncoding', limits.positionalEncodings);
}

/** A head spec: a kind name, or { kind: 'offset', offset: δ }; aliases ('previous'/'next') are offsets (−1/+1). */
function headSpec(spec, where, index, limits) {
  const name = `heads[${index}]`;
  const { kind, offset = 0 } = typeof spec === 'string' ? { kind: spec } : (spec ?? {});
  check.oneOf(kind, where, `${name}.kind`, headKindNames(limits));
  if (Object.hasOwn(limits.headKindAliases, kind)) return { kind: 'offset', offset: limits.headKindAliases[kind] };
  const max = limits.maxHeadOffset;
  return { kind, offset: kind === 'offset' ? check.integerIn(offset, where, `${name}.offset`, -max, max) : 0 };
}

/**
 * @param {object} options  as given @param {string} where  the function, for messages @param {number} dModel
 * @param {object} limits  core.limits
 * @returns {object} every option checked, defaults filled in
 * @throws TypeError / RangeError naming the option, an unknown one included
 */
export function explainOptions(options, where, dModel, limits) {
  const { maxTokens, maxSeed, maxInputScale } = limits;
  check.knownOptions(options, where, EXPLAIN_OPTIONS);
  // heads: 'designed' is the explorer's designed heads (core.limits.designedHeads), one head each unless numHeads says
  // more (the rest projected).
  const designed = options.heads === 'designed';
  const {
    numHeads = designed ? limits.designedHeads.length : 1,
    projection = 'identity',
    seed = 0,
    heads: given = [],
    positionalEncoding = true,
    base = 10000,
    alibiSlopes = 'paper',
    maskedPositions = [],
    maxTokens: max = maxTokens,
    encoderBlock = true,
    project2d = true,
    embeddingScale = 1,
    positionalScale = 1,
    positionChecks = false,
    shuffleSeed = 0,
    normalizer = 'softmax',
  } = options;
  const heads = designed ? limits.designedHeads : given;
  if (!Array.isArray(heads))
    throw new TypeError(`${where}: heads must be an array of head kinds, or 'designed' (the explorer's four)`);
  if (!Array.isArray(maskedPositions))
    throw new TypeError(`${where}: maskedPositions must be an array of token positions`);
  return {
    numHeads: check.integerIn(numHeads, where, 'numHeads', 1, dModel),
    projection: check.oneOf(projection, where, 'projection', limits.projections),
    seed: check.integerIn(seed, where, 'seed', 0, maxSeed),
    heads: heads.map((spec, i) => headSpec(spec, where, i, limits)),
    positionalEncoding: positionalKind(positionalEncoding, where, limits),
    base: check.finiteIn(base, where, 'base', { above: 1 }),
    alibiSlopes: check.name(alibiSlopes, where, 'alibiSlopes'), // the core's table checks the name
    maskedPositions: maskedPositions.map((p, i) =>
      check.integerIn(p, where, `maskedPositions[${i}]`, 0, maxTokens - 1),
    ),
    maxTokens: check.integerIn(max, where, 'maxTokens', 1, maxTokens),
    encoderBlock: check.boolean(encoderBlock, where, 'encoderBlock'),
    project2d: check.boolean(project2d, where, 'project2d'),
    embeddingScale: check.finiteIn(embeddingScale, where, 'embeddingScale', { above: 0, max: maxInputScale }),
    positionalScale: check.finiteIn(positionalScale, where, 'positionalScale', { min: 0, max: maxInputScale }),
    positionChecks: check.boolean(positionChecks, where, 'positionChecks'),
    shuffleSeed: check.integerIn(shuffleSeed, where, 'shuffleSeed', 0, maxSeed),
    normalizer: check.oneOf(normalizer, where, 'normalizer', limits.normalizers),
    ...attentionOptions(options, where, limits),
    ...scoreOptions(options, where, limits),
  };
}
