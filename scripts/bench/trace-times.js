// Self times from a Chromium trace (CDP Tracing, the devtools.timeline categories): how long each event ran on the
// renderer's main thread less the events it contains, as DevTools' summary counts them; and from a CPU profile (CDP
// Profiler), each function's. For the bench's profiles.

/** Self time (ms) per event name on the renderer's main thread, from complete ('X') and begin/end events. */
export function mainThreadSelfTimes(events) {
  // The main thread: the one that ran the most layouts (its thread_name record is not always sent).
  const layouts = {};
  for (const e of events)
    if (e.name === 'Layout') layouts[`${e.pid}/${e.tid}`] = (layouts[`${e.pid}/${e.tid}`] ?? 0) + 1;
  const main = Object.entries(layouts).sort((a, b) => b[1] - a[1])[0]?.[0];
  const own = events
    .filter((e) => `${e.pid}/${e.tid}` === main && (e.ph === 'X' || e.ph === 'B' || e.ph === 'E'))
    .sort((a, b) => a.ts - b.ts);
  const spans = [];
  const open = [];
  for (const e of own) {
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0) });
    else if (e.ph === 'B') open.push(e);
    else {
      const begin = open.pop();
      if (begin) spans.push({ name: begin.name, start: begin.ts, end: e.ts });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const self = {};
  const stack = [];
  for (const span of spans) {
    while (stack.length && stack.at(-1).end <= span.start) stack.pop();
    const parent = stack.at(-1);
    const duration = span.end - span.start;
    self[span.name] = (self[span.name] ?? 0) + duration / 1000;
    if (parent) self[parent.name] -= Math.min(duration, parent.end - span.start) / 1000;
    stack.push(span);
  }
  return self;
}

/** Self time (ms) per function of a CPU profile: "name file:line". */
export function profileSelfTimes({ nodes, samples, timeDeltas }) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const self = {};
  samples.forEach((id, k) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^.*\/(src|node_modules)\//, '$1/').replace(/\?.*$/, '');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    self[key] = (self[key] ?? 0) + (timeDeltas[k + 1] ?? 0) / 1000;
  });
  return self;
}
