// A heatmap's axis of token labels, drawn as d3-axis draws axisTop / axisLeft of a band scale (the same lines,
// labels and attributes, so the figure and its exports look the same), but updated in place: ticks are
// joined by index, and only what changed is written (a keystroke changes one label, not the axis).
// Unlike d3-axis, no tick has a transform of its own: ticks and labels are placed by their coordinates, in one
// group that turns them all. Chromium gives every SVG transform a node of its paint property trees, and every node
// splits the paint into chunks that each keystroke's compositing update (Layerize) goes through: one transform an
// axis instead of two a token took a third off that step with the decoder at 32 tokens.
import { select } from 'd3-selection';
import { setAttr, setAttrs, setText } from './dom-update.js';

// As d3-axis: a half-pixel offset keeps one-pixel lines crisp on screens of device pixel ratio 1.
const offset = () => (window.devicePixelRatio > 1 ? 0 : 0.5);
const TICK_PX = 6,
  PADDING_PX = 3;

/**
 * Draws or updates an axis in `g` (an SVG <g>, empty the first time).
 * @param {SVGGElement} g
 * @param {{ orient: 'top' | 'left', scale: import('d3-scale').ScaleBand<number>, ticks: number[],
 *   label: (index: number) => string, turn?: { angle: number, y: number, dx: string | number, dy: string } }} spec
 *   ticks: the indices labelled; turn: the labels turned by `angle` degrees (SVG's rotate: negative is
 *   anticlockwise) about their tick's end, then moved by y (before turning) and dx, dy (along the label), with
 *   text-anchor start — the labels as d3-axis draws them with a `rotate(angle)` transform on each
 */
export function bandAxis(g, { orient, scale, ticks, label, turn }) {
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
    axis.append('g').attr('class', 'ticks');
  }
  setAttr(g.querySelector('.domain'), 'd', top ? `M${r0},${off}H${r1}` : `M${off},${r0}V${r1}`);
  const frame = g.querySelector(':scope > .ticks');
  const angle = turn?.angle ?? 0;
  setAttr(frame, 'transform', angle ? `rotate(${angle})` : null);
  // A point (x, y) of the axis in the turned frame's coordinates: turned back by -angle.
  const radians = (angle * Math.PI) / 180,
    cos = Math.cos(radians),
    sin = Math.sin(radians);
  const inFrame = (x, y) => [round(x * cos + y * sin), round(-x * sin + y * cos)];
  select(frame)
    .selectAll('.tick')
    .data(ticks, (index) => index)
    .join((enter) => {
      const tick = enter.append('g').attr('class', 'tick').attr('opacity', 1);
      tick.append('line').attr('stroke', 'currentColor');
      tick.append('text').attr('fill', 'currentColor');
      return tick;
    })
    .order()
    .each(function (index) {
      const at = position(index);
      const [x1, y1] = inFrame(top ? at : 0, top ? 0 : at);
      const [x2, y2] = inFrame(top ? at : -TICK_PX, top ? -TICK_PX : at);
      setAttrs(this.firstChild, { x1, y1, x2, y2 });
      const text = this.lastChild;
      if (turn) {
        const [x, y] = inFrame(at, 0);
        setAttrs(text, { x, y: round(y + turn.y), dx: turn.dx, dy: turn.dy, 'text-anchor': 'start' });
      } else if (top) setAttrs(text, { x: at, y: -(TICK_PX + PADDING_PX), dy: '0em' });
      else setAttrs(text, { x: -(TICK_PX + PADDING_PX), y: at, dy: '0.32em' });
      setText(text, label(index));
    });
}

/** To a thousandth of a pixel: turning back and forth leaves 1e-14 that would rewrite attributes for nothing. */
function round(v) {
  return Math.round(v * 1000) / 1000 + 0;
}
