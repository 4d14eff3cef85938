// A heatmap's axis of token labels, drawn as d3-axis draws axisTop / axisLeft of a band scale (the same
// elements and attributes, so the figure and its exports look the same), but updated in place: ticks are
// joined by index, and only what changed is written (a keystroke changes one label, not the axis).
import { select } from 'd3-selection';
import { setAttr, setText } from './dom-update.js';

// As d3-axis: a half-pixel offset keeps one-pixel lines crisp on screens of device pixel ratio 1.
const offset = () => (window.devicePixelRatio > 1 ? 0 : 0.5);
const TICK_PX = 6,
  PADDING_PX = 3;

/**
 * Draws or updates an axis in `g` (an SVG <g>, empty the first time).
 * @param {SVGGElement} g
 * @param {{ orient: 'top' | 'left', scale: import('d3-scale').ScaleBand<number>, ticks: number[],
 *   label: (index: number) => string, enterText?: (text: SVGTextElement) => void }} spec  ticks: the indices
 *   labelled; enterText: sets a new label's own attributes (the columns' labels are turned)
 */
export function bandAxis(g, { orient, scale, ticks, label, enterText }) {
  const top = orient === 'top';
  const off = offset();
  const [r0, r1] = scale.range().map((r) => +r + off);
  const center = Math.max(0, scale.bandwidth() - off * 2) / 2;
  const position = (index) => +scale(index) + center + off;
  const axis = select(g);
  if (!g.hasAttribute('fill')) {
    axis
      .attr('fill', 'none')
      .attr('font-size', 10)
      .attr('font-family', 'sans-serif')
      .attr('text-anchor', top ? 'middle' : 'end');
    axis.append('path').attr('class', 'domain').attr('stroke', 'currentColor');
  }
  setAttr(g.querySelector('.domain'), 'd', top ? `M${r0},${off}H${r1}` : `M${off},${r0}V${r1}`);
  axis
    .selectAll('.tick')
    .data(ticks, (index) => index)
    .join((enter) => {
      const tick = enter.append('g').attr('class', 'tick').attr('opacity', 1);
      tick
        .append('line')
        .attr('stroke', 'currentColor')
        .attr(top ? 'y2' : 'x2', -TICK_PX);
      const text = tick
        .append('text')
        .attr('fill', 'currentColor')
        .attr(top ? 'y' : 'x', -(TICK_PX + PADDING_PX))
        .attr('dy', top ? '0em' : '0.32em');
      if (enterText)
        text.each(function () {
          enterText(this);
        });
      return tick;
    })
    .order()
    .each(function (index) {
      setAttr(this, 'transform', top ? `translate(${position(index)},0)` : `translate(0,${position(index)})`);
      setText(this.lastChild, label(index));
    });
}
