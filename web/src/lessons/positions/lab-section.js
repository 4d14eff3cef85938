// The section "Positional-encoding lab": the encoding itself, relative position, and why it matters for
// attention; the explorer draws its figures into the given slots and wires its controls (lab-controls.js).
import { row, subsection } from '../../views/layout.js';

/**
 * @param {Record<string, HTMLElement>} slots  the explorer's figure slots (labEncoding, binaryPositions, …)
 * @param {{ encoding: HTMLFormElement, rotation: HTMLFormElement, input: HTMLFormElement }} controls  buildLabControls()'s forms
 * @returns {{ encoding: HTMLElement, relative: HTMLElement, attention: HTMLElement }} its three parts
 */
export function labSection(slots, controls) {
  const side = (...names) => row(...names.map((name) => slots[name]));
  return {
    encoding: subsection(
      '1. P, the encoding itself',
      "By default your sentence's P: one row per token, d_model = 100 columns, base 10,000 " +
        '(Vaswani et al. §3.5). Change its width, base and number of positions to explore. Fast columns on the left, slow ones on the right — ' +
        'like the low and high bits of a binary counter, beside it.',
      controls.encoding,
      side('labEncoding', 'binaryPositions'),
      slots.encodingCurves,
      slots.learnedPositions,
    ),
    relative: subsection(
      '2. Relative position',
      'Positions close together have similar encodings, and moving by δ is the same rotation wherever you start.',
      slots.positionSimilarity,
      controls.rotation,
      slots.rotation,
    ),
    attention: subsection(
      '3. Why it matters for attention',
      'The sentence above, through the selected head. Switch the position information, shuffle the words, ' +
        'and change how loud P is against the word vectors.',
      controls.input,
      slots.shuffle,
      slots.repeated,
      slots.scoreTerms,
      slots.norms,
    ),
  };
}
