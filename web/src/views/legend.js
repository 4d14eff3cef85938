// A colour legend: a gradient bar for a sequential d3 colour scale, with a labelled axis.
import { axisBottom } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';
const STOPS = 16;
let nextId = 0;

/**
 * @param {{ color: (v: number) => string, domain: [number, number], title: string, width?: number }} spec
 * @returns {SVGSVGElement}
 */
export function legend({ color, domain, title, width = 200 }) {
  const id = `legend-gradient-${nextId++}`;
  const margin = { left: 10, right: 14 };
  const svg = select(document.createElementNS(SVG_NS, 'svg'))
    .attr('class', 'legend')
    .attr('width', width)
    .attr('height', 46)
    .attr('role', 'img')
    .attr('aria-label', `${title}: colour scale from ${domain[0]} to ${domain[1]}`);
  const gradient = svg.append('defs').append('linearGradient').attr('id', id);
  for (let s = 0; s <= STOPS; s++) {
    const t = s / STOPS;
    gradient
      .append('stop')
      .attr('offset', `${t * 100}%`)
      .attr('stop-color', color(domain[0] + t * (domain[1] - domain[0])));
  }
  svg.append('text').attr('x', margin.left).attr('y', 11).attr('class', 'legend-title').text(title);
  svg
    .append('rect')
    .attr('x', margin.left)
    .attr('y', 16)
    .attr('width', width - margin.left - margin.right)
    .attr('height', 10)
    .attr('fill', `url(#${id})`);
  const x = scaleLinear()
    .domain(domain)
    .range([margin.left, width - margin.right]);
  svg.append('g').attr('transform', 'translate(0, 26)').call(axisBottom(x).ticks(4).tickSizeOuter(0));
  return svg.node();
}
