// The section "Positional-encoding lab": the encoding itself, relative position, and why it matters for
// attention; the explorer draws its figures into the given slots and wires its controls (lab-controls.js).
import { element, row, subsection } from '../../explorer/layout.js';

/**
 * @param {Record<string, HTMLElement>} slots  the explorer's figure slots (labEncoding, binaryPositions, …)
 * @param {{ encoding: HTMLFormElement, rotation: HTMLFormElement, input: HTMLFormElement }} controls  buildLabControls()'s forms
 * @returns {HTMLElement}
 */
export function labSection(slots, controls) {
  const lab = element('section', 'positional-lab');
  lab.append(element('h2', '', 'Positional-encoding lab'));
  const side = (...names) => row(...names.map((name) => slots[name]));
  lab.append(
    subsection('1. The encoding itself', 'Its own d_model, base and number of positions (independent of the 100-d word vectors). ' +
      'Each row is a position; fast columns on the left, slow ones on the right — like the low and high bits of a binary counter.',
    controls.encoding, side('labEncoding', 'binaryPositions'), slots.encodingCurves),
    subsection('2. Relative position', 'Positions close together have similar encodings, and moving by δ is the same rotation wherever you start.',
      slots.positionSimilarity, controls.rotation, slots.rotation),
    subsection('3. Why it matters for attention', 'The sentence above, through the selected head. Switch the position information, shuffle the words, ' +
      'and change how loud P is against the word vectors.',
    controls.input, slots.shuffle, slots.repeated, slots.scoreTerms, slots.norms));
  return lab;
}
