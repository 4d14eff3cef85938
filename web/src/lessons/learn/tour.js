// The guided tour's steps in the chapter "Learn": the previous-token head, the two-layer induction
// circuit, and the phase change (Olsson et al. 2022). The step format: explorer/tour-steps.js; these
// steps set the task, not the sentence (the chapter does not read it).

/** @type {{ id: string, title: string, text: string, state: object, view: string, figure?: string }[]} */
export const tour = [
  {
    id: 'learn-previous-token',
    title: 'Training forms a head: previous token',
    text: 'Press Train: a one-layer model learns to predict the token before each one. ' +
      'Within a few hundred steps its head\'s weights gather one cell left of the diagonal, every query attending to the token before it, ' +
      'and its previous-token bar crosses the tick.',
    state: { trainTask: 'previous-token', trainSpeed: 25 },
    view: 'learn',
  },
  {
    id: 'learn-induction-circuit',
    title: 'Two layers, one circuit: induction heads',
    text: 'Press Train again: the task is now to continue a segment that repeats. ' +
      'A head in layer 0 learns to attend to the previous token, so each position also carries the token before it; ' +
      'a head in layer 1 then looks for the earlier occurrence of the current token and attends to the token after it — the outlined cells. ' +
      'Press a head, or switch it off below, to see the accuracy fall without it.',
    state: { trainTask: 'induction', trainSpeed: 100 },
    view: 'learn',
  },
  {
    id: 'learn-phase-change',
    title: 'The phase change',
    text: 'The loss sits near ln 16 ≈ 2.8, guessing, for a few hundred steps, then drops within ~150 steps: that is when the induction head forms, ' +
      'marked on both curves. Scrub the history back across the drop and watch the layer-1 head\'s stripe appear.',
    state: { trainTask: 'induction', trainLog: true },
    view: 'learn',
  },
];
