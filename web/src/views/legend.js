// A colour legend: a gradient bar for a sequential d3 colour scale, with a labelled axis. Given the legend
// it drew before, it updates that one in place (the same scale again: nothing to do).
import { axisBottom } from 'd3-axis';
import { format } from 'd3-format';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { setAttr, setText } from './dom-update.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const STOPS = 16;
const TICKS = 5; // evenly spaced from one end to the other
const tickLabel = format('.3~r'); // three significant digits, never an exponent
let nextId = 0;

/** What each legend was drawn for, to skip a redraw of the same scale. */
const drawnFor = new WeakMap();

/**
 * @param {{ color: (v: number) => string, domain: [number, number], title: string, width?: number }} spec
 * @param {SVGSVGElement} [last]  a legend this function returned before, of the same width: updated and returned
 * @returns {SVGSVGElement}
 */
export function legend({ color, domain, title, width = 200 }, last) {
  let was = last && drawnFor.get(last);
  if (was?.width !== width) last = was = undefined;
  else if (was.color === color && was.title === title && was.domain.join() === domain.join()) return last;
  const margin = { left: 10, right: 14 };
  const svg = last ? select(last) : skeleton(width, margin);
  setAttr(svg.node(), 'aria-label', `${title}: colour scale from ${domain[0]} to ${domain[1]}`);
  const at = (t) => domain[0] + t * (domain[1] - domain[0]); // the value a fraction t along the domain
  svg.selectAll('stop').each(function (_, s) {
    setAttr(this, 'stop-color', color(at(s / STOPS)));
  });
  setText(svg.select('.legend-title').node(), title);
  // The axis depends on the domain alone (the mix's scale changes at every keystroke, its rounded domain seldom). Its
  // ticks sit at fixed places, evenly from one end to the other: d3-axis draws them once, with the legend, and a new
  // domain rewrites their labels in place (no element, and no text node, made anew).
  if (!last) {
    const x = scaleLinear()
      .domain([0, TICKS - 1])
      .range([margin.left, width - margin.right]);
    const ticks = Array.from({ length: TICKS }, (_, i) => i);
    svg.select(':scope > g').call(axisBottom(x).tickValues(ticks).tickSizeOuter(0));
  }
  if (was?.domain.join() !== domain.join()) {
    svg.selectAll('.tick text').each(function (i) {
      setText(this, tickLabel(at(i / (TICKS - 1))));
    });
  }
  drawnFor.set(svg.node(), { color, domain: [...domain], title, width });
  return svg.node();
}

/** A legend's elements, its stops not yet coloured. */
function skeleton(width, margin) {
  const id = `legend-gradient-${nextId++}`;
  const svg = select(document.createElementNS(SVG_NS, 'svg'))
    .attr('class', 'legend')
    .attr('width', width)
    .attr('height', 46)
    .attr('role', 'img');
  const gradient = svg.append('defs').append('linearGradient').attr('id', id);
  for (let s = 0; s <= STOPS; s++) gradient.append('stop').attr('offset', `${(s / STOPS) * 100}%`);
  svg.append('text').attr('x', margin.left).attr('y', 11).attr('class', 'legend-title');
  svg
    .append('rect')
    .attr('x', margin.left)
    .attr('y', 16)
    .attr('width', width - margin.left - margin.right)
    .attr('height', 10)
    .attr('fill', `url(#${id})`);
  svg.append('g').attr('transform', 'translate(0, 26)');
  return svg;
}
