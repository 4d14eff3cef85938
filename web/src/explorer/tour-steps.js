// The guided tour's steps, in teaching order: each chapter's steps (lessons/<chapter>/tour.js), in the
// chapters' order — from a weighted sum to positional encodings, the lenses, then training. Pure data;
// tour.js shows them and the element applies them.
//
// A step is { id, title, text, state, view, figure?, control? }:
//   id      stable name, used in links (#tour=<id>) and in the `tour` attribute: lowercase-with-dashes,
//           unique. Never rename one (old links would stop working).
//   title   a few words; the step's heading.
//   text    two or three sentences: what to notice in the figure with this state; or a function
//           ({ core, state }) → those sentences, when they quote numbers the core computes (stepText).
//   state   a partial state (fields of defaultState() in state.js) applied on top of the explorer's
//           defaults, so a step looks the same however the learner got to it; the learner's model and sentence
//           stay unless the step sets a model or is marked ownSentence. A step sets the sentence its text talks
//           about, as an example.
//   view    the `views` name (attributes.js VIEWS) of the section the step opens (its chapter) and scrolls to; with a `views`
//           attribute that hides it, the tour skips the step.
//   figure  optional: a figure slot (figures.js FIGURES) to scroll to inside that view, for long views.
//   control optional: the name of a setting the text asks the learner to change; showing the step opens
//           the folded settings ("More settings") that hold it.
//   ownSentence optional: why the step needs its own sentence (its state is about positions in it, or it compares
//           two): then its state's sentence is applied. Without it the learner's sentence stays, and the panel
//           offers the step's sentence ("Use the tour's example": tour.js exampleOffer).
// Adding a step is one entry in its chapter's tour.js: its place in the list is its place in the tour.
// tests/js/tour.test.js checks every field of every step.
import { CHAPTERS, STATE_SCHEMA } from '../lessons/chapters.js';
import { modelEntry, modelThat } from '../models/registry.js';

/** @type {{ id: string, title: string, text: string | Function, state: object, view: string, figure?: string, control?: string, ownSentence?: string }[]} */
export const TOUR_STEPS = CHAPTERS.flatMap((chapter) => chapter.tour);

/** The settings a trained model fixes (the state schema's `fixed`): they change only the designed heads. */
const FIXED_BY_TRAINED = new Set(STATE_SCHEMA.filter((setting) => setting.fixed).map((setting) => setting.name));

/** What a step about the designed heads' settings adds while a model that fixes those settings is shown. */
function fixedNote(id) {
  const model = modelEntry(id);
  if (model.can.designedControls) return null;
  const designed = modelThat('designedControls').label;
  return `You are looking at the ${model.label}, which fixes these settings: choose “${designed}” to see them change.`;
}

/** What a step that shows a model of its own says when the learner had another: which it shows, and that it comes back. */
function switchNote(shown, learners) {
  if (learners === undefined || learners === shown) return null;
  return `The tour shows the ${modelEntry(shown).label} for this step; closing it gives your ${modelEntry(learners).label} back.`;
}

/**
 * A step's text, its numbers computed for the state it shows; on a trained model, a step that sets what the model fixes
 * says so, and a step that shows another model than the learner's says that it switched.
 * @param {{ text: string | ((context: { core: object, state: object }) => string), state: object }} step
 * @param {{ core: object, state: object, from?: string }} context  the explorer's core and state (the step applied);
 *   from: the learner's model when the tour opened
 */
export function stepText(step, context) {
  const text = typeof step.text === 'function' ? step.text(context) : step.text;
  if (step.state?.model !== undefined) {
    const switched = switchNote(context.state.model, context.from);
    if (switched) return `${text} ${switched}`;
  }
  const note = fixedNote(context.state.model);
  const fixed = Object.keys(step.state ?? {}).some((key) => FIXED_BY_TRAINED.has(key));
  return note && fixed ? `${text} ${note}` : text;
}

/**
 * The step a `tour` attribute names: empty for the first, a number from 1, or a step id.
 * @param {string} text
 * @returns {string} the step's id
 * @throws {RangeError} naming the allowed numbers and ids
 */
export function tourStepId(text) {
  const trimmed = text.trim();
  if (trimmed === '') return TOUR_STEPS[0].id;
  const number = /^\d+$/.test(trimmed) ? Number(trimmed) : null;
  if (number !== null && number >= 1 && number <= TOUR_STEPS.length) return TOUR_STEPS[number - 1].id;
  if (number === null && TOUR_STEPS.some((step) => step.id === trimmed)) return trimmed;
  throw new RangeError(
    `must be empty, a step number from 1 to ${TOUR_STEPS.length}, or a step id: ${TOUR_STEPS.map((step) => step.id).join(', ')}`,
  );
}
