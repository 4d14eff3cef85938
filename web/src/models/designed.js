// The designed heads as a model: one layer of heads built by hand (designed_heads.hpp) or projected with
// seeded weights, computed by one core.explain call (settings/trace.js computeTrace). Its Run keeps the
// whole trace beside the shared fields, for the chapters that draw the trace's other parts (the stepper's
// steps, the position checks, the 2-D projection).
import { designedHead } from '../settings/head.js';
import { computeTrace } from '../settings/trace.js';
import { headDimsLine, headDimsText } from './head-dims.js';
import { packAttention } from './run.js';

/** What a designed head is, in a few words: "previous token", "semantic", "offset δ = 2". */
export function headKindLabel(head) {
  if (head.kind === 'offset') {
    if (head.offset === -1) return 'previous token';
    if (head.offset === 1) return 'next token';
    return `offset δ = ${head.offset}`;
  }
  return { projected: 'projected', semantic: 'semantic', first: 'first token', uniform: 'uniform' }[head.kind];
}

/** What a designed head does, in a line (the large heatmap says it at length). */
function headKindLine(head, projection) {
  switch (head.kind) {
    case 'semantic':
      return 'looks at the words closest in meaning';
    case 'offset':
      return head.offset < 0
        ? `looks ${-head.offset} word${head.offset === -1 ? '' : 's'} back`
        : `looks ${head.offset} word${head.offset === 1 ? '' : 's'} ahead`;
    case 'first':
      return 'rests on the first token';
    case 'uniform':
      return 'averages every word evenly';
    default:
      return projection === 'identity'
        ? 'identity W_Q, W_K: each word matches itself most, hence the diagonal'
        : 'random W_Q, W_K, like an untrained model';
  }
}

/** What a head of this kind does, in one sentence, with the d_k it uses (head-dims.js: designed heads differ). */
function headKindExplanation(head) {
  const dims = headDimsText(head);
  switch (head.kind) {
    case 'semantic':
      return `Queries and keys are whole word vectors (${dims}), own position masked: each word attends to the most similar words.`;
    case 'offset':
      return (
        `Queries are the positional encodings (${dims}) turned by the rotation R(δ), δ = ${head.offset}, so each word ` +
        `attends to the word ${Math.abs(head.offset)} position${Math.abs(head.offset) === 1 ? '' : 's'} ` +
        `${head.offset < 0 ? 'before' : 'after'} it.`
      );
    case 'first':
      return `Every query is the encoding of position 0 (${dims}), so every word attends to the first token (a common "resting place" in trained models).`;
    case 'uniform':
      return `Queries are zero (${dims}), so every score is 0 and every word spreads its attention evenly: the output is the plain average of the values.`;
    default:
      return (
        `Queries and keys are the input projected by W_Q and W_K (${dims}): with identity projections, raw ` +
        'word-vector similarity; with random ones, what an untrained model does.'
      );
  }
}

/** 1 where a head's score is −∞ (masked: the causal or padding mask, a semantic head's own position), as [1, H, T, T]. */
function scoreMasks(trace) {
  const T = trace.tokens.length;
  const masks = new Uint8Array(trace.heads.length * T * T);
  trace.heads.forEach((head, h) =>
    head.scores.data.forEach((score, k) => {
      if (score === -Infinity) masks[h * T * T + k] = 1;
    }),
  );
  return { data: masks, shape: [1, trace.heads.length, T, T] };
}

/** The short form of a head's scores for captions (designed heads keep dot products under 'additive'). */
export function scoreText(options, head) {
  if (head.additiveScorer) return 'vᵀtanh(W_q q + W_k k)';
  return options.scale ? 'QKᵀ/√d_k' : 'QKᵀ';
}

/**
 * The Run of a trace: its heads as layer 1 of a one-layer model.
 * @param {object} trace  core.explain()'s trace
 * @param {{ traces: object[], projection: object | null }} projected  the traces on shared principal axes
 * @param {number} selected  the selected head (0-based, one that exists): the Run's block
 * @returns {import('./run.js').Run}
 */
export function designedRun(trace, projected, selected) {
  const T = trace.tokens.length;
  const chosen = trace.heads[selected];
  return {
    model: 'designed',
    status: 'ready',
    tokens: trace.tokens,
    totalTokens: trace.totalTokens,
    truncated: trace.truncated,
    validLength: trace.validLength,
    attention: packAttention([trace.heads.map((head) => head.weights.data)], T),
    heads: trace.heads.map((head, h) => ({
      layer: 0,
      head: h,
      label: headKindLabel(head),
      kind: head.kind,
      score: NaN,
      scores: null,
      does: headKindLine(head, trace.options.projection),
      dims: headDimsLine(head),
      formula: `${trace.options.normalizer ?? 'softmax'}(${scoreText(trace.options, head)})`,
      explanation: headKindExplanation(head),
    })),
    masks: scoreMasks(trace),
    causal: trace.options.causal,
    // The selected head as the mix and the stepper read it for every model (a trained model's run gives the same).
    block: {
      layer: 0,
      head: selected,
      weights: chosen.weights,
      values: chosen.values,
      scores: chosen.scores,
      // q·k before scaling (the additive score for an additive head): the weights' tooltip quotes it.
      dotProducts: chosen.dotProducts,
      additive: Boolean(chosen.additiveScorer),
      masksOwnPosition: chosen.masksOwnPosition,
    },
    trace,
    projected,
  };
}

/**
 * The designed heads run on the state's sentence: one core call (explain, or compareContexts while comparing).
 * @param {object} core  @param {object} state  the explorer's state
 * @param {{ positionChecks: boolean, encoderBlock: boolean, project2d: boolean }} parts  the trace's optional parts
 * @returns {import('./run.js').Run}
 * @throws the core's TypeError / RangeError for a state it cannot compute
 */
export function runDesigned(core, state, parts) {
  const { trace, projected } = computeTrace(core, state, parts);
  return designedRun(trace, projected, designedHead(state.head, trace.heads.length));
}
