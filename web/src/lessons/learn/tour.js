// The guided tour's steps in the chapter "Learn": the previous-token head, the two-layer induction
// circuit, and the phase change (Olsson et al. 2022). The step format: explorer/tour-steps.js; these
// steps set the task, not the sentence (the chapter does not read it). The numbers in the text come
// from the task itself (task-facts.js) and the markers' definition (head-formations.js, tasks.js).
import { HEAD_SCORES } from './tasks.js';
import { taskFacts } from './task-facts.js';

const threshold = (key) => HEAD_SCORES.find((score) => score.key === key).threshold;

/**
 * @type {{ id: string, title: string, text: string | ((context: { core: object, state: object }) => string),
 *   state: object, view: string, figure?: string }[]}
 */
export const tour = [
  {
    id: 'learn-previous-token',
    title: 'Training forms a head: previous token',
    text:
      'Press Train: a one-layer model learns to predict the token before each one. ' +
      "Within a few hundred steps its head's weights gather one cell left of the diagonal, every query attending to the token before it, " +
      'and its previous-token bar crosses the tick.',
    state: { trainTask: 'previous-token', trainSpeed: 25 },
    view: 'learn',
  },
  {
    id: 'learn-induction-circuit',
    title: 'Two layers, one circuit: induction heads',
    text:
      'Press Train again: the task is now to continue a segment that repeats. ' +
      'A head in layer 1 learns to attend to the previous token, so each position also carries the token before it; ' +
      'a head in layer 2 then looks for the earlier occurrence of the current token and attends to the token after it — the outlined cells. ' +
      'Press a head, or switch it off below, to see the accuracy fall without it.',
    state: { trainTask: 'induction', trainSpeed: 100 },
    view: 'learn',
  },
  {
    id: 'learn-phase-change',
    title: 'The phase change',
    text: ({ core, state }) => {
      const { vocabSize, guessLoss, initialLoss, seed } = taskFacts(core, state);
      return (
        // The step before trains the same task and seed: the model may have trained already ("Continue"), and Reset
        // brings back the untrained model this sentence's numbers are of.
        `Press Reset, then Train: the loss starts at ${initialLoss.toFixed(2)} (untrained, seed ${seed}), soon falls to ln ${vocabSize} ≈ ` +
        `${guessLoss.toFixed(2)} — a uniform guess among ${vocabSize} tokens — and sits there until the induction circuit forms and it drops. ` +
        `As they form, the curves get marks: ① a previous-token head (previous-token score ≥ ${threshold('previousToken')}), ② an ` +
        `induction head (prefix-matching score ≥ ${threshold('prefixMatching')} with a previous-token head in a layer below). ` +
        "Then scrub the history back across the drop to watch the layer-1 head's stripe appear."
      );
    },
    state: { trainTask: 'induction', trainLog: true },
    view: 'learn',
  },
];
