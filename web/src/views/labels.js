// How tokens are named on axes: their text, [MASK] when masked, and a mark on padding.

/** One label per token of the trace. */
export function tokenLabels(trace) {
  return trace.tokens.map((t, i) => {
    const text = t.masked ? '[MASK]' : t.text;
    return i >= trace.validLength ? `${text} ·pad` : text;
  });
}
