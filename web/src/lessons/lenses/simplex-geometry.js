// The probability simplex of three tokens drawn as an equilateral triangle of side 1: weights p (on the
// simplex) ⇄ points (x, y) in the plane, y pointing down as on screen. Key 1 is the top corner, key 2
// the bottom left, key 3 the bottom right; each point is the weights' barycentre of the corners.

export const HEIGHT = Math.sqrt(3) / 2;
export const CORNERS = [
  [0.5, 0],
  [0, HEIGHT],
  [1, HEIGHT],
];

/** [x, y] of weights p = [p1, p2, p3]. */
export function toPoint([p1, p2, p3]) {
  return [
    CORNERS[0][0] * p1 + CORNERS[1][0] * p2 + CORNERS[2][0] * p3,
    CORNERS[0][1] * p1 + CORNERS[1][1] * p2 + CORNERS[2][1] * p3,
  ];
}

/** Weights [p1, p2, p3] of the point (x, y); some are negative outside the triangle. */
export function toWeights(x, y) {
  const p1 = 1 - y / HEIGHT;
  const p3 = x - 0.5 * p1;
  return [p1, 1 - p1 - p3, p3];
}

/**
 * A raster over the triangle's bounding box, for level sets: sample (col, row) sits at the centre of
 * its cell, x = (col + ½)/columns, y = (row + ½)/rows · HEIGHT.
 * @param {number} columns @param {number} rows
 * @returns {{ columns: number, rows: number, inside: Uint8Array, points: Float32Array }} inside: 1 for
 *   samples in the triangle; points: their weights, 3 per inside sample, in raster order
 */
export function simplexRaster(columns, rows) {
  const inside = new Uint8Array(columns * rows);
  const points = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const p = toWeights((c + 0.5) / columns, ((r + 0.5) / rows) * HEIGHT);
      if (p.every((w) => w >= 0)) {
        inside[r * columns + c] = 1;
        points.push(...p);
      }
    }
  }
  return { columns, rows, inside, points: Float32Array.from(points) };
}
