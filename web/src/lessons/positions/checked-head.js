// Which head the chapter's position checks (shuffle, repeated word, score terms) run on. The chapter's claim is that
// adding P lets attention tell word order apart — which holds for a head whose queries and keys read the input
// rows X + P (a projected head: Q = (X + P) W_Q). The page's default heads do not: the semantic head compares the word
// vectors alone (P never reaches its scores) and the previous-, next- and first-token heads read positions by
// construction. Checked on them, the verdicts said "without position information attention cannot see word order"
// while P was added. So the checks use the selected head when it is a projected one, and otherwise one projected head
// of their own, and say so.
import { headKindLabel } from '../../models/designed.js';
import { modelEntry } from '../../models/registry.js';
import { designedHead } from '../../settings/head.js';
import { traceOptions } from '../../settings/trace.js';
import { headList } from './positional-heads.js';

/** What a designed head kind does with P, said in the note: a head kind of core.limits → the clause. */
const WITHOUT_P = {
  semantic: ['compares', 'compare', 'the word vectors without P, so P never reaches the scores'],
  offset: ['reads', 'read', 'positions by construction, not from P'],
  first: ['reads', 'read', 'positions by construction, not from P'],
  uniform: ['weighs', 'weigh', 'every word the same, whatever P is'],
};

/**
 * The lens's inputs: the sentence, the designed heads' options and the selected head (null for a trained model, whose
 * position checks are not drawn).
 * @param {object} state  the explorer's state
 * @returns {{ sentence: string, options: object, selected: number } | null}
 */
export function checkInputs(state) {
  if (!modelEntry(state.model).can.designedControls) return null;
  return { sentence: state.sentence, options: traceOptions(state), selected: designedHead(state.head, state.numHeads) };
}

/**
 * The trace the checks read and the head they check: the page's trace and the selected head when that head is
 * projected; else a trace of one projected head (W_Q, W_K, W_V seeded by the same seed, d_k = d_model) and head 0.
 * One core.explain call with positionChecks, made while a check is on screen and again only when its inputs change.
 * @param {object} core  createAttentionCore()'s core  @param {ReturnType<typeof checkInputs>} inputs
 * @returns {{ trace: object, head: number, name?: string, note: string } | null}  name: the head as the captions name it
 *   (default "Head h"); note: which head is checked and why, one paragraph
 * @throws the core's TypeError / RangeError for options it cannot compute
 */
export function checkedHead(core, inputs) {
  if (!inputs) return null;
  const { sentence, options, selected } = inputs;
  const kinds = options.heads.map((h) => h.kind ?? h);
  if ((kinds[selected] ?? 'projected') === 'projected') {
    const trace = core.explain(sentence, { ...options, positionChecks: true });
    return {
      trace,
      head: selected,
      note: `Checked on head ${selected + 1}, the selected head: it is projected, so its queries and keys are (X + P)·W and P reaches its scores.`,
    };
  }
  const trace = core.explain(sentence, { ...options, numHeads: 1, heads: ['projected'], positionChecks: true });
  return { trace, head: 0, name: 'The checked projected head', note: otherHeadsNote(options.heads) };
}

/** A head option as the trace names it: 'previous' / 'next' are offset heads of δ = −1 / +1. */
function asTraced(spec) {
  if (typeof spec !== 'string') return spec;
  if (spec === 'previous' || spec === 'next') return { kind: 'offset', offset: spec === 'previous' ? -1 : 1 };
  return { kind: spec };
}

/** The note when the selected head does not read P: what each designed kind does with P, and which head is checked. */
function otherHeadsNote(heads) {
  const groups = new Map(); // what the heads do without P → { heads, labels, verbs }
  heads.map(asTraced).forEach((spec, h) => {
    if (spec.kind === 'projected') return;
    const [one, many, what] = WITHOUT_P[spec.kind];
    const group = groups.get(what) ?? { heads: [], labels: new Set(), verbs: [one, many] };
    group.heads.push(h);
    group.labels.add(headKindLabel(spec));
    groups.set(what, group);
  });
  const said = [...groups].map(([what, { heads: hs, labels, verbs }]) => {
    const many = hs.length > 1;
    return `head${many ? 's' : ''} ${headList(hs)} (${[...labels].join(', ')}) ${verbs[many ? 1 : 0]} ${what}`;
  });
  const first = said.join('; ');
  return (
    `These checks run on a projected head of their own, whose queries and keys are (X + P)·W, so P reaches its scores ` +
    `(select a projected head to check it instead): ${first}.`
  );
}
