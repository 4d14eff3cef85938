// How tokens are named on axes: their text, [MASK] when masked, and a mark on padding.

/** One label per token of the trace. */
export function tokenLabels(trace) {
  return trace.tokens.map((t, i) => {
    const text = t.masked ? '[MASK]' : t.text;
    return i >= trace.validLength ? `${text} ·pad` : text;
  });
}

/** "L1 H2": a head's short name ({ layer, head } from 0), layers and heads counted from 1 as every label counts them. */
export function headName({ layer, head }) {
  return `L${layer + 1} H${head + 1}`;
}

/** "layer 1, head 2": a head's long name, counted from 1. */
export function headTitle({ layer, head }) {
  return `layer ${layer + 1}, head ${head + 1}`;
}
