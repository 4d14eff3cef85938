// Chapter "Positions": the sinusoidal encoding P (Vaswani et al. 2017 §3.5; d2l.ai §11.6.3) drawn
// once, then the lab — its own width and base, binary-counter bits, curves, similarity, the
// relative-offset rotation — and why it matters for attention (shuffle, repeated words, score terms).
import { labSection } from './lab-section.js';
import { section } from '../../explorer/layout.js';
import { formula } from '../../views/formulas.js';

export const positionsChapter = {
  id: 'positions',
  title: 'Positions',
  takeaway: 'Attention by itself ignores word order: shuffle the words and each keeps its output. ' +
    'Adding a positional encoding P, a different vector for every position, is what lets it tell “dog bites man” from “man bites dog”.',
  views: ['positional', 'lab'],
  /**
   * @param {{ slots: Record<string, HTMLElement>, labControls: object }} parts
   * @returns {{ content: HTMLElement[], views: Record<string, HTMLElement[]>, figureControls: HTMLElement[] }}
   */
  build({ slots, labControls }) {
    const positional = section('The sinusoidal positional encoding of your sentence', '', formula('positional'), slots.positional);
    const lab = labSection(slots, labControls);
    return {
      content: [positional, lab],
      views: { positional: [positional], lab: [lab] },
      figureControls: [labControls.encoding, labControls.rotation, labControls.input],
    };
  },
};
