// Chapter "Attention", the first screen: every head as a small multiple with what it does, the
// selected head's weights large, and the mix — the selected word's output built from the value
// vectors its row of weights picks (Vaswani et al. 2017 eq. 1). Below, who attends to whom as lines.
import { element, row } from '../../explorer/layout.js';

export const attentionChapter = {
  id: 'attention',
  title: 'Attention',
  takeaway: 'A word’s new vector is a mix of every word’s value vector, weighted by its row of the heatmap: hover or tap a row to see the mix.',
  views: ['heads', 'attention', 'mix', 'lines'],
  /**
   * @param {{ slots: Record<string, HTMLElement>, lineControls: { form: HTMLFormElement } }} parts
   * @returns {{ content: HTMLElement[], views: Record<string, HTMLElement[]>, figureControls: HTMLElement[] }}
   */
  build({ slots, lineControls }) {
    const linePanel = element('section', 'line-panel');
    linePanel.append(element('h3', '', 'Who attends to whom'), lineControls.form, slots.lines);
    const first = row(slots.heads, slots.attention, slots.mix);
    first.classList.add('first-screen');
    return {
      content: [first, linePanel],
      views: { heads: [slots.heads], attention: [slots.attention], mix: [slots.mix], lines: [linePanel] },
      figureControls: [lineControls.form],
    };
  },
};
