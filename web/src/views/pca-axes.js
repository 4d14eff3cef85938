// What the lenses' plots on the first two principal axes share (the projection of word vectors and attention outputs,
// and a word's path through the trained model's stages): arrowheads in each group's colour and the axes' titles.

/**
 * An arrowhead marker per colour in `defs` (a d3 selection of an SVG <defs>).
 * @param {object} defs  @param {string[]} colors  @param {(index: number) => string} idOf  each marker's id
 * @param {number} refX  where along the 10-unit head the line ends (10: at its tip)
 */
export function arrowMarkers(defs, colors, idOf, refX) {
  colors.forEach((color, index) =>
    defs
      .append('marker')
      .attr('id', idOf(index))
      .attr('viewBox', '0 0 10 10')
      .attr('refX', refX)
      .attr('refY', 5)
      .attr('markerWidth', 7)
      .attr('markerHeight', 7)
      .attr('orient', 'auto')
      .append('path')
      .attr('d', 'M 0 0 L 10 5 L 0 10 z')
      .attr('fill', color),
  );
}

/** "PC 1 →" under the plot and "PC 2 →" up its left side, in an SVG (d3 selection) of `width` × `height` pixels. */
export function principalAxisTitles(svg, width, height) {
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('x', width / 2)
    .attr('y', height - 8)
    .attr('text-anchor', 'middle')
    .text('PC 1 →');
  svg
    .append('text')
    .attr('class', 'axis-title')
    .attr('transform', `translate(12, ${height / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('PC 2 →');
}
