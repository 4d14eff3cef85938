// The one mapping from the explorer's state to the core: the options core.explain() takes, and the one
// core call an update makes (core.explain, or core.compareContexts while two sentences are compared).
// The core checks every option again and says what is wrong; nothing here decides what the core decides
// (the score function's scaling, the limits).

/** A head of the state as core.explain() takes it: a kind name, or { kind: 'offset', offset }. */
function headOption(kind, offset) {
  return kind === 'offset' ? { kind, offset } : kind;
}

/** The settings core.explain() takes under the same names and values. */
const PASSED_AS_IS = [
  'numHeads',
  'projection',
  'seed',
  'temperature',
  'scoreFunction',
  'additiveHidden',
  'positionalEncoding',
  'maskedPositions',
  'positionalScale',
  'embeddingScale',
  'shuffleSeed',
  'normalizer',
];

/**
 * The options core.explain() takes for this state (see core/index.d.ts ExplainOptions).
 * @param {object} state  the explorer's state (the settings of the state schema: lessons/chapters.js STATE_SCHEMA)
 * @returns {object}
 */
export function traceOptions(state) {
  return {
    ...Object.fromEntries(PASSED_AS_IS.map((name) => [name, state[name]])),
    heads: state.headKinds.slice(0, state.numHeads).map((kind) => headOption(kind ?? 'projected', state.offset)),
    causal: state.mask === 'causal',
    validLength: state.mask === 'padding' ? state.validLength : undefined,
  };
}

/**
 * The update's one core call.
 * @param {object} core  createAttentionCore()'s core
 * @param {object} state  the explorer's state
 * @param {{ positionChecks: boolean, encoderBlock: boolean, project2d: boolean }} parts  the trace's optional
 *   parts, asked for only while a figure on screen draws them
 * @returns {{ trace: object, projected: { traces: object[], projection: object | null } }}  trace: the sentence's
 *   (the first one's while comparing); projected: the traces drawn on shared principal axes and those axes
 * @throws the core's TypeError / RangeError for a state it cannot compute
 */
export function computeTrace(core, state, parts) {
  const options = { ...traceOptions(state), ...parts };
  if (!state.compare) {
    const trace = core.explain(state.sentence, options);
    return { trace, projected: { traces: [trace], projection: trace.projection } };
  }
  const pair = core.compareContexts(state.sentence, state.compareSentence, options);
  return { trace: pair.first, projected: { traces: [pair.first, pair.second], projection: pair.projection } };
}
